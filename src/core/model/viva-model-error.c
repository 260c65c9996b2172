/* viva-model-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "viva-model-error.h"
#include "viva-model-private.h"
#include "viva-reply-limits.h"

G_DEFINE_QUARK (viva-model-error-quark, viva_model_error)

/**
 * viva_model_error_kind:
 * @error: an error from a model call
 *
 * A short stable name for @error's code, as the CLI prints it in the
 * `kind` member of its `error` event: `not-running`, `connection`,
 * `model-not-found`, `unauthorized`, `bad-request`, `rate-limited`,
 * `server`, `timeout`, `truncated`, `invalid-response`, `no-model`,
 * `busy`, `reply-limit`, `address`, `cancelled`, or `other`.
 *
 * Returns: (transfer none): a static string
 */
const char *
viva_model_error_kind (const GError *error)
{
  static const char * const kinds[] = {
    [VIVA_MODEL_ERROR_NOT_RUNNING] = "not-running",
    [VIVA_MODEL_ERROR_CONNECTION] = "connection",
    [VIVA_MODEL_ERROR_MODEL_NOT_FOUND] = "model-not-found",
    [VIVA_MODEL_ERROR_UNAUTHORIZED] = "unauthorized",
    [VIVA_MODEL_ERROR_BAD_REQUEST] = "bad-request",
    [VIVA_MODEL_ERROR_RATE_LIMITED] = "rate-limited",
    [VIVA_MODEL_ERROR_SERVER] = "server",
    [VIVA_MODEL_ERROR_TIMEOUT] = "timeout",
    [VIVA_MODEL_ERROR_TRUNCATED] = "truncated",
    [VIVA_MODEL_ERROR_INVALID_RESPONSE] = "invalid-response",
    [VIVA_MODEL_ERROR_NO_MODEL] = "no-model",
    [VIVA_MODEL_ERROR_BUSY] = "busy",
    [VIVA_MODEL_ERROR_REPLY_LIMIT] = "reply-limit",
    [VIVA_MODEL_ERROR_ADDRESS] = "address",
  };

  g_return_val_if_fail (error != NULL, "other");

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";

  if (error->domain == VIVA_MODEL_ERROR &&
      error->code >= 0 && error->code < (int)G_N_ELEMENTS (kinds))
    return kinds[error->code];

  return "other";
}

/* Error bodies vary by server: OpenAI and most others wrap an object in
 * `error` (whose `code` may be a string, a number or null); Ollama's native
 * API has `error` as a string; old vLLM has no wrapper at all; FastAPI
 * servers say `detail`. */
static char *
message_from_body (JsonNode *body)
{
  JsonObject *object;
  JsonObject *inner;
  JsonNode *node;
  const char *message;

  if (body == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (body) && json_node_get_value_type (body) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (body));

  if (!JSON_NODE_HOLDS_OBJECT (body))
    return NULL;

  object = json_node_get_object (body);
  if ((message = viva_json_member_string (object, "error")))
    return g_strdup (message);
  if ((inner = viva_json_member_object (object, "error")) &&
      (message = viva_json_member_string (inner, "message")))
    return g_strdup (message);
  if ((message = viva_json_member_string (object, "message")))
    return g_strdup (message);
  if ((message = viva_json_member_string (object, "detail")))
    return g_strdup (message);
  if ((node = json_object_get_member (object, "detail")) && !JSON_NODE_HOLDS_NULL (node))
    return json_to_string (node, FALSE);

  return NULL;
}

/* Server text goes into sentences people read: always valid UTF-8. */
char *
_viva_model_error_message_from_body (JsonNode *body)
{
  g_autofree char *message = message_from_body (body);

  return message != NULL ? g_utf8_make_valid (message, -1) : NULL;
}

/* An error answer's body: its JSON, or a plain-text body as a string
 * node (it still says something a person can use), or %NULL when empty. */
JsonNode *
_viva_model_error_body_new (GBytes *bytes)
{
  g_autofree char *text = NULL;
  JsonNode *body;

  if (bytes == NULL)
    return NULL;

  if ((body = _viva_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL)) ||
      g_bytes_get_size (bytes) == 0)
    return body;

  text = g_utf8_make_valid (g_bytes_get_data (bytes, NULL), MIN (g_bytes_get_size (bytes), 500));
  body = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (body, g_strstrip (text));
  return body;
}

/* Whether the message of an error answer's @body mentions @word, in any case. */
gboolean
_viva_model_error_body_mentions (JsonNode   *body,
                                 const char *word)
{
  g_autofree char *message = _viva_model_error_message_from_body (body);
  g_autofree char *lower = message != NULL ? g_ascii_strdown (message, -1) : NULL;

  return lower != NULL && strstr (lower, word) != NULL;
}

gboolean
_viva_model_message_says_model_missing (const char *message)
{
  g_autofree char *lower = NULL;

  if (message == NULL)
    return FALSE;

  lower = g_ascii_strdown (message, -1);
  return strstr (lower, "model") != NULL &&
         (strstr (lower, "not found") != NULL || strstr (lower, "does not exist") != NULL ||
          strstr (lower, "no such model") != NULL || strstr (lower, "try pulling") != NULL);
}

GError *
_viva_model_error_new_no_model (const char *base_url,
                                gboolean    is_ollama)
{
  if (is_ollama)
    return g_error_new_literal (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NO_MODEL,
                                _("Ollama has no model installed — install one, for example with “ollama pull qwen2.5:7b”."));

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NO_MODEL,
                      _("The server at %s lists no model — load one there, or choose a model in Preferences."),
                      base_url);
}

/* @said: what the server said, kept when it is not Ollama's own "try
 * pulling it first", which the sentence replaces with the command. */
GError *
_viva_model_error_new_model_missing (const char *model,
                                     gboolean    is_ollama,
                                     const char *said)
{
  if (is_ollama)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                        _("Ollama has no model `%s`. Run `ollama pull %s` on the server, or choose another model in Preferences."),
                        model != NULL ? model : "", model != NULL ? model : "");

  if (said != NULL)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                        _("The server has no model called “%s” — choose one it lists in Preferences (it said: %s)."),
                        model != NULL ? model : "", said);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                      _("The server has no model called “%s” — choose one it lists in Preferences."),
                      model != NULL ? model : "");
}

GError *
_viva_model_error_new_for_status (guint       status,
                                  JsonNode   *body,
                                  const char *model,
                                  const char *base_url,
                                  gboolean    is_ollama)
{
  g_autofree char *message = _viva_model_error_message_from_body (body);
  const char *said = message != NULL ? message : _("no details");

  if (_viva_model_message_says_model_missing (message) && (status == 400 || status == 404))
    return _viva_model_error_new_model_missing (model, is_ollama, message);

  if (status == 401 || status == 403)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_UNAUTHORIZED,
                        _("The server rejected the API key — set the key for %s in Preferences (it said: %s)."),
                        base_url, said);

  if (status == 404)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                        _("Nothing answers chat requests at %s — check the server address; it usually ends in “/v1”."),
                        base_url);

  if (status == 429)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_RATE_LIMITED,
                        _("The server is busy and asked to wait — try again in a minute (it said: %s)."),
                        said);

  if (status >= 400 && status < 500)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BAD_REQUEST,
                        _("The server rejected the request: %s"), said);

  /* Ollama's full queue, a proxy in front of vLLM, a server still loading. */
  if (status == 503)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BUSY,
                        _("The model server at %s is busy or still loading the model (it said: %s) — wait a minute and try again; if a whole lab uses it, ask whoever runs it to serve more students at once."),
                        base_url, said);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_SERVER,
                      _("The server failed (HTTP %u): %s — try again, or check the server’s log."),
                      status, said);
}

GError *
_viva_model_error_new_in_band (JsonNode   *error,
                               const char *model,
                               gboolean    is_ollama)
{
  g_autofree char *message = NULL;
  gint64 code = 0;
  const char *code_string = NULL;

  if (error != NULL && JSON_NODE_HOLDS_OBJECT (error))
    {
      g_autoptr(JsonObject) wrapper = json_object_new ();
      g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);

      json_object_set_member (wrapper, "error", json_node_copy (error));
      json_node_set_object (body, wrapper);
      message = _viva_model_error_message_from_body (body);
      viva_json_member_integer (json_node_get_object (error), "code", &code);
      code_string = viva_json_member_string (json_node_get_object (error), "code");
    }
  else
    message = _viva_model_error_message_from_body (error);

  if (_viva_model_message_says_model_missing (message))
    return _viva_model_error_new_model_missing (model, is_ollama, message);

  if (code == 429 || g_strcmp0 (code_string, "rate_limit_exceeded") == 0)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_RATE_LIMITED,
                        _("The server is busy and asked to wait — try again in a minute (it said: %s)."),
                        message != NULL ? message : _("no details"));

  /* vLLM reports a request it cannot serve (a prompt too long) in band. */
  if (code >= 400 && code < 500)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BAD_REQUEST,
                        _("The server rejected the request: %s"),
                        message != NULL ? message : _("no details"));

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_SERVER,
                      _("The server failed while answering: %s — try again, or check the server’s log."),
                      message != NULL ? message : _("no details"));
}

/* A transport's @error (the request never got an HTTP answer) in words,
 * and whether another attempt may help. @ollama_root is the server's root
 * when it looks like Ollama, whose own start command is then named. */
GError *
_viva_model_error_new_for_transport (const GError *error,
                                     const char   *base_url,
                                     const char   *ollama_root,
                                     gboolean     *retryable)
{
  *retryable = TRUE;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      *retryable = FALSE;
      return g_error_copy (error);
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    {
      if (ollama_root != NULL)
        return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING,
                            _("Ollama is not running at %s — start it with “ollama serve”."),
                            ollama_root);

      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING,
                          _("No model server is running at %s — start it, or check the address in Preferences."),
                          base_url);
    }

  if (error->domain == G_RESOLVER_ERROR || error->domain == G_TLS_ERROR ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
    {
      *retryable = error->domain == G_RESOLVER_ERROR && error->code == G_RESOLVER_ERROR_TEMPORARY_FAILURE;
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                          _("Cannot reach the model server at %s (%s) — check the address in Preferences and the network."),
                          base_url, error->message);
    }

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                      _("The connection to the model server at %s broke (%s) — try again."),
                      base_url, error->message);
}

/**
 * viva_reply_limit_error_new:
 * @limit: which limit the reply passed
 * @value: the limit: bytes, pieces, calls or milliseconds
 *
 * Returns: (transfer full): a %VIVA_MODEL_ERROR_REPLY_LIMIT saying what
 *   happened and what to do next
 */
GError *
viva_reply_limit_error_new (VivaReplyLimit limit,
                            guint64        value)
{
  g_autofree char *size = g_format_size_full (value, G_FORMAT_SIZE_IEC_UNITS);
  guint count = (guint)MIN (value, G_MAXUINT);
  guint seconds = (guint)MIN ((value + 999) / 1000, G_MAXUINT);
  guint minutes = (guint)MIN ((value + 59999) / 60000, G_MAXUINT);

  switch (limit)
    {
    case VIVA_REPLY_LIMIT_BYTES:
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT,
                          _("The model server sent more than %s for one reply, far more than an answer needs, so Viva stopped reading it. Try again; if it happens again, the server is misbehaving — tell whoever runs it."),
                          size);

    case VIVA_REPLY_LIMIT_LINE:
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT,
                          _("The model server sent one line of more than %s, which no reply needs, so Viva stopped reading it. Check that the address is a model server’s; if it is, tell whoever runs it."),
                          size);

    case VIVA_REPLY_LIMIT_DELTAS:
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT,
                          _("The model’s reply went on for more than %u pieces, so Viva stopped reading it. Try again; if it happens again, the model is stuck repeating itself — choose another model."),
                          count);

    case VIVA_REPLY_LIMIT_TOOL_CALLS:
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT,
                          _("The model asked for more than %u tool calls in one reply, so Viva stopped reading it. Try again; if it happens again, choose another model."),
                          count);

    case VIVA_REPLY_LIMIT_TIME:
    default:
      if (value < 60 * 1000)
        return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "The model’s reply was still going after %u second, so Viva stopped it. Try again; a smaller or faster model answers sooner.",
                                         "The model’s reply was still going after %u seconds, so Viva stopped it. Try again; a smaller or faster model answers sooner.",
                                         seconds),
                            seconds);
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT,
                          g_dngettext (GETTEXT_PACKAGE,
                                       "The model’s reply was still going after %u minute, so Viva stopped it. Try again; a smaller or faster model answers sooner.",
                                       "The model’s reply was still going after %u minutes, so Viva stopped it. Try again; a smaller or faster model answers sooner.",
                                       minutes),
                          minutes);
    }
}
