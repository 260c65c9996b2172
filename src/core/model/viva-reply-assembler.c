/* viva-reply-assembler.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-chat-reply-private.h"
#include "viva-model-private.h"
#include "viva-reply-assembler.h"
#include "viva-reply-limits.h"
#include "viva-think-splitter-private.h"

/* Pure: parsed chunks go in, deltas and one reply come out. No I/O, so the
 * same code runs under the HTTP client, the tests and the fuzzer.
 *
 * What servers disagree on, and how it is read here:
 * - reasoning comes as `reasoning_content` or `reasoning`, and some vLLM
 *   versions send both with the same text: one per delta, never both;
 * - tool calls are keyed by `index`, but Ollama before 0.20.6 sends
 *   parallel calls whole, all at index 0: a new id at a used index starts
 *   a new call; llama-cpp-python repeats id and name on every fragment, so
 *   a name is set once, never appended;
 * - `finish_reason` may share a chunk with the last argument fragment, and
 *   a later chunk's `null` never erases it; `usage` may come alone, on the
 *   finish chunk, or on a later chunk with choices;
 * - a server without a reasoning parser (llama-server without
 *   --reasoning-format, older Ollama) leaves a model's `<think>…</think>`
 *   at the start of the content: it is moved to the reasoning, even when
 *   the tags are cut across deltas (viva-think-splitter.c).
 *
 * A reply is bounded: past so many deltas or tool calls nothing more goes
 * out, and every feed fails with %VIVA_MODEL_ERROR_REPLY_LIMIT. The work
 * per delta does not grow with the reply: text is appended, a fragment
 * finds its call among at most max-tool-calls. */

typedef struct
{
  gint64   wire_index;
  char    *id;
  char    *name;
  GString *arguments;
} ToolSlot;

struct _VivaReplyAssembler
{
  GObject            parent_instance;

  VivaReplyFormat    format;
  VivaChatDeltaFunc  delta_func;
  gpointer           delta_data;
  GDestroyNotify     delta_destroy;
  GStrv              tool_names;
  char              *request_model;
  gboolean           is_ollama;

  GString           *content;
  GString           *reasoning;
  VivaThinkSplitter  think;
  GPtrArray         *slots;
  char              *finish_reason;
  char              *model;
  VivaChatUsage      usage;
  guint              n_deltas;
  guint              max_deltas;
  guint              max_tool_calls;
  GError            *limit_error;

  guint              has_usage : 1;
  guint              done : 1;
};

G_DEFINE_FINAL_TYPE (VivaReplyAssembler, viva_reply_assembler, G_TYPE_OBJECT)

static void emit_text (VivaChatDeltaKind  kind,
                       const char        *text,
                       gsize              length,
                       gpointer           user_data);

static void
tool_slot_free (ToolSlot *slot)
{
  g_free (slot->id);
  g_free (slot->name);
  g_string_free (slot->arguments, TRUE);
  g_free (slot);
}

static void
viva_reply_assembler_finalize (GObject *object)
{
  VivaReplyAssembler *self = (VivaReplyAssembler *)object;

  if (self->delta_destroy != NULL)
    self->delta_destroy (self->delta_data);
  g_clear_pointer (&self->tool_names, g_strfreev);
  g_clear_pointer (&self->request_model, g_free);
  g_string_free (self->content, TRUE);
  g_string_free (self->reasoning, TRUE);
  _viva_think_splitter_clear (&self->think);
  g_ptr_array_unref (self->slots);
  g_clear_pointer (&self->finish_reason, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_error (&self->limit_error);

  G_OBJECT_CLASS (viva_reply_assembler_parent_class)->finalize (object);
}

static void
viva_reply_assembler_class_init (VivaReplyAssemblerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_reply_assembler_finalize;
}

static void
viva_reply_assembler_init (VivaReplyAssembler *self)
{
  self->content = g_string_new (NULL);
  self->reasoning = g_string_new (NULL);
  _viva_think_splitter_init (&self->think, emit_text, self);
  self->slots = g_ptr_array_new_with_free_func ((GDestroyNotify)tool_slot_free);
  self->max_deltas = VIVA_REPLY_DEFAULT_MAX_DELTAS;
  self->max_tool_calls = VIVA_REPLY_DEFAULT_MAX_TOOL_CALLS;
}

/**
 * viva_reply_assembler_new:
 *
 * Returns: (transfer full): an assembler for one reply
 */
VivaReplyAssembler *
viva_reply_assembler_new (VivaReplyFormat format)
{
  VivaReplyAssembler *self = g_object_new (VIVA_TYPE_REPLY_ASSEMBLER, NULL);

  self->format = format;
  return self;
}

/**
 * viva_reply_assembler_set_delta_func:
 * @func: (nullable): called for each delta as it is assembled
 */
void
viva_reply_assembler_set_delta_func (VivaReplyAssembler *self,
                                     VivaChatDeltaFunc   func,
                                     gpointer            user_data,
                                     GDestroyNotify      destroy)
{
  g_return_if_fail (VIVA_IS_REPLY_ASSEMBLER (self));

  if (self->delta_destroy != NULL)
    self->delta_destroy (self->delta_data);

  self->delta_func = func;
  self->delta_data = user_data;
  self->delta_destroy = destroy;
}

/**
 * viva_reply_assembler_set_tool_names:
 * @names: (nullable) (array zero-terminated=1): the tools the request offered
 *
 * With tools offered, a call the model wrote as text (a `<tool_call>`
 * block or a fenced JSON object with `name` and `arguments`) naming one of
 * them is recovered as a tool call when the reply has no other.
 */
void
viva_reply_assembler_set_tool_names (VivaReplyAssembler *self,
                                     const char * const *names)
{
  g_return_if_fail (VIVA_IS_REPLY_ASSEMBLER (self));

  g_clear_pointer (&self->tool_names, g_strfreev);
  if (names != NULL && names[0] != NULL)
    self->tool_names = g_strdupv ((char **)names);
}

/**
 * viva_reply_assembler_set_model_name:
 * @model: (nullable): the model asked for, to name it in errors
 * @is_ollama: whether the server is Ollama, to word errors for it
 */
void
viva_reply_assembler_set_model_name (VivaReplyAssembler *self,
                                     const char         *model,
                                     gboolean            is_ollama)
{
  g_return_if_fail (VIVA_IS_REPLY_ASSEMBLER (self));

  g_free (self->request_model);
  self->request_model = g_strdup (model);
  self->is_ollama = !!is_ollama;
}

/**
 * viva_reply_assembler_set_limits:
 * @max_deltas: the most deltas sent out; 0 for the default
 * @max_tool_calls: the most tool calls in the reply; 0 for the default
 *
 * The defaults are %VIVA_REPLY_DEFAULT_MAX_DELTAS and
 * %VIVA_REPLY_DEFAULT_MAX_TOOL_CALLS.
 */
void
viva_reply_assembler_set_limits (VivaReplyAssembler *self,
                                 guint               max_deltas,
                                 guint               max_tool_calls)
{
  g_return_if_fail (VIVA_IS_REPLY_ASSEMBLER (self));

  self->max_deltas = max_deltas > 0 ? max_deltas : VIVA_REPLY_DEFAULT_MAX_DELTAS;
  self->max_tool_calls = max_tool_calls > 0 ? max_tool_calls : VIVA_REPLY_DEFAULT_MAX_TOOL_CALLS;
}

static void
breach (VivaReplyAssembler *self,
        VivaReplyLimit      limit,
        guint               value)
{
  if (self->limit_error == NULL)
    self->limit_error = viva_reply_limit_error_new (limit, value);
}

static void
emit (VivaReplyAssembler  *self,
      const VivaChatDelta *delta)
{
  if (self->limit_error != NULL)
    return;

  if (self->n_deltas >= self->max_deltas)
    return breach (self, VIVA_REPLY_LIMIT_DELTAS, self->max_deltas);

  self->n_deltas++;
  if (self->delta_func != NULL)
    self->delta_func (delta, self->delta_data);
}

static void
emit_text (VivaChatDeltaKind  kind,
           const char        *text,
           gsize              length,
           gpointer           user_data)
{
  VivaReplyAssembler *self = user_data;
  g_autofree char *piece = NULL;
  VivaChatDelta delta = { .kind = kind };

  if (length == 0 || self->limit_error != NULL)
    return;

  delta.text = piece = g_strndup (text, length);
  g_string_append_len (kind == VIVA_CHAT_DELTA_CONTENT ? self->content : self->reasoning, text, length);
  emit (self, &delta);
}

static void
add_text (VivaReplyAssembler *self,
          VivaChatDeltaKind   kind,
          const char         *text)
{
  /* json-glib has validated the UTF-8 already. */
  if (text == NULL || text[0] == '\0')
    return;

  if (kind == VIVA_CHAT_DELTA_REASONING)
    return emit_text (kind, text, strlen (text), self);

  _viva_think_splitter_add (&self->think, text);
}

static void
set_usage (VivaReplyAssembler *self,
           gint64              prompt_tokens,
           gint64              completion_tokens,
           gint64              total_tokens)
{
  VivaChatDelta delta = { .kind = VIVA_CHAT_DELTA_USAGE, .usage = &self->usage };

  self->usage.prompt_tokens = prompt_tokens;
  self->usage.completion_tokens = completion_tokens;
  self->usage.total_tokens = total_tokens > 0 ? total_tokens : prompt_tokens + completion_tokens;
  self->has_usage = TRUE;
  emit (self, &delta);
}

static ToolSlot *
find_slot (VivaReplyAssembler *self,
           gint64              wire_index,
           guint              *position)
{
  for (guint i = self->slots->len; i > 0; i--)
    {
      ToolSlot *slot = g_ptr_array_index (self->slots, i - 1);

      if (slot->wire_index == wire_index)
        {
          *position = i - 1;
          return slot;
        }
    }

  return NULL;
}

static ToolSlot *
new_slot (VivaReplyAssembler *self,
          gint64              wire_index,
          guint              *position)
{
  ToolSlot *slot;

  if (self->slots->len >= self->max_tool_calls)
    {
      breach (self, VIVA_REPLY_LIMIT_TOOL_CALLS, self->max_tool_calls);
      return NULL;
    }

  slot = g_new0 (ToolSlot, 1);

  slot->wire_index = wire_index;
  slot->arguments = g_string_new (NULL);
  *position = self->slots->len;
  g_ptr_array_add (self->slots, slot);

  return slot;
}

static void
add_tool_fragment (VivaReplyAssembler *self,
                   JsonObject         *call,
                   gint64              fallback_index,
                   gboolean            always_new)
{
  JsonObject *function = viva_json_member_object (call, "function");
  const char *id = viva_json_member_string (call, "id");
  const char *name = viva_json_member_string (function, "name");
  JsonNode *arguments = function != NULL ? json_object_get_member (function, "arguments") : NULL;
  g_autofree char *arguments_text = NULL;
  const char *fragment = "";
  VivaChatDelta delta = { .kind = VIVA_CHAT_DELTA_TOOL_CALL };
  ToolSlot *slot = NULL;
  gint64 wire_index;
  guint position = 0;

  if (id != NULL && id[0] == '\0')
    id = NULL;
  if (name != NULL && name[0] == '\0')
    name = NULL;

  if (!viva_json_member_integer (call, "index", &wire_index) &&
      !viva_json_member_integer (function, "index", &wire_index))
    wire_index = fallback_index;

  if (!always_new)
    slot = find_slot (self, wire_index, &position);

  if (slot == NULL || (id != NULL && slot->id != NULL && !g_str_equal (slot->id, id)))
    slot = new_slot (self, wire_index, &position);
  if (slot == NULL)
    return;

  if (id != NULL && slot->id == NULL)
    delta.id = slot->id = g_strdup (id);
  if (name != NULL && slot->name == NULL)
    delta.name = slot->name = g_strdup (name);

  if (arguments != NULL && JSON_NODE_HOLDS_VALUE (arguments) &&
      json_node_get_value_type (arguments) == G_TYPE_STRING)
    fragment = json_node_get_string (arguments);
  else if (arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments))
    {
      /* A whole call with its arguments as an object: Ollama's native API. */
      if (slot->arguments->len == 0)
        fragment = arguments_text = json_to_string (arguments, FALSE);
    }

  g_string_append (slot->arguments, fragment);

  if (delta.id == NULL && delta.name == NULL && fragment[0] == '\0')
    return;

  delta.index = position;
  delta.text = fragment;
  emit (self, &delta);
}

static void
read_usage (VivaReplyAssembler *self,
            JsonObject         *usage)
{
  gint64 prompt_tokens = 0;
  gint64 completion_tokens = 0;
  gint64 total_tokens = 0;

  if (usage == NULL)
    return;

  viva_json_member_integer (usage, "prompt_tokens", &prompt_tokens);
  viva_json_member_integer (usage, "completion_tokens", &completion_tokens);
  viva_json_member_integer (usage, "total_tokens", &total_tokens);
  set_usage (self, prompt_tokens, completion_tokens, total_tokens);
}

static void
set_finish_reason (VivaReplyAssembler *self,
                   const char         *finish_reason)
{
  if (finish_reason == NULL || finish_reason[0] == '\0')
    return;

  g_free (self->finish_reason);
  self->finish_reason = g_strdup (finish_reason);
}

static void
set_model (VivaReplyAssembler *self,
           const char         *model)
{
  if (model != NULL && self->model == NULL)
    self->model = g_strdup (model);
}

static void
feed_delta (VivaReplyAssembler *self,
            JsonObject         *delta)
{
  const char *reasoning;
  JsonArray *calls;

  /* One of the two fields, never both: some vLLM versions repeat the
   * same text in each. */
  reasoning = viva_json_member_string (delta, "reasoning_content");
  if (reasoning == NULL || reasoning[0] == '\0')
    reasoning = viva_json_member_string (delta, "reasoning");
  add_text (self, VIVA_CHAT_DELTA_REASONING, reasoning);

  add_text (self, VIVA_CHAT_DELTA_CONTENT, viva_json_member_string (delta, "content"));

  if ((calls = viva_json_member_array (delta, "tool_calls")))
    {
      for (guint i = 0; i < json_array_get_length (calls) && self->limit_error == NULL; i++)
        {
          JsonNode *call = json_array_get_element (calls, i);

          if (JSON_NODE_HOLDS_OBJECT (call))
            add_tool_fragment (self, json_node_get_object (call), i, FALSE);
        }
    }
}

static gboolean
feed_openai (VivaReplyAssembler  *self,
             JsonObject          *chunk,
             GError             **error)
{
  JsonNode *error_node;
  JsonArray *choices;

  if ((error_node = json_object_get_member (chunk, "error")) && !JSON_NODE_HOLDS_NULL (error_node))
    {
      g_propagate_error (error, _viva_model_error_new_in_band (error_node, self->request_model, self->is_ollama));
      return FALSE;
    }

  set_model (self, viva_json_member_string (chunk, "model"));

  if ((choices = viva_json_member_array (chunk, "choices")))
    {
      for (guint i = 0; i < json_array_get_length (choices); i++)
        {
          JsonNode *node = json_array_get_element (choices, i);
          JsonObject *choice;
          JsonObject *delta;
          gint64 index = 0;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            continue;

          choice = json_node_get_object (node);
          if (viva_json_member_integer (choice, "index", &index) && index != 0)
            continue;

          /* A server that ignored `stream` answers one whole `message`. */
          if ((delta = viva_json_member_object (choice, "delta")) ||
              (delta = viva_json_member_object (choice, "message")))
            feed_delta (self, delta);

          set_finish_reason (self, viva_json_member_string (choice, "finish_reason"));
        }
    }

  read_usage (self, viva_json_member_object (chunk, "usage"));

  return TRUE;
}

static gboolean
feed_ollama (VivaReplyAssembler  *self,
             JsonObject          *line,
             GError             **error)
{
  JsonNode *error_node;
  JsonObject *message;
  JsonNode *done;

  if ((error_node = json_object_get_member (line, "error")) && !JSON_NODE_HOLDS_NULL (error_node))
    {
      g_propagate_error (error, _viva_model_error_new_in_band (error_node, self->request_model, TRUE));
      return FALSE;
    }

  set_model (self, viva_json_member_string (line, "model"));

  if ((message = viva_json_member_object (line, "message")))
    {
      JsonArray *calls;

      add_text (self, VIVA_CHAT_DELTA_REASONING, viva_json_member_string (message, "thinking"));
      add_text (self, VIVA_CHAT_DELTA_CONTENT, viva_json_member_string (message, "content"));

      /* Each native call arrives whole, so each is a call of its own. */
      if ((calls = viva_json_member_array (message, "tool_calls")))
        {
          for (guint i = 0; i < json_array_get_length (calls) && self->limit_error == NULL; i++)
            {
              JsonNode *call = json_array_get_element (calls, i);

              if (JSON_NODE_HOLDS_OBJECT (call))
                add_tool_fragment (self, json_node_get_object (call), self->slots->len, TRUE);
            }
        }
    }

  done = json_object_get_member (line, "done");
  if (done != NULL && json_node_get_value_type (done) == G_TYPE_BOOLEAN && json_node_get_boolean (done))
    {
      gint64 prompt_tokens = 0;
      gint64 completion_tokens = 0;
      const char *reason = viva_json_member_string (line, "done_reason");

      if (reason == NULL)
        reason = "stop";
      if (g_str_equal (reason, "stop") && self->slots->len > 0)
        reason = "tool_calls";
      set_finish_reason (self, reason);

      if (viva_json_member_integer (line, "prompt_eval_count", &prompt_tokens) |
          viva_json_member_integer (line, "eval_count", &completion_tokens))
        set_usage (self, prompt_tokens, completion_tokens, 0);

      self->done = TRUE;
    }

  return TRUE;
}

/**
 * viva_reply_assembler_feed_chunk:
 * @chunk: one parsed chunk (OpenAI) or line (Ollama)
 *
 * Returns: %FALSE with @error set when the chunk reports an error, or
 *   the reply passed a limit (%VIVA_MODEL_ERROR_REPLY_LIMIT)
 */
gboolean
viva_reply_assembler_feed_chunk (VivaReplyAssembler  *self,
                                 JsonObject          *chunk,
                                 GError             **error)
{
  gboolean fed;

  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), FALSE);
  g_return_val_if_fail (chunk != NULL, FALSE);

  if (self->limit_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->limit_error));
      return FALSE;
    }

  if (self->format == VIVA_REPLY_FORMAT_OLLAMA)
    fed = feed_ollama (self, chunk, error);
  else
    fed = feed_openai (self, chunk, error);

  if (fed && self->limit_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->limit_error));
      return FALSE;
    }

  return fed;
}

/**
 * viva_reply_assembler_feed_event:
 * @event: one event from a #VivaSseReader
 *
 * Parses the event's data and feeds it. `[DONE]` ends the reply; an
 * `error` event or an `error` member fails with a %VIVA_MODEL_ERROR; data
 * that is not a JSON object fails with %VIVA_MODEL_ERROR_INVALID_RESPONSE.
 *
 * Returns: %TRUE if the event was read
 */
gboolean
viva_reply_assembler_feed_event (VivaReplyAssembler  *self,
                                 const VivaSseEvent  *event,
                                 GError             **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autofree char *data = NULL;

  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (self->limit_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->limit_error));
      return FALSE;
    }

  data = g_strstrip (g_strdup (event->data));

  if (self->format == VIVA_REPLY_FORMAT_OPENAI && g_str_equal (data, "[DONE]"))
    {
      self->done = TRUE;
      return TRUE;
    }

  node = _viva_json_parse (data, -1, &parse_error);

  if (g_strcmp0 (event->event, "error") == 0)
    {
      g_autoptr(JsonNode) text = NULL;

      if (node == NULL)
        {
          text = json_node_new (JSON_NODE_VALUE);
          json_node_set_string (text, data);
        }
      g_propagate_error (error, _viva_model_error_new_in_band (node != NULL ? node : text,
                                                               self->request_model, self->is_ollama));
      return FALSE;
    }

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *why = g_utf8_make_valid (parse_error != NULL ? parse_error->message : _("not an object"), -1);

      g_set_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                   _("The server sent a reply that is not JSON (%s) — is the address that of a model server?"),
                   why);
      return FALSE;
    }

  return viva_reply_assembler_feed_chunk (self, json_node_get_object (node), error);
}

/**
 * viva_reply_assembler_get_done:
 *
 * Returns: %TRUE once the server said the reply is complete
 */
gboolean
viva_reply_assembler_get_done (VivaReplyAssembler *self)
{
  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), FALSE);
  return self->done;
}

/**
 * viva_reply_assembler_get_finished:
 *
 * Returns: %TRUE once the server said the reply is complete, or gave a
 *   finish reason
 */
gboolean
viva_reply_assembler_get_finished (VivaReplyAssembler *self)
{
  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), FALSE);
  return self->done || self->finish_reason != NULL;
}

/**
 * viva_reply_assembler_get_has_output:
 *
 * Returns: %TRUE once content, reasoning or a tool call arrived, after
 *   which a stream cannot be retried without showing text twice
 */
gboolean
viva_reply_assembler_get_has_output (VivaReplyAssembler *self)
{
  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), FALSE);
  return self->content->len > 0 || self->reasoning->len > 0 || self->slots->len > 0 ||
         _viva_think_splitter_get_holding (&self->think);
}

guint
viva_reply_assembler_get_n_deltas (VivaReplyAssembler *self)
{
  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), 0);
  return self->n_deltas;
}

/**
 * viva_reply_assembler_finish:
 *
 * Builds the reply from what arrived. Without `[DONE]` (or Ollama's
 * `done`) and without a finish reason, the reply is marked truncated.
 *
 * Returns: (transfer full): the reply
 */
VivaChatReply *
viva_reply_assembler_finish (VivaReplyAssembler *self)
{
  g_autoptr(VivaChatReply) reply = NULL;
  g_autofree char *content = NULL;

  g_return_val_if_fail (VIVA_IS_REPLY_ASSEMBLER (self), NULL);

  _viva_think_splitter_flush (&self->think);
  reply = viva_chat_reply_new ();

  for (guint i = 0; i < self->slots->len; i++)
    {
      ToolSlot *slot = g_ptr_array_index (self->slots, i);

      viva_chat_reply_add_tool_call (reply, viva_tool_call_new (slot->id,
                                                                 slot->name != NULL ? slot->name : "",
                                                                 slot->arguments->str));
    }

  if (self->content->len > 0)
    content = g_strndup (self->content->str, self->content->len);

  if (content != NULL && self->tool_names != NULL && self->slots->len == 0)
    {
      g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);
      g_autofree char *rest = _viva_recover_tool_calls (content, (const char * const *)self->tool_names, calls);

      if (rest != NULL)
        {
          /* Written as text, they passed no limit on the way in. */
          if (calls->len > self->max_tool_calls)
            g_ptr_array_set_size (calls, self->max_tool_calls);
          for (guint i = 0; i < calls->len; i++)
            viva_chat_reply_add_tool_call (reply, g_ptr_array_steal_index (calls, i--));
          g_free (content);
          content = rest[0] != '\0' ? g_steal_pointer (&rest) : NULL;
        }
    }

  viva_chat_reply_take_content (reply, g_steal_pointer (&content));
  if (self->reasoning->len > 0)
    _viva_chat_reply_take_reasoning (reply, g_strndup (self->reasoning->str, self->reasoning->len));
  viva_chat_reply_set_finish_reason (reply, self->finish_reason);
  _viva_chat_reply_set_usage (reply, self->has_usage ? &self->usage : NULL);
  viva_chat_reply_set_model (reply, self->model);
  _viva_chat_reply_set_truncated (reply, !self->done && self->finish_reason == NULL);

  return g_steal_pointer (&reply);
}
