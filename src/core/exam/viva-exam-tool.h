/* viva-exam-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-context.h"
#include "viva-tool-definition.h"

G_BEGIN_DECLS

/**
 * VivaExamToolKind:
 * @VIVA_EXAM_TOOL_KIND_ORDINARY: returns data to the model
 * @VIVA_EXAM_TOOL_KIND_SPEAKS: says something to the student, does not wait
 * @VIVA_EXAM_TOOL_KIND_WAITS: asks the student and completes with the answer
 * @VIVA_EXAM_TOOL_KIND_FINISHES: its result is the verdict and ends the defense
 *
 * The examiner decides what a result means from the tool's kind alone.
 */
typedef enum
{
  VIVA_EXAM_TOOL_KIND_ORDINARY,
  VIVA_EXAM_TOOL_KIND_SPEAKS,
  VIVA_EXAM_TOOL_KIND_WAITS,
  VIVA_EXAM_TOOL_KIND_FINISHES,
} VivaExamToolKind;

#define VIVA_TYPE_EXAM_TOOL_KIND (viva_exam_tool_kind_get_type ())
GType viva_exam_tool_kind_get_type (void) G_GNUC_CONST;

#define VIVA_TYPE_EXAM_TOOL (viva_exam_tool_get_type ())

G_DECLARE_DERIVABLE_TYPE (VivaExamTool, viva_exam_tool, VIVA, EXAM_TOOL, GObject)

/**
 * VivaExamToolClass:
 * @name: what the model calls it
 * @description: what it does, for the model
 * @parameters: its arguments as a JSON-schema object, in JSON text
 * @kind: what the examiner does with its result
 * @invoke_async: runs the tool with arguments already checked against
 *   @parameters; never touches the examiner
 * @invoke_finish: the data for the model, as a JSON object
 *
 * The one contract every examiner tool follows. Subclasses fill the four
 * fields in class_init and implement the two functions.
 */
struct _VivaExamToolClass
{
  GObjectClass parent_class;

  const char       *name;
  const char       *description;
  const char       *parameters;
  VivaExamToolKind  kind;

  void        (*invoke_async)  (VivaExamTool         *self,
                                VivaExamContext      *context,
                                JsonObject           *arguments,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data);
  JsonObject *(*invoke_finish) (VivaExamTool         *self,
                                GAsyncResult         *result,
                                GError              **error);

  /*< private >*/
  gpointer padding[8];
};

const char         *viva_exam_tool_get_name        (VivaExamTool         *self);
const char         *viva_exam_tool_get_description (VivaExamTool         *self);
VivaExamToolKind    viva_exam_tool_get_kind        (VivaExamTool         *self);
JsonNode           *viva_exam_tool_get_parameters  (VivaExamTool         *self);
VivaToolDefinition *viva_exam_tool_get_definition  (VivaExamTool         *self);
JsonObject         *viva_exam_tool_parse_arguments (VivaExamTool         *self,
                                                    const char           *arguments,
                                                    GError              **error);
void                viva_exam_tool_invoke_async    (VivaExamTool         *self,
                                                    VivaExamContext      *context,
                                                    JsonObject           *arguments,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
JsonObject         *viva_exam_tool_invoke_finish   (VivaExamTool         *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

GPtrArray          *viva_exam_tools_new_default    (void);

const char         *viva_exam_tool_human_name      (const char           *tool_name);

G_END_DECLS
