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

/**
 * VivaExamProtocolStep:
 * @VIVA_EXAM_PROTOCOL_NONE: no place in the protocol (a message)
 * @VIVA_EXAM_PROTOCOL_READ: reads the student's code
 * @VIVA_EXAM_PROTOCOL_RUN: runs code in the student's interpreter
 * @VIVA_EXAM_PROTOCOL_PROBE: probes the code with a test of its own
 * @VIVA_EXAM_PROTOCOL_ASK: asks the student
 * @VIVA_EXAM_PROTOCOL_FINISH: ends the defense with the verdict
 *
 * Where a tool sits in the five steps of a defense. The protocol table
 * (the examiner's guardrails) says which steps must have run before the
 * one that finishes.
 */
typedef enum
{
  VIVA_EXAM_PROTOCOL_NONE,
  VIVA_EXAM_PROTOCOL_READ,
  VIVA_EXAM_PROTOCOL_RUN,
  VIVA_EXAM_PROTOCOL_PROBE,
  VIVA_EXAM_PROTOCOL_ASK,
  VIVA_EXAM_PROTOCOL_FINISH,
} VivaExamProtocolStep;

#define VIVA_TYPE_EXAM_PROTOCOL_STEP (viva_exam_protocol_step_get_type ())
GType viva_exam_protocol_step_get_type (void) G_GNUC_CONST;

/**
 * VivaExamToolFacts:
 * @name: what the model calls it (its wire name)
 * @title: (translatable): what it does, in the student's words: the
 *   panel's card, the history and the report say this
 * @icon_name: the icon of its card
 * @running_text: (translatable): the panel's state line while it runs
 * @done_text: (translatable): the verdict card's line for it, once
 * @done_several_text: (nullable) (translatable): the same when it ran more
 *   than once; %NULL says @done_text again
 * @shown_argument: (nullable): the argument the student reads (a question,
 *   a message, the verdict's comment), which the leak guard filters
 * @step: its place in the protocol
 * @kind: what the examiner does with its result
 *
 * What a tool says about itself. The translatable members hold the
 * untranslated text (mark them with N_()); read them through the getters,
 * which translate.
 */
typedef struct
{
  const char           *name;
  const char           *title;
  const char           *icon_name;
  const char           *running_text;
  const char           *done_text;
  const char           *done_several_text;
  const char           *shown_argument;
  VivaExamProtocolStep  step;
  VivaExamToolKind      kind;
} VivaExamToolFacts;

#define VIVA_TYPE_EXAM_TOOL (viva_exam_tool_get_type ())

G_DECLARE_DERIVABLE_TYPE (VivaExamTool, viva_exam_tool, VIVA, EXAM_TOOL, GObject)

/**
 * VivaExamToolClass:
 * @facts: what the tool says about itself: a static struct of the tool's file
 * @description: what it does, for the model
 * @parameters: its arguments as a JSON-schema object, in JSON text
 * @invoke: runs the tool with arguments already checked against
 *   @parameters, and completes @task (transfer none; take a reference to
 *   keep it past the call) with viva_exam_tool_return() or an error. It
 *   reads only @context and @arguments, never the examiner.
 *
 * The one contract every examiner tool follows. A tool is one file: a
 * type made with VIVA_DEFINE_EXAM_TOOL(), its facts, and a class_init
 * that fills these members; its get_type goes in the default list
 * (tools/viva-exam-tools.c).
 */
struct _VivaExamToolClass
{
  GObjectClass parent_class;

  const VivaExamToolFacts *facts;
  const char              *description;
  const char              *parameters;

  void (*invoke) (VivaExamTool    *self,
                  VivaExamContext *context,
                  JsonObject      *arguments,
                  GTask           *task);

  /*< private >*/
  gpointer padding[8];
};

/**
 * VIVA_DEFINE_EXAM_TOOL:
 * @TypeName: the tool's type name, e.g. VivaRunPythonTool
 * @type_name: the same in lower case, e.g. viva_run_python_tool
 *
 * Defines a final tool type with no state of its own, for a tool's file:
 * the instance and class structs, an empty instance init and the type.
 * The file writes `type_name_class_init()`.
 */
#define VIVA_DEFINE_EXAM_TOOL(TypeName, type_name)                           \
  typedef struct { VivaExamTool parent_instance; } TypeName;                \
  typedef struct { VivaExamToolClass parent_class; } TypeName##Class;       \
  GType type_name##_get_type (void);                                        \
  static void type_name##_init (TypeName *self) { }                         \
  G_DEFINE_FINAL_TYPE (TypeName, type_name, VIVA_TYPE_EXAM_TOOL)

const char              *viva_exam_tool_get_name        (VivaExamTool         *self);
const char              *viva_exam_tool_get_description (VivaExamTool         *self);
VivaExamToolKind         viva_exam_tool_get_kind        (VivaExamTool         *self);
const VivaExamToolFacts *viva_exam_tool_get_facts       (VivaExamTool         *self);
JsonNode                *viva_exam_tool_get_parameters  (VivaExamTool         *self);
VivaToolDefinition      *viva_exam_tool_get_definition  (VivaExamTool         *self);
JsonObject              *viva_exam_tool_parse_arguments (VivaExamTool         *self,
                                                         const char           *arguments,
                                                         GError              **error);
void                     viva_exam_tool_invoke_async    (VivaExamTool         *self,
                                                         VivaExamContext      *context,
                                                         JsonObject           *arguments,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
JsonObject              *viva_exam_tool_invoke_finish   (VivaExamTool         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void                     viva_exam_tool_return          (GTask                *task,
                                                         JsonObject           *data);

GPtrArray               *viva_exam_tools_new_default    (void);

const VivaExamToolFacts *viva_exam_tool_facts_lookup           (const char              *name);
const char              *viva_exam_tool_facts_get_title        (const VivaExamToolFacts *facts);
const char              *viva_exam_tool_facts_get_running_text (const VivaExamToolFacts *facts);
const char              *viva_exam_tool_facts_get_done_text    (const VivaExamToolFacts *facts,
                                                                guint                    count);
const char              *viva_exam_tool_title                  (const char              *name);

G_END_DECLS
