/* viva-worker-frame.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-worker-frame-private.h"

/* What comes from a worker is untrusted: student code shares the worker's
 * process and can write anything on its channel. So a frame is read by a
 * flat parser for the one shape the worker sends (an object of strings and
 * numbers, nothing nested: no recursion for a deep line to exhaust) and
 * checked against a fixed schema per event; text is made visible (NUL and
 * control characters become their Unicode pictures, so nothing ends a
 * string early); a plot is checked as PNG, by size and by its header's
 * dimensions, before anything decodes it. */

typedef enum
{
  TYPE_STRING,
  TYPE_INT,
  TYPE_NUMBER,
} MemberType;

typedef struct
{
  const char *name;
  MemberType  type;
  gboolean    required;
} Member;

typedef struct
{
  const char   *event;
  const Member *members;
} Schema;

static const Member ready_members[] = {
  { "id", TYPE_INT, TRUE }, { "python", TYPE_STRING, TRUE }, { "pid", TYPE_INT, FALSE }, { NULL },
};

static const Member text_members[] = {
  { "id", TYPE_INT, TRUE }, { "text", TYPE_STRING, TRUE }, { NULL },
};

static const Member image_members[] = {
  { "id", TYPE_INT, TRUE }, { "mime", TYPE_STRING, TRUE }, { "data", TYPE_STRING, TRUE }, { NULL },
};

static const Member truncated_members[] = {
  { "id", TYPE_INT, TRUE }, { NULL },
};

static const Member result_members[] = {
  { "id", TYPE_INT, TRUE }, { "status", TYPE_STRING, TRUE }, { "duration_ms", TYPE_NUMBER, FALSE },
  { "type", TYPE_STRING, FALSE }, { "message", TYPE_STRING, FALSE },
  { "traceback", TYPE_STRING, FALSE }, { "where", TYPE_STRING, FALSE },
  { "line", TYPE_INT, FALSE }, { "column", TYPE_INT, FALSE },
  { "value", TYPE_STRING, FALSE }, /* a grader's call: plain data, as JSON text */
  { "frame", TYPE_STRING, FALSE },  /* the failing frame's variables (viva-run-stack.c) */
  { NULL },
};

static const Member paused_members[] = {
  { "id", TYPE_INT, TRUE }, { "token", TYPE_INT, TRUE }, { "line", TYPE_INT, TRUE },
  { "depth", TYPE_INT, TRUE }, { "stack", TYPE_STRING, TRUE }, { NULL },
};

static const Schema schemas[] = {
  { "ready", ready_members },
  { "stdout", text_members },
  { "stderr", text_members },
  { "image", image_members },
  { "truncated", truncated_members },
  { "result", result_members },
  { "synced", truncated_members },  /* the barrier after a result */
  { "paused", paused_members },     /* where a paused run stands */
};

typedef struct
{
  const char *p;
  const char *end;
} Scanner;

static void
skip_space (Scanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'))
    s->p++;
}

static gboolean
expect (Scanner *s,
        char     c)
{
  skip_space (s);
  if (s->p >= s->end || *s->p != c)
    return FALSE;
  s->p++;
  return TRUE;
}

/* A control character as its picture (U+2400 ff.), except the ones a
 * console shows as what they are. */
static void
append_visible (GString  *out,
                gunichar  c)
{
  if (c == '\n' || c == '\t' || c == '\r')
    g_string_append_c (out, c);
  else if (c < 0x20)
    g_string_append_unichar (out, 0x2400 + c);
  else if (c == 0x7f)
    g_string_append_unichar (out, 0x2421);
  else
    g_string_append_unichar (out, c);
}

static int
hex4 (const char *p)
{
  int value = 0;

  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* The line is valid UTF-8 (checked before), so only escapes need care. */
static gboolean
parse_string (Scanner *s,
              GString *out)
{
  if (!expect (s, '"'))
    return FALSE;

  while (s->p < s->end)
    {
      guchar c = *s->p;

      if (c == '"')
        {
          s->p++;
          return TRUE;
        }
      if (c < 0x20)
        return FALSE; /* raw control characters are not JSON */
      if (c != '\\')
        {
          const char *start = s->p;

          while (s->p < s->end && *s->p != '"' && *s->p != '\\' && (guchar) *s->p >= 0x20)
            s->p++;
          g_string_append_len (out, start, s->p - start);
          continue;
        }

      if (s->end - s->p < 2)
        return FALSE;
      s->p++;
      switch (*s->p++)
        {
        case '"': g_string_append_c (out, '"'); break;
        case '\\': g_string_append_c (out, '\\'); break;
        case '/': g_string_append_c (out, '/'); break;
        case 'b': append_visible (out, '\b'); break;
        case 'f': append_visible (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'u':
          {
            int code;

            if (s->end - s->p < 4 || (code = hex4 (s->p)) < 0)
              return FALSE;
            s->p += 4;
            if (code >= 0xd800 && code < 0xdc00 && s->end - s->p >= 6 &&
                s->p[0] == '\\' && s->p[1] == 'u')
              {
                int low = hex4 (s->p + 2);

                if (low >= 0xdc00 && low < 0xe000)
                  {
                    s->p += 6;
                    code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                  }
              }
            if (code >= 0xd800 && code < 0xe000)
              code = 0xfffd; /* a lone surrogate */
            append_visible (out, code);
          }
          break;
        default:
          return FALSE;
        }
    }

  return FALSE;
}

/* JSON's number grammar; an integer that fits in 64 bits stays one. */
static gboolean
parse_number (Scanner  *s,
              JsonNode *node)
{
  const char *start = s->p;
  gboolean integer = TRUE;
  g_autofree char *text = NULL;

  if (s->p < s->end && *s->p == '-')
    s->p++;
  if (s->p >= s->end || !g_ascii_isdigit (*s->p))
    return FALSE;
  if (*s->p == '0')
    s->p++;
  else
    while (s->p < s->end && g_ascii_isdigit (*s->p))
      s->p++;
  if (s->p < s->end && *s->p == '.')
    {
      integer = FALSE;
      s->p++;
      if (s->p >= s->end || !g_ascii_isdigit (*s->p))
        return FALSE;
      while (s->p < s->end && g_ascii_isdigit (*s->p))
        s->p++;
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      integer = FALSE;
      s->p++;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        s->p++;
      if (s->p >= s->end || !g_ascii_isdigit (*s->p))
        return FALSE;
      while (s->p < s->end && g_ascii_isdigit (*s->p))
        s->p++;
    }

  text = g_strndup (start, s->p - start);
  if (integer)
    {
      gint64 value;

      if (g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
        {
          json_node_set_int (node, value);
          return TRUE;
        }
    }
  json_node_set_double (node, g_ascii_strtod (text, NULL));
  return TRUE;
}

static gboolean
check_schema (JsonObject  *object,
              GError     **error)
{
  const char *event = json_object_get_string_member_with_default (object, "event", NULL);
  const Schema *schema = NULL;
  g_autoptr(GList) names = NULL;

  for (guint i = 0; event != NULL && i < G_N_ELEMENTS (schemas); i++)
    if (g_str_equal (schemas[i].event, event))
      schema = &schemas[i];

  if (schema == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no such event: %s", event ? event : "(none)");
      return FALSE;
    }

  names = json_object_get_members (object);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (object, name);
      const Member *member = NULL;
      GType type = json_node_get_value_type (node);

      if (g_str_equal (name, "event"))
        continue;
      for (const Member *m = schema->members; m->name != NULL; m++)
        if (g_str_equal (m->name, name))
          member = m;

      if (member == NULL ||
          (member->type == TYPE_STRING && type != G_TYPE_STRING) ||
          (member->type == TYPE_INT && type != G_TYPE_INT64) ||
          (member->type == TYPE_NUMBER && type != G_TYPE_INT64 && type != G_TYPE_DOUBLE))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: unexpected member %s", event, name);
          return FALSE;
        }
    }

  for (const Member *m = schema->members; m->name != NULL; m++)
    if (m->required && !json_object_has_member (object, m->name))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: no %s", event, m->name);
        return FALSE;
      }

  return TRUE;
}

/* The object: members whose values are strings or numbers. */
static gboolean
parse_object (Scanner    *s,
              JsonObject *object)
{
  g_autoptr(GString) key = g_string_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);

  if (!expect (s, '{'))
    return FALSE;
  skip_space (s);
  if (s->p < s->end && *s->p == '}')
    {
      s->p++;
      return TRUE;
    }

  for (;;)
    {
      g_autoptr(JsonNode) node = json_node_alloc ();

      g_string_truncate (key, 0);
      if (!parse_string (s, key) || !expect (s, ':'))
        return FALSE;
      skip_space (s);
      if (s->p >= s->end)
        return FALSE;
      if (*s->p == '"')
        {
          g_string_truncate (text, 0);
          if (!parse_string (s, text))
            return FALSE;
          json_node_init_string (node, text->str);
        }
      else if (*s->p == '-' || g_ascii_isdigit (*s->p))
        {
          json_node_init_int (node, 0);
          if (!parse_number (s, node))
            return FALSE;
        }
      else
        return FALSE; /* nothing the worker sends is nested, true, false or null */

      if (json_object_has_member (object, key->str))
        return FALSE;
      json_object_set_member (object, key->str, g_steal_pointer (&node));

      skip_space (s);
      if (s->p < s->end && *s->p == ',')
        s->p++;
      else
        return expect (s, '}');
    }
}

/**
 * _viva_worker_frame_parse:
 * @line: one frame, without its newline
 *
 * Reads a frame as an object of strings and numbers, and checks it against
 * its event's schema: known members only, of the right types, the required
 * ones present. Strings come out valid UTF-8 without NUL.
 *
 * Returns: (transfer full): the frame, or %NULL with @error saying what
 *   was wrong (for a developer: a worker that sends it is not ours)
 */
JsonObject *
_viva_worker_frame_parse (const char  *line,
                          gsize        length,
                          GError     **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  Scanner s = { line, line + length };

  if (!g_utf8_validate_len (line, length, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not UTF-8");
      return NULL;
    }

  if (!parse_object (&s, object) || (skip_space (&s), s.p != s.end))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "not a frame (at byte %" G_GSIZE_FORMAT ")", (gsize) (s.p - line));
      return NULL;
    }

  if (!check_schema (object, error))
    return NULL;

  return g_steal_pointer (&object);
}

/**
 * _viva_worker_text_make_visible:
 *
 * What a program wrote to fd 1 or 2, as text a console shows whole: bytes
 * that are not UTF-8 become U+FFFD, NUL and control characters their
 * pictures.
 *
 * Returns: (transfer full): valid UTF-8 without NUL
 */
char *
_viva_worker_text_make_visible (const char *data,
                                gsize       length)
{
  GString *out = g_string_sized_new (length);
  const char *end = data + length;

  while (data < end)
    {
      guchar c = *data;
      gunichar ch;

      if (c < 0x80)
        {
          append_visible (out, c);
          data++;
          continue;
        }

      ch = g_utf8_get_char_validated (data, end - data);
      if (ch == (gunichar) -1 || ch == (gunichar) -2)
        {
          g_string_append_unichar (out, 0xfffd);
          data++;
          continue;
        }
      g_string_append_unichar (out, ch);
      data = g_utf8_next_char (data);
    }

  return g_string_free (out, FALSE);
}

static guint32
read_be32 (const guchar *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/**
 * _viva_worker_image_check:
 * @base64: an image frame's data
 * @why: (out): when the image is refused, a sentence for the console
 *
 * Decodes a plot's base64 and checks, before anything decodes the image,
 * that it is a PNG of at most VIVA_WORKER_FRAME_MAX_IMAGE bytes and
 * VIVA_WORKER_FRAME_MAX_SIDE pixels a side.
 *
 * Returns: (transfer full) (nullable): the PNG bytes, or %NULL with @why
 */
GBytes *
_viva_worker_image_check (const char  *base64,
                          char       **why)
{
  static const guchar signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  gsize encoded = strlen (base64);
  g_autofree guchar *data = NULL;
  gsize length = 0;
  guint32 width, height;

  g_return_val_if_fail (why != NULL, NULL);
  *why = NULL;

  if (encoded / 4 * 3 > VIVA_WORKER_FRAME_MAX_IMAGE)
    {
      g_autofree char *size = g_format_size (encoded / 4 * 3);
      g_autofree char *limit = g_format_size (VIVA_WORKER_FRAME_MAX_IMAGE);

      /* Translators: both are sizes such as “12.0 MB” */
      *why = g_strdup_printf (_("A plot of %s was left out: plots larger than %s are not shown."), size, limit);
      return NULL;
    }

  data = g_base64_decode (base64, &length);
  if (length < 24 || memcmp (data, signature, 8) != 0 || memcmp (data + 12, "IHDR", 4) != 0)
    {
      *why = g_strdup (_("A plot was left out: it was not a PNG image."));
      return NULL;
    }

  width = read_be32 (data + 16);
  height = read_be32 (data + 20);
  if (width == 0 || height == 0 || width > VIVA_WORKER_FRAME_MAX_SIDE || height > VIVA_WORKER_FRAME_MAX_SIDE)
    {
      /* Translators: the plot's width and height, then the largest shown */
      *why = g_strdup_printf (_("The plot was %u×%u pixels; plots larger than %d×%d are not shown."),
                              width, height, VIVA_WORKER_FRAME_MAX_SIDE, VIVA_WORKER_FRAME_MAX_SIDE);
      return NULL;
    }

  return g_bytes_new_take (g_steal_pointer (&data), length);
}
