// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a Documentation/ABI directory: find it, walk its level
 * directories in name order, parse each file, then look for What: patterns
 * that two files both claim.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "abidocs.h"
#include "bytes.h"
#include "fileio.h"
#include "print.h"
#include "banned.h"

/* Subdirectories of a level deeper than this are not read. */
#define MAX_DEPTH	8

static const enum abi_level levels[] = {
	LEVEL_STABLE, LEVEL_TESTING, LEVEL_UNSTABLE, LEVEL_OBSOLETE,
	LEVEL_PRIVATE, LEVEL_REMOVED,
};

struct walk {
	char abi_dir[4096];	/* .../Documentation/ABI */
	enum abi_level level;
	struct snapshot *s;
	struct abidocs_stats *st;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int parse_file(struct walk *w, const char *rel)
{
	char path[8192];
	char *buf;
	size_t len;
	int err;

	snprintf(path, sizeof(path), "%s/%s", w->abi_dir, rel);
	err = read_file(path, &buf, &len);
	if (err)
		return err;
	w->st->files++;
	err = abidocs__parse(rel, w->level, buf, len, w->s, w->st);
	free(buf);
	return err;
}

static int skip_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Parse every file below @rel (relative to the ABI directory). */
static int walk_dir(struct walk *w, const char *rel, int depth)
{
	struct dirent **names;
	char path[8192], sub[4096];
	int n, i, err = 0;

	snprintf(path, sizeof(path), "%s/%s", w->abi_dir, rel);
	n = scandir(path, &names, skip_hidden, alphasort);
	if (n < 0) {
		err = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return err;
	}
	for (i = 0; !err && i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", rel, names[i]->d_name);
		snprintf(path, sizeof(path), "%s/%s", w->abi_dir, sub);
		if (!is_dir(path))
			err = parse_file(w, sub);
		else if (depth < MAX_DEPTH)
			err = walk_dir(w, sub, depth + 1);
		else
			pr_warn("%s: deeper than %d levels, skipped", path,
				MAX_DEPTH);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

/* @dir is a kernel tree or Documentation/ABI itself. */
static int find_abi_dir(const char *dir, struct walk *w)
{
	char path[8192];
	size_t i;

	snprintf(w->abi_dir, sizeof(w->abi_dir), "%s/Documentation/ABI", dir);
	if (is_dir(w->abi_dir))
		return 0;
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 abi_level__name(levels[i]));
		if (is_dir(path)) {
			snprintf(w->abi_dir, sizeof(w->abi_dir), "%s", dir);
			return 0;
		}
	}
	pr_err("%s: neither a kernel tree nor its Documentation/ABI directory",
	       dir);
	return is_dir(dir) ? -ENOENT : -ENOTDIR;
}

int abidocs__collect(const char *dir, struct snapshot *s,
		     struct abidocs_stats *st)
{
	struct walk w = { .s = s, .st = st };
	char path[8192];
	size_t i;
	int err;

	err = find_abi_dir(dir, &w);
	s->docs.collected = true;
	for (i = 0; !err && i < ARRAY_SIZE(levels); i++) {
		const char *name = abi_level__name(levels[i]);

		snprintf(path, sizeof(path), "%s/%s", w.abi_dir, name);
		if (!is_dir(path))
			continue;
		w.level = levels[i];
		err = walk_dir(&w, name, 1);
	}
	if (!err)
		err = abidocs__check_duplicates(s, st);
	return err;
}

struct what_ref {
	const char *what;
	const struct doc_entry *entry;
};

static int what_ref_cmp(const void *pa, const void *pb)
{
	const struct what_ref *a = pa, *b = pb;
	int c = strcmp(a->what, b->what);

	if (c)
		return c;
	c = strcmp(a->entry->file, b->entry->file);
	if (c)
		return c;
	return (a->entry->line > b->entry->line) -
	       (a->entry->line < b->entry->line);
}

int abidocs__check_duplicates(const struct snapshot *s,
			      struct abidocs_stats *st)
{
	struct what_ref *refs;
	size_t i, j, n = 0;
	char q[256];

	for (i = 0; i < s->docs.nr; i++)
		n += s->docs.v[i].nr_what;
	refs = calloc(n ? n : 1, sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	for (i = n = 0; i < s->docs.nr; i++) {
		for (j = 0; j < s->docs.v[i].nr_what; j++) {
			refs[n].what = s->docs.v[i].what[j];
			refs[n++].entry = &s->docs.v[i];
		}
	}
	qsort(refs, n, sizeof(*refs), what_ref_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(refs[i].what, refs[j].what); j++) {
			if (!strcmp(refs[i].entry->file, refs[j].entry->file))
				continue;
			pr_warn("Documentation/ABI/%s#%u: What: %s is also documented at Documentation/ABI/%s#%u",
				refs[j].entry->file, refs[j].entry->line,
				quote_buf(q, sizeof(q), refs[i].what),
				refs[i].entry->file, refs[i].entry->line);
			st->warnings++;
		}
	}
	free(refs);
	return 0;
}
