// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census-join.h"
#include "what-index.h"
#include "what-normal.h"

/* Words of every path, which name no subsystem. */
static const char *const common_words[] = {
	"sys", "devices", "device", "class", "bus", "drivers", "driver",
	"sysfs", "testing", "stable", "obsolete", "removed", "c", "h",
	"fs", "kernel", "core",
};

/* A last component with fewer letters and digits than this names nothing. */
#define NAME_LITERALS_MIN	2

#define WORD_MAX	64

struct joiner {
	const struct doc_entry *docs;
	struct what_index *paths;	/* the What: patterns */
	struct what_index *names;	/* "/" and their last components */
	int32_t best;
	const char *const *words;	/* the attribute's, NULL-terminated */
	bool by_name;
};

static bool common(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(common_words) / sizeof(*common_words); i++)
		if (strlen(common_words[i]) == len && !strncmp(w, common_words[i], len))
			return true;
	return !len || memchr(w, '<', len) || memchr(w, '*', len);
}

/* Whether the @n bytes at @text, split at '/', '-', '_', '.' and ':', have the word @w. */
static bool has_word(const char *text, size_t n, const char *w)
{
	const char *end = text + n;
	size_t wlen = strlen(w);

	while (text < end) {
		size_t len = strcspn(text, "/-_.:");

		if (len > (size_t)(end - text))
			len = end - text;
		if (len == wlen && !strncmp(text, w, wlen))
			return true;
		text += len + 1;
	}
	return false;
}

/* The length of @what without its last component, which names the attribute. */
static size_t dirs_of(const char *what)
{
	size_t n = strlen(what);

	while (n && what[n - 1] == '/')
		n--;
	while (n && what[n - 1] != '/')
		n--;
	return n;
}

/*
 * The entry shares a subsystem word with the attribute: in its file's
 * name or in the directories of its What: patterns, not in the name the
 * attribute and the entry already share ("eeprom" of w1 and of ee1004).
 */
static bool shares_word(const struct doc_entry *d, const char *const *words)
{
	size_t i;

	for (; *words; words++) {
		if (has_word(d->file, strlen(d->file), *words))
			return true;
		for (i = 0; i < d->nr_what; i++)
			if (has_word(d->what[i], dirs_of(d->what[i]), *words))
				return true;
	}
	return false;
}

static void join(uint32_t id, bool dir_only, void *ctx)
{
	struct joiner *j = ctx;

	if (dir_only || (j->by_name && !shares_word(&j->docs[id], j->words)))
		return;
	if (j->best < 0 || j->docs[id].level < j->docs[j->best].level ||
	    (j->docs[id].level == j->docs[j->best].level && (int32_t)id < j->best))
		j->best = id;
}

/*
 * Whether the last component @name (@len bytes, a normal form) names
 * attributes: not when it is all wildcards ("<mode>", "..."), or nearly
 * ("[error|warn]_[smpro|pmpro]" is "<*>_<*>").
 */
static bool names_attribute(const char *name, size_t len)
{
	size_t i, wild = strlen(WHAT_NORMAL_WILDCARD), literals = 0;

	if (len == 3 && !strncmp(name, "...", 3))
		return false;
	for (i = 0; i < len; i++) {
		if (len - i >= wild && !strncmp(name + i, WHAT_NORMAL_WILDCARD, wild))
			i += wild - 1;
		else if (isalnum((unsigned char)name[i]))
			literals++;
	}
	return literals >= NAME_LITERALS_MIN;
}

static int index_docs(struct joiner *j, const struct snapshot *docs)
{
	size_t i, k;
	int err = 0;

	j->paths = what_index__new();
	j->names = what_index__new();
	if (!j->paths || !j->names)
		return -ENOMEM;
	for (i = 0; !err && i < docs->docs.nr; i++) {
		const struct doc_entry *d = &docs->docs.v[i];

		/* a sysctl is no sysfs attribute, whatever its name */
		if (d->source == DOC_SOURCE_SYSCTL)
			continue;
		for (k = 0; !err && k < d->nr_what; k++) {
			char *normal = what_pattern__normalize(d->what[k]), *last;
			const char *name;
			size_t len;

			if (!normal)
				return -ENOMEM;
			name = what_pattern__attribute(normal, &len);
			if (!names_attribute(name, len)) {
				free(normal);
				if (what_index__add(j->paths, d->what[k], i, NULL) == -ENOMEM)
					err = -ENOMEM;
				continue;
			}
			if (asprintf(&last, "/%.*s", (int)len, name) < 0) {
				free(normal);
				return -ENOMEM;
			}
			/* the parser has warned about bad patterns already */
			if (what_index__add(j->paths, d->what[k], i, NULL) == -ENOMEM ||
			    what_index__add(j->names, last, i, NULL) == -ENOMEM)
				err = -ENOMEM;
			free(last);
			free(normal);
		}
	}
	return err;
}

/* Split @text at '/', '-', '_' and '.' into @words (of @buf), the common ones left out. */
static size_t split_words(const char *text, char *buf, size_t size,
			  const char **words, size_t n, size_t max)
{
	size_t used = 0;

	while (text && *text && n < max) {
		size_t len = strcspn(text, "/-_.");

		if (!common(text, len) && used + len + 1 <= size) {
			memcpy(buf + used, text, len);
			buf[used + len] = '\0';
			words[n++] = buf + used;
			used += len + 1;
		}
		text += len;
		text += !!*text;
	}
	return n;
}

/* "temp%d_offset", a template of the code, as a name: "temp1_offset". */
static void name_of(const char *name, char *buf, size_t size)
{
	const char *d = strstr(name, "%d");

	if (d)
		snprintf(buf, size, "/%.*s1%s", (int)(d - name), name, d + 2);
	else
		snprintf(buf, size, "/%s", name);
}

static int join_one(struct joiner *j, const struct census_attr *a, int32_t *entry)
{
	char buf[512], name[256];
	const char *words[WORD_MAX + 1];
	size_t n;
	int err;

	j->best = -1;
	j->by_name = false;
	if (a->path) {
		err = what_index__match(j->paths, a->path, join, j);
		if (err || j->best >= 0 || a->kind == CENSUS_PARAM)
			goto out;
	}
	n = split_words(a->file, buf, sizeof(buf) / 2, words, 0, WORD_MAX);
	n = split_words(a->module, buf + sizeof(buf) / 2, sizeof(buf) / 2, words,
			n, WORD_MAX);
	words[n] = NULL;
	j->words = words;
	j->by_name = true;
	name_of(a->name, name, sizeof(name));
	err = what_index__match(j->names, name, join, j);
out:
	*entry = j->best;
	return err;
}

int census_join__run(const struct snapshot *census, const struct snapshot *docs,
		     int32_t *entry)
{
	struct joiner j = { .docs = docs->docs.v };
	size_t i;
	int err = index_docs(&j, docs);

	for (i = 0; i < census->census.nr; i++)
		entry[i] = -1;
	for (i = 0; !err && i < census->census.nr; i++)
		err = join_one(&j, &census->census.v[i], &entry[i]);
	what_index__free(j.paths);
	what_index__free(j.names);
	return err;
}
