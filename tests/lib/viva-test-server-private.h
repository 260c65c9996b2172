/* viva-test-server-private.h: what the scripted server and its responses
 * share inside tests/lib: a response's fields, a request's free function and
 * JSON string quoting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-test-server.h"

G_BEGIN_DECLS

struct _VivaTestResponse
{
  grefcount           ref_count;
  guint               status;
  char               *content_type;
  GBytes             *body;
  GPtrArray          *headers;     /* name, value, name, value… */
  GArray             *splits;      /* sorted offsets */
  gsize               chunk_size;
  guint               header_delay;
  guint               chunk_delay;
  gssize              stall_after;
  gssize              drop_after;

  /* A body made as it is sent (viva_test_response_new_repeat): @body is
   * the head, then @piece @n_pieces times (0: forever, "@N@" in it the
   * piece's number), then @tail. */
  char               *piece;
  guint64             n_pieces;
  char               *tail;
};

void  _viva_test_request_free (VivaTestRequest *request);
char *_viva_test_json_string  (const char      *text);

G_END_DECLS
