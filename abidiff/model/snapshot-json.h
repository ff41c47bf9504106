/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON form of a snapshot, as specified in docs/snapshot-format.md and
 * docs/snapshot.schema.json.  Written with a fixed key order and sorted
 * arrays, so the same snapshot always gives the same bytes.
 */
#ifndef KABIDIFF_SNAPSHOT_JSON_H
#define KABIDIFF_SNAPSHOT_JSON_H

#include <stdio.h>

#include <jansson.h>

#include "model.h"

/*
 * The largest snapshot file kabidiff reads: a live /sys of a large machine
 * with its values is some hundred MB.
 */
#define SNAPSHOT_FILE_MAX	((size_t)1 << 30)

/*
 * snapshot__load() - read the snapshot in file @path.
 *
 * Returns an owned snapshot in canonical order, or NULL with errno set:
 * ENOENT, EISDIR, EFBIG (over SNAPSHOT_FILE_MAX), ... when the file cannot
 * be read, EINVAL when it is not a
 * valid snapshot, EPROTONOSUPPORT for a newer format version, ENOMEM.  The
 * reason is reported through kabi_pr() as one line naming @path and, for
 * JSON syntax errors, the line and column, else the path of the offending
 * value inside the document ("syscalls[3].nr").
 */
struct snapshot *snapshot__load(const char *path);

/*
 * snapshot__write() - write @s as canonical JSON to @f.
 *
 * Sorts @s first (snapshot__sort()).  Returns 0, -EEXIST for duplicate
 * keys, -ENOMEM, or -EIO when writing to @f fails.
 */
int snapshot__write(struct snapshot *s, FILE *f);

/*
 * snapshot__save() - write @s to @path through atomic_write() with its
 * @flags (ATOMIC_OWN_FILE for the cache): either the complete snapshot is
 * at @path afterwards or @path is unchanged.  Returns 0 or -errno,
 * reported through kabi_pr().
 */
int snapshot__save(struct snapshot *s, const char *path, unsigned int flags);

/*
 * doc_entry__to_json() - one doc entry in its snapshot form, for commands
 * that print entries as JSON.  A new reference, or NULL (ENOMEM).
 */
json_t *doc_entry__to_json(const struct doc_entry *d);

#endif /* KABIDIFF_SNAPSHOT_JSON_H */
