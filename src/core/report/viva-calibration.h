/* viva-calibration.h: how well Viva's scores agree with a teacher's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A verdict as calibration compares them: unknown when the teacher gave
 * none (kappa then leaves the defense out). */
typedef enum
{
  VIVA_CALIBRATION_UNKNOWN = -1,
  VIVA_CALIBRATION_FAIL    = 0,
  VIVA_CALIBRATION_PASS    = 1,
} VivaCalibrationVerdict;

#define VIVA_TYPE_CALIBRATION (viva_calibration_get_type ())

G_DECLARE_FINAL_TYPE (VivaCalibration, viva_calibration, VIVA, CALIBRATION, GObject)

VivaCalibration *viva_calibration_new                 (void);
void             viva_calibration_add                 (VivaCalibration        *self,
                                                       double                  viva_score,
                                                       double                  teacher_score,
                                                       VivaCalibrationVerdict  viva_verdict,
                                                       VivaCalibrationVerdict  teacher_verdict);
guint            viva_calibration_get_n               (VivaCalibration        *self);
guint            viva_calibration_get_n_verdicts      (VivaCalibration        *self);
gboolean         viva_calibration_get_icc             (VivaCalibration        *self,
                                                       double                 *icc,
                                                       double                 *lower,
                                                       double                 *upper);
gboolean         viva_calibration_get_kappa           (VivaCalibration        *self,
                                                       double                 *kappa,
                                                       double                 *lower,
                                                       double                 *upper);
gboolean         viva_calibration_get_mean_difference (VivaCalibration        *self,
                                                       double                 *difference);
char            *viva_calibration_describe_icc        (VivaCalibration        *self);
char            *viva_calibration_describe_kappa      (VivaCalibration        *self);
char            *viva_calibration_describe_difference (VivaCalibration        *self);
JsonObject      *viva_calibration_to_json             (VivaCalibration        *self);

/* viva-calibration-stats.c: exposed for the tests, which check them
 * against an independent computation. */
double           viva_stats_beta_regularized          (double                  x,
                                                       double                  a,
                                                       double                  b);
double           viva_stats_f_quantile                (double                  p,
                                                       double                  df1,
                                                       double                  df2);

G_END_DECLS
