/* viva-exam-pack-ref.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-error.h"
#include "viva-exam-pack-ref.h"

/* Sessions live in the student's own folders, so they name their pack by
 * id and digest and a resume reads it again: the pack bundled with Viva
 * from the program's resources, a teacher's pack from where it was or from
 * the library. A pack that is gone, or whose bytes changed, is said in a
 * sentence that tells what to do. */

/* As viva-pack.c: the bundled pack's resource. */
#define BUNDLED_PACK RESOURCE_PREFIX "/core/packs/intro-ai.json"

static char *
digest_of (GBytes *bytes)
{
  return g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
}

/**
 * viva_exam_pack_ref_new:
 * @id: the pack's id
 * @pack_bytes: the pack file's bytes, as read
 * @path: (nullable): where the file is; %NULL for the bundled pack
 *
 * Returns: (transfer full): the `pack_ref` object of a checkpoint
 */
JsonObject *
viva_exam_pack_ref_new (const char *id,
                        GBytes     *pack_bytes,
                        const char *path)
{
  JsonObject *ref = json_object_new ();
  g_autofree char *digest = digest_of (pack_bytes);

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (pack_bytes != NULL, NULL);

  json_object_set_string_member (ref, "id", id);
  json_object_set_string_member (ref, "digest", digest);
  if (path != NULL)
    json_object_set_string_member (ref, "path", path);
  else
    json_object_set_null_member (ref, "path");

  return ref;
}

/**
 * viva_exam_pack_ref_new_for_pack:
 *
 * The reference to a pack loaded from its file, or to the bundled pack. It
 * reads the file (a pack is small) to take its digest.
 *
 * Returns: (transfer full) (nullable): the `pack_ref`, or %NULL for a pack
 *   that exists only in memory (it cannot be resumed from its file)
 */
JsonObject *
viva_exam_pack_ref_new_for_pack (VivaPack  *pack,
                                 GError   **error)
{
  GFile *file;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (VIVA_IS_PACK (pack), NULL);

  if ((file = viva_pack_get_file (pack)) != NULL)
    {
      if (!(bytes = g_file_load_bytes (file, NULL, NULL, error)))
        return NULL;
      path = g_file_get_path (file);
      return viva_exam_pack_ref_new (viva_pack_get_id (pack), bytes, path);
    }

  bytes = g_resources_lookup_data (BUNDLED_PACK, 0, NULL);
  if (bytes != NULL)
    {
      g_autoptr(VivaPack) bundled = viva_pack_new_from_bytes (bytes, NULL);

      if (bundled != NULL && g_strcmp0 (viva_pack_get_id (bundled), viva_pack_get_id (pack)) == 0)
        return viva_exam_pack_ref_new (viva_pack_get_id (pack), bytes, NULL);
    }

  g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PACK_MISSING,
               _("The pack “%s” has not been saved to a file, so a defense of it cannot be resumed later."),
               viva_pack_get_id (pack));
  return NULL;
}

/* A teacher's pack that moved: the library's file with the same bytes. */
static GBytes *
find_in_library (const char *library_dir,
                 const char *digest,
                 char      **found_path)
{
  g_autoptr(GDir) dir = library_dir ? g_dir_open (library_dir, 0, NULL) : NULL;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (library_dir, name, NULL);
      g_autoptr(GMappedFile) mapped = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *candidate = NULL;

      if (!g_str_has_suffix (name, ".json") || !(mapped = g_mapped_file_new (path, FALSE, NULL)))
        continue;
      bytes = g_mapped_file_get_bytes (mapped);
      candidate = digest_of (bytes);
      if (g_str_equal (candidate, digest))
        {
          *found_path = g_steal_pointer (&path);
          return g_steal_pointer (&bytes);
        }
    }

  return NULL;
}

/**
 * viva_exam_pack_ref_load_problem:
 * @pack_ref: a checkpoint's `pack_ref`
 * @problem_id: the problem defended
 * @library_dir: (nullable): where teachers' packs are kept, looked in when
 *   the file is no longer at its path; %NULL for the default
 *
 * Reads the pack again, checks its digest and finds the problem.
 *
 * Returns: (transfer full): the problem, or %NULL with
 *   %VIVA_EXAM_ERROR_PACK_MISSING or %VIVA_EXAM_ERROR_PROBLEM_CHANGED
 */
VivaProblem *
viva_exam_pack_ref_load_problem (JsonObject  *pack_ref,
                                 const char  *problem_id,
                                 const char  *library_dir,
                                 GError     **error)
{
  const char *id = json_object_get_string_member_with_default (pack_ref, "id", "");
  const char *digest = json_object_get_string_member_with_default (pack_ref, "digest", "");
  const char *path = NULL;
  g_autofree char *default_library = NULL;
  g_autofree char *found_path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autofree char *actual = NULL;
  VivaProblem *problem;

  if (json_object_has_member (pack_ref, "path") && !json_object_get_null_member (pack_ref, "path"))
    path = json_object_get_string_member (pack_ref, "path");

  if (library_dir == NULL)
    library_dir = default_library = g_build_filename (g_get_user_data_dir (), "viva", "packs", NULL);

  if (path == NULL)
    {
      bytes = g_resources_lookup_data (BUNDLED_PACK, 0, NULL);
      actual = bytes ? digest_of (bytes) : NULL;
      if (g_strcmp0 (actual, digest) != 0)
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PROBLEM_CHANGED,
                       _("This defense was started with another version of the pack “%s” that comes "
                         "with Viva, so it cannot be continued. Start a new defense."), id);
          return NULL;
        }
    }
  else
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) local = NULL;

      if (!(bytes = g_file_load_bytes (file, NULL, NULL, &local)))
        {
          /* Moved, or renamed by the library: the same bytes elsewhere do. */
          if (!(bytes = find_in_library (library_dir, digest, &found_path)))
            {
              g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PACK_MISSING,
                           _("The pack “%s” of this defense is no longer at %s (%s), nor in the pack "
                             "library. Put the file back, then resume again."),
                           id, path, local->message);
              return NULL;
            }
          path = found_path;
        }

      actual = digest_of (bytes);
      if (g_strcmp0 (actual, digest) != 0)
        {
          g_clear_pointer (&bytes, g_bytes_unref);
          if (!(bytes = find_in_library (library_dir, digest, &found_path)))
            {
              g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PROBLEM_CHANGED,
                           _("The pack file %s changed since this defense was started, so the defense "
                             "cannot be continued against it. Restore the version it was started with, "
                             "or start a new defense."),
                           path);
              return NULL;
            }
        }
    }

  if (!(pack = viva_pack_new_from_bytes (bytes, error)))
    {
      g_prefix_error (error, _("The pack “%s” of this defense is not readable: "), id);
      return NULL;
    }

  if (!(problem = viva_pack_find_problem (pack, problem_id)))
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PROBLEM_CHANGED,
                   _("The pack “%s” no longer has the problem “%s” of this defense. Start a new defense."),
                   id, problem_id);
      return NULL;
    }

  return g_object_ref (problem);
}
