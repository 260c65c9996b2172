/* test-tool-card-facts.c
 *
 * The panel's cards read what a tool says about itself: a tool defined
 * only here, in the test, gets its own title and icon on its tool card,
 * has its result read by its protocol step, and is listed by its own done text on the
 * verdict card, with no table in the app edited.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "viva-exam-tool.h"
#include "viva-exam-verdict.h"
#include "viva-resources.h"
#include "viva-tool-card.h"
#include "viva-verdict-card.h"

/* A probe of the test's own: the card reads its result as a test's. */
VIVA_DEFINE_EXAM_TOOL (VivaTestFuzzTool, viva_test_fuzz_tool)

static const VivaExamToolFacts fuzz_facts = {
  .name = "fuzzTheCode",
  .title = "Throwing random inputs at your code",
  .icon_name = "weather-storm-symbolic",
  .running_text = "Throwing inputs…",
  .done_text = "Threw random inputs at your code",
  .done_several_text = "Threw random inputs at your code, again and again",
  .step = VIVA_EXAM_PROTOCOL_PROBE,
  .kind = VIVA_EXAM_TOOL_KIND_ORDINARY,
};

static void
viva_test_fuzz_tool_invoke (VivaExamTool    *tool,
                            VivaExamContext *context,
                            JsonObject      *arguments,
                            GTask           *task)
{
  viva_exam_tool_return (task, json_object_new ());
}

static void
viva_test_fuzz_tool_class_init (VivaTestFuzzToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &fuzz_facts;
  tool_class->description = "Throws random inputs at the student's code.";
  tool_class->parameters = "{\"type\": \"object\", \"properties\": {\"code\": {\"type\": \"string\"}}}";
  tool_class->invoke = viva_test_fuzz_tool_invoke;
}

/* The first image below @widget, depth first. */
static GtkImage *
find_image (GtkWidget *widget)
{
  if (GTK_IS_IMAGE (widget))
    return GTK_IMAGE (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkImage *image = find_image (child);

      if (image != NULL)
        return image;
    }

  return NULL;
}

/* Whether any label below @widget says @text. */
static gboolean
has_label_containing (GtkWidget  *widget,
                      const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (has_label_containing (child, text))
      return TRUE;

  return FALSE;
}

static void
test_own_tool_card (void)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonNode) node = json_from_string ("{\"passed\": false, \"valid\": true}", NULL);
  GtkWidget *card;
  GtkImage *icon;

  g_type_ensure (viva_test_fuzz_tool_get_type ());
  json_object_set_string_member (arguments, "code", "assert shout('a') == 'A'");

  card = g_object_ref_sink (viva_tool_card_new ("fuzzTheCode", arguments));
  g_assert_cmpstr (viva_tool_card_get_title (VIVA_TOOL_CARD (card)), ==, "Throwing random inputs at your code");
  icon = find_image (card);
  g_assert_nonnull (icon);
  g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "weather-storm-symbolic");
  /* Its step is a probe's, so its code is "the test" and its failure the
   * student's, as for the default probe. */
  g_assert_true (has_label_containing (card, "The test"));

  /* A result with no run status: only a probe's reading calls it failed. */
  viva_tool_card_set_result (VIVA_TOOL_CARD (card), json_node_get_object (node), 5);
  g_assert_cmpint (viva_tool_card_get_status (VIVA_TOOL_CARD (card)), ==, VIVA_TOOL_CARD_FAILED);
  g_assert_finalize_object (card);
}

static void
test_own_tool_on_verdict_card (void)
{
  g_autoptr(JsonNode) node = json_from_string (
    "{\"status\": \"finished\", \"verdict\": \"pass\", \"score\": 90, \"comment\": \"Fine.\","
    " \"steps\": [\"readStudentCode\", \"fuzzTheCode\", \"fuzzTheCode\", \"askStudent\"],"
    " \"evidence\": [\"S2\"], \"probes\": []}", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaExamVerdict) verdict = viva_exam_verdict_new_from_json (node, &error);
  GtkWidget *card;

  g_assert_no_error (error);
  g_type_ensure (viva_test_fuzz_tool_get_type ());

  card = g_object_ref_sink (viva_verdict_card_new (verdict));
  g_assert_true (has_label_containing (card, "Threw random inputs at your code, again and again (×2)"));
  g_assert_true (has_label_containing (card, "Read your code"));
  g_assert_finalize_object (card);
}

int
main (int   argc,
      char **argv)
{
  /* Untranslated, so the texts compare as written. */
  g_setenv ("LANGUAGE", "C", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_resources_register (viva_get_resource ());

  g_test_add_func ("/viva/tool-card-facts/own-tool-card", test_own_tool_card);
  g_test_add_func ("/viva/tool-card-facts/own-tool-on-verdict-card", test_own_tool_on_verdict_card);

  return g_test_run ();
}
