/* viva-markdown.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <md4c.h>

#include "viva-markdown.h"
#include "viva-show.h"

/* Markdown into a GtkTextBuffer with md4c: blocks and spans become text
 * tags, so the text stays selectable and copyable as plain text. Fenced code
 * is highlighted by GtkSourceView in a scratch buffer whose colours are then
 * copied as tags, which keeps code blocks in the same selectable text. */

#define LINK_URI_KEY "viva-link-uri"

typedef struct
{
  GtkTextBuffer *buffer;
  GtkTextMark   *mark;        /* where the next text goes */
  GPtrArray     *tags;        /* tags applied to text inserted now */
  GArray        *lists;       /* int per open list: -1 bullet, else the next number */
  GString       *code;        /* the fenced code being collected */
  char          *code_lang;
  guint          in_code : 1;
} RenderState;

static void
ensure_tags (GtkTextBuffer *buffer)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);

  if (gtk_text_tag_table_lookup (table, "h1") != NULL)
    return;

  gtk_text_buffer_create_tag (buffer, "h1", "weight", PANGO_WEIGHT_BOLD, "scale", 1.5,
                              "pixels-above-lines", 6, "pixels-below-lines", 6, NULL);
  gtk_text_buffer_create_tag (buffer, "h2", "weight", PANGO_WEIGHT_BOLD, "scale", 1.25,
                              "pixels-above-lines", 6, "pixels-below-lines", 4, NULL);
  gtk_text_buffer_create_tag (buffer, "h3", "weight", PANGO_WEIGHT_BOLD, "scale", 1.1,
                              "pixels-above-lines", 4, "pixels-below-lines", 2, NULL);
  gtk_text_buffer_create_tag (buffer, "p", "pixels-below-lines", 8, NULL);
  gtk_text_buffer_create_tag (buffer, "bold", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buffer, "italic", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (buffer, "strike", "strikethrough", TRUE, NULL);
  /* Code wraps without hyphens: a hyphen inside `max_iters` is a
   * different program. */
  gtk_text_buffer_create_tag (buffer, "code", "family", "monospace",
                              "background", "rgba(127,127,127,0.18)",
                              "insert-hyphens", FALSE, NULL);
  gtk_text_buffer_create_tag (buffer, "codeblock", "family", "monospace",
                              "paragraph-background", "rgba(127,127,127,0.14)",
                              "pixels-above-lines", 0, "pixels-below-lines", 0,
                              "wrap-mode", GTK_WRAP_CHAR, "insert-hyphens", FALSE, NULL);
  gtk_text_buffer_create_tag (buffer, "quote", "style", PANGO_STYLE_ITALIC, "left-margin", 30,
                              "foreground", "rgba(127,127,127,1)", NULL);
  gtk_text_buffer_create_tag (buffer, "li", "pixels-below-lines", 2, NULL);
  gtk_text_buffer_create_tag (buffer, "link", "underline", PANGO_UNDERLINE_SINGLE,
                              "foreground", "#3584e4", NULL);
}

static GtkTextTag *
list_indent_tag (GtkTextBuffer *buffer,
                 guint          depth)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  g_autofree char *name = g_strdup_printf ("li-depth-%u", depth);
  GtkTextTag *tag;

  if (!(tag = gtk_text_tag_table_lookup (table, name)))
    tag = gtk_text_buffer_create_tag (buffer, name,
                                      "left-margin", 18 + 20 * (int)depth,
                                      "indent", -14, NULL);

  return tag;
}

static GtkTextTag *
lookup_tag (RenderState *state,
            const char  *name)
{
  return gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (state->buffer), name);
}

static void
insert_text (RenderState *state,
             const char  *text,
             gssize       len)
{
  GtkTextIter iter, start;
  int start_offset;

  gtk_text_buffer_get_iter_at_mark (state->buffer, &iter, state->mark);
  start_offset = gtk_text_iter_get_offset (&iter);
  gtk_text_buffer_insert (state->buffer, &iter, text, len);
  gtk_text_buffer_get_iter_at_offset (state->buffer, &start, start_offset);

  for (guint i = 0; i < state->tags->len; i++)
    gtk_text_buffer_apply_tag (state->buffer, g_ptr_array_index (state->tags, i), &start, &iter);
}

static gboolean
at_line_start (RenderState *state)
{
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (state->buffer, &iter, state->mark);

  return gtk_text_iter_starts_line (&iter);
}

static void
end_line (RenderState *state)
{
  if (!at_line_start (state))
    insert_text (state, "\n", 1);
}

static void
push_tag (RenderState *state,
          GtkTextTag  *tag)
{
  g_ptr_array_add (state->tags, tag);
}

static void
pop_tag (RenderState *state,
         GtkTextTag  *tag)
{
  for (guint i = state->tags->len; i > 0; i--)
    {
      if (g_ptr_array_index (state->tags, i - 1) == tag)
        {
          g_ptr_array_remove_index (state->tags, i - 1);
          return;
        }
    }
}

static GtkSourceStyleScheme *
current_scheme (void)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  return gtk_source_style_scheme_manager_get_scheme (manager, dark ? "Adwaita-dark" : "Adwaita");
}

static GtkTextTag *
highlight_tag_like (GtkTextBuffer *buffer,
                    GtkTextTag    *source)
{
  g_autoptr(GdkRGBA) fg = NULL;
  gboolean fg_set, weight_set, style_set;
  int weight;
  PangoStyle style;
  g_autofree char *fg_str = NULL;
  g_autofree char *name = NULL;
  GtkTextTag *tag;

  g_object_get (source,
                "foreground-set", &fg_set, "foreground-rgba", &fg,
                "weight-set", &weight_set, "weight", &weight,
                "style-set", &style_set, "style", &style,
                NULL);

  if (!fg_set && !weight_set && !style_set)
    return NULL;

  fg_str = fg_set && fg ? gdk_rgba_to_string (fg) : g_strdup ("-");
  name = g_strdup_printf ("hl:%s:%d:%d", fg_str, weight_set ? weight : 0, style_set ? (int)style : -1);

  if ((tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), name)))
    return tag;

  tag = gtk_text_buffer_create_tag (buffer, name, NULL);
  g_object_set_data (G_OBJECT (tag), "viva-highlight", GINT_TO_POINTER (1));
  if (fg_set && fg)
    g_object_set (tag, "foreground-rgba", fg, NULL);
  if (weight_set)
    g_object_set (tag, "weight", weight, NULL);
  if (style_set)
    g_object_set (tag, "style", style, NULL);

  return tag;
}

/**
 * viva_markdown_insert_code:
 * @language: (nullable): the fence's info string; Python when empty
 *
 * Inserts @code at @iter as a highlighted code block and moves @iter past it.
 */
void
viva_markdown_insert_code (GtkTextBuffer *buffer,
                           GtkTextIter   *iter,
                           const char    *code,
                           const char    *language)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  g_autoptr(GtkSourceBuffer) scratch = NULL;
  GtkSourceLanguage *lang = NULL;
  GtkTextIter scratch_iter, scratch_end;
  int base;

  g_return_if_fail (GTK_IS_TEXT_BUFFER (buffer));
  g_return_if_fail (iter != NULL);

  ensure_tags (buffer);

  if (language == NULL || language[0] == '\0' ||
      g_str_equal (language, "python") || g_str_equal (language, "py"))
    language = "python3";
  lang = gtk_source_language_manager_get_language (languages, language);

  base = gtk_text_iter_get_offset (iter);
  gtk_text_buffer_insert_with_tags_by_name (buffer, iter, code, -1, "codeblock", NULL);
  if (!g_str_has_suffix (code, "\n"))
    gtk_text_buffer_insert_with_tags_by_name (buffer, iter, "\n", 1, "codeblock", NULL);

  if (lang == NULL)
    return;

  scratch = gtk_source_buffer_new (NULL);
  gtk_source_buffer_set_language (scratch, lang);
  gtk_source_buffer_set_style_scheme (scratch, current_scheme ());
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (scratch), code, -1);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (scratch), &scratch_iter, &scratch_end);
  gtk_source_buffer_ensure_highlight (scratch, &scratch_iter, &scratch_end);

  while (!gtk_text_iter_is_end (&scratch_iter))
    {
      GtkTextIter next = scratch_iter;
      g_autoptr(GSList) tags = gtk_text_iter_get_tags (&scratch_iter);

      if (!gtk_text_iter_forward_to_tag_toggle (&next, NULL))
        next = scratch_end;

      for (const GSList *l = tags; l; l = l->next)
        {
          GtkTextTag *tag = highlight_tag_like (buffer, l->data);
          GtkTextIter a, b;

          if (tag == NULL)
            continue;

          gtk_text_buffer_get_iter_at_offset (buffer, &a, base + gtk_text_iter_get_offset (&scratch_iter));
          gtk_text_buffer_get_iter_at_offset (buffer, &b, base + gtk_text_iter_get_offset (&next));
          gtk_text_buffer_apply_tag (buffer, tag, &a, &b);
        }

      scratch_iter = next;
    }

  /* Applying tags invalidated @iter; put it back after the block. */
  gtk_text_buffer_get_iter_at_offset (buffer, iter,
                                      base + g_utf8_strlen (code, -1) + (g_str_has_suffix (code, "\n") ? 0 : 1));
}

/* The spans that are one tag each; links carry a tag of their own too. */
static const char *
span_tag_name (MD_SPANTYPE type)
{
  switch (type)
    {
    case MD_SPAN_EM:
      return "italic";
    case MD_SPAN_STRONG:
      return "bold";
    case MD_SPAN_CODE:
      return "code";
    case MD_SPAN_DEL:
      return "strike";
    case MD_SPAN_A:
    case MD_SPAN_IMG:
    case MD_SPAN_U:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      return NULL;
    }
}

static const char *
heading_tag_name (MD_BLOCK_H_DETAIL *detail)
{
  static const char * const names[] = { "h1", "h1", "h2", "h3" };

  return names[MIN (detail->level, 3)];
}

static int
enter_block (MD_BLOCKTYPE  type,
             void         *detail,
             void         *user_data)
{
  RenderState *state = user_data;

  switch (type)
    {
    case MD_BLOCK_H:
      end_line (state);
      push_tag (state, lookup_tag (state, heading_tag_name (detail)));
      break;

    case MD_BLOCK_P:
      end_line (state);
      if (state->lists->len == 0)
        push_tag (state, lookup_tag (state, "p"));
      break;

    case MD_BLOCK_QUOTE:
      end_line (state);
      push_tag (state, lookup_tag (state, "quote"));
      break;

    case MD_BLOCK_UL:
      end_line (state);
      g_array_append_val (state->lists, (int){-1});
      break;

    case MD_BLOCK_OL:
      end_line (state);
      g_array_append_val (state->lists, (int){((MD_BLOCK_OL_DETAIL *)detail)->start});
      break;

    case MD_BLOCK_LI:
      {
        int *counter = &g_array_index (state->lists, int, state->lists->len - 1);
        g_autofree char *marker = NULL;

        end_line (state);
        push_tag (state, list_indent_tag (state->buffer, state->lists->len - 1));
        push_tag (state, lookup_tag (state, "li"));
        if (*counter < 0)
          marker = g_strdup (state->lists->len > 1 ? "◦ " : "• ");
        else
          marker = g_strdup_printf ("%d. ", (*counter)++);
        insert_text (state, marker, -1);
      }
      break;

    case MD_BLOCK_CODE:
      {
        MD_BLOCK_CODE_DETAIL *code = detail;

        end_line (state);
        state->in_code = TRUE;
        g_string_truncate (state->code, 0);
        g_clear_pointer (&state->code_lang, g_free);
        if (code->lang.text != NULL)
          state->code_lang = g_strndup (code->lang.text, code->lang.size);
      }
      break;

    case MD_BLOCK_HR:
      end_line (state);
      insert_text (state, "──────────\n", -1);
      break;

    case MD_BLOCK_TR:
      end_line (state);
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (!at_line_start (state))
        insert_text (state, "\t", 1);
      if (type == MD_BLOCK_TH)
        push_tag (state, lookup_tag (state, "bold"));
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_HTML:
    case MD_BLOCK_TABLE:
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
    default:
      break;
    }

  return 0;
}

static int
leave_block (MD_BLOCKTYPE  type,
             void         *detail,
             void         *user_data)
{
  RenderState *state = user_data;

  switch (type)
    {
    case MD_BLOCK_H:
      end_line (state);
      pop_tag (state, lookup_tag (state, heading_tag_name (detail)));
      break;

    case MD_BLOCK_P:
      end_line (state);
      pop_tag (state, lookup_tag (state, "p"));
      break;

    case MD_BLOCK_QUOTE:
      end_line (state);
      pop_tag (state, lookup_tag (state, "quote"));
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      g_array_set_size (state->lists, state->lists->len - 1);
      if (state->lists->len == 0)
        {
          end_line (state);
          insert_text (state, "\n", 1);
        }
      break;

    case MD_BLOCK_LI:
      end_line (state);
      pop_tag (state, lookup_tag (state, "li"));
      pop_tag (state, list_indent_tag (state->buffer, state->lists->len - 1));
      break;

    case MD_BLOCK_CODE:
      {
        GtkTextIter iter;

        state->in_code = FALSE;
        gtk_text_buffer_get_iter_at_mark (state->buffer, &iter, state->mark);
        viva_markdown_insert_code (state->buffer, &iter, state->code->str, state->code_lang);
        gtk_text_buffer_move_mark (state->buffer, state->mark, &iter);
        insert_text (state, "\n", 1);
      }
      break;

    case MD_BLOCK_TH:
      pop_tag (state, lookup_tag (state, "bold"));
      break;

    case MD_BLOCK_TR:
      insert_text (state, "\n", 1);
      break;

    case MD_BLOCK_TABLE:
      insert_text (state, "\n", 1);
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_HR:
    case MD_BLOCK_HTML:
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
    case MD_BLOCK_TD:
    default:
      break;
    }

  return 0;
}

/* Emphasis, code and links become tags pushed when the span opens and
 * popped when it closes; images, underline, maths and wiki links show as
 * their text. */
static int
toggle_span (RenderState *state,
             MD_SPANTYPE  type,
             void        *detail,
             gboolean     entering)
{
  const char *name = span_tag_name (type);

  if (name != NULL && entering)
    push_tag (state, lookup_tag (state, name));
  else if (name != NULL)
    pop_tag (state, lookup_tag (state, name));
  else if (type == MD_SPAN_A && entering)
    {
      MD_SPAN_A_DETAIL *a = detail;
      g_autofree char *uri = g_strndup (a->href.text, a->href.size);
      GtkTextTag *tag = gtk_text_buffer_create_tag (state->buffer, NULL, NULL);

      g_object_set_data_full (G_OBJECT (tag), LINK_URI_KEY, g_steal_pointer (&uri), g_free);
      push_tag (state, lookup_tag (state, "link"));
      push_tag (state, tag);
    }
  else if (type == MD_SPAN_A)
    {
      /* The link's own tag was pushed last. */
      g_ptr_array_remove_index (state->tags, state->tags->len - 1);
      pop_tag (state, lookup_tag (state, "link"));
    }

  return 0;
}

static int
enter_span (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  return toggle_span (user_data, type, detail, TRUE);
}

static int
leave_span (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  return toggle_span (user_data, type, detail, FALSE);
}

static void
insert_entity (RenderState *state,
               const char  *text,
               MD_SIZE      size)
{
  static const struct { const char *name; const char *text; } entities[] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
    { "&apos;", "'" }, { "&nbsp;", "\u00a0" }, { "&mdash;", "—" }, { "&ndash;", "–" },
    { "&hellip;", "…" }, { "&times;", "×" }, { "&larr;", "←" }, { "&rarr;", "→" },
  };
  g_autofree char *entity = g_strndup (text, size);
  gunichar ch = 0;

  for (guint i = 0; i < G_N_ELEMENTS (entities); i++)
    {
      if (g_str_equal (entity, entities[i].name))
        {
          insert_text (state, entities[i].text, -1);
          return;
        }
    }

  if (size > 3 && entity[1] == '#')
    {
      if (entity[2] == 'x' || entity[2] == 'X')
        ch = g_ascii_strtoull (entity + 3, NULL, 16);
      else
        ch = g_ascii_strtoull (entity + 2, NULL, 10);
    }

  if (ch != 0 && g_unichar_validate (ch))
    {
      char buf[8];
      int len = g_unichar_to_utf8 (ch, buf);
      insert_text (state, buf, len);
    }
  else
    {
      insert_text (state, text, size);
    }
}

static int
text_cb (MD_TEXTTYPE    type,
         const MD_CHAR *text,
         MD_SIZE        size,
         void          *user_data)
{
  RenderState *state = user_data;

  if (state->in_code)
    {
      g_string_append_len (state->code, text, size);
      return 0;
    }

  switch (type)
    {
    case MD_TEXT_BR:
      insert_text (state, "\n", 1);
      break;

    case MD_TEXT_SOFTBR:
      insert_text (state, " ", 1);
      break;

    case MD_TEXT_ENTITY:
      insert_entity (state, text, size);
      break;

    case MD_TEXT_NULLCHAR:
      insert_text (state, "\uFFFD", -1);
      break;

    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      insert_text (state, text, size);
      break;
    }

  return 0;
}

/**
 * viva_markdown_insert:
 * @length: the length of @markdown in bytes, or -1 when nul-terminated
 *
 * Renders @markdown at @iter and moves @iter past what was inserted.
 */
void
viva_markdown_insert (GtkTextBuffer *buffer,
                      GtkTextIter   *iter,
                      const char    *markdown,
                      gssize         length)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_PERMISSIVEAUTOLINKS | MD_FLAG_NOHTML,
    .enter_block = enter_block,
    .leave_block = leave_block,
    .enter_span = enter_span,
    .leave_span = leave_span,
    .text = text_cb,
  };
  RenderState state = { 0 };

  g_return_if_fail (GTK_IS_TEXT_BUFFER (buffer));
  g_return_if_fail (iter != NULL);

  if (markdown == NULL)
    return;

  if (length < 0)
    length = strlen (markdown);

  ensure_tags (buffer);

  state.buffer = buffer;
  state.mark = gtk_text_buffer_create_mark (buffer, NULL, iter, FALSE);
  state.tags = g_ptr_array_new ();
  state.lists = g_array_new (FALSE, FALSE, sizeof (int));
  state.code = g_string_new (NULL);

  md_parse (markdown, length, &parser, &state);

  gtk_text_buffer_get_iter_at_mark (buffer, iter, state.mark);
  gtk_text_buffer_delete_mark (buffer, state.mark);

  g_ptr_array_unref (state.tags);
  g_array_unref (state.lists);
  g_string_free (state.code, TRUE);
  g_free (state.code_lang);
}

/**
 * viva_markdown_render:
 *
 * Replaces the contents of @buffer with @markdown rendered.
 */
void
viva_markdown_render (GtkTextBuffer *buffer,
                      const char    *markdown)
{
  GtkTextIter iter, end;

  g_return_if_fail (GTK_IS_TEXT_BUFFER (buffer));

  gtk_text_buffer_set_text (buffer, "", 0);
  gtk_text_buffer_get_start_iter (buffer, &iter);
  viva_markdown_insert (buffer, &iter, markdown, -1);

  /* Trailing blank lines only add scrolling. */
  gtk_text_buffer_get_end_iter (buffer, &end);
  iter = end;
  while (gtk_text_iter_backward_char (&iter) && gtk_text_iter_get_char (&iter) == '\n')
    ;
  if (!gtk_text_iter_is_end (&iter))
    {
      gtk_text_iter_forward_char (&iter);
      gtk_text_buffer_delete (buffer, &iter, &end);
    }
}

static void
link_released_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkTextView     *view)
{
  GtkTextIter iter;
  int bx, by;
  g_autoptr(GSList) tags = NULL;

  if (gtk_text_buffer_get_has_selection (gtk_text_view_get_buffer (view)))
    return;

  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by))
    return;

  tags = gtk_text_iter_get_tags (&iter);
  for (const GSList *l = tags; l; l = l->next)
    {
      const char *uri = g_object_get_data (l->data, LINK_URI_KEY);

      if (uri != NULL)
        {
          viva_show_uri (GTK_WIDGET (view), uri);
          return;
        }
    }
}

/**
 * viva_markdown_attach_links:
 *
 * Makes links rendered into @view's buffer open in the browser on click.
 */
void
viva_markdown_attach_links (GtkTextView *view)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_return_if_fail (GTK_IS_TEXT_VIEW (view));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (click, "released", G_CALLBACK (link_released_cb), view, 0);
  gtk_widget_add_controller (GTK_WIDGET (view), GTK_EVENT_CONTROLLER (click));
}
