/* viva-remote-seat-defense.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "viva-remote-defense.h"
#include "viva-remote.h"

G_BEGIN_DECLS

#define VIVA_TYPE_REMOTE_SEAT_DEFENSE (viva_remote_seat_defense_get_type ())

G_DECLARE_FINAL_TYPE (VivaRemoteSeatDefense, viva_remote_seat_defense, VIVA, REMOTE_SEAT_DEFENSE, GObject)

VivaRemoteSeatDefense *viva_remote_seat_defense_new         (VivaExamServerClient  *client);
VivaRemoteDefense     *viva_remote_seat_defense_get_defense (VivaRemoteSeatDefense *self);
void                   viva_remote_seat_defense_show        (VivaRemoteSeatDefense *self,
                                                             VivaRemoteDefense     *defense);
void                   viva_remote_seat_defense_stop        (VivaRemoteSeatDefense *self);
void                   viva_remote_seat_defense_fail        (VivaRemoteSeatDefense *self,
                                                             const char            *message);

G_END_DECLS
