// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a Documentation/ABI tree: walk its level directories in name
 * order, parse each file, then look for What: patterns that two files both
 * claim.  The tree is a directory on disk (here) or a git tree (git.c).
 *
 * The tree is input, not trusted.  Below Documentation/ABI (the directory
 * named, or found under the kernel tree named, which may be reached through
 * a symbolic link) nothing is followed: a symbolic link, a level directory
 * included, is skipped with a warning naming it, so a link to "." cannot
 * make the walk exponential nor a link to ".." read testing/ again as
 * stable/.  Only regular files are opened, with O_NOFOLLOW | O_NONBLOCK and
 * checked with fstat() before a byte is read, so a FIFO or a device found
 * there (or put there after the listing) never blocks the walk: it is
 * skipped with a warning.  Directories deeper than MAX_DEPTH levels are
 * skipped with a warning, and a file larger than ABIDOCS_MAX_FILE (16 MiB;
 * the largest in 6.12 is under 1 MB) is an error naming it.  Each skip is
 * counted in abidocs_stats.warnings.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/bytes.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "abidocs.h"
#include "tree.h"

/* Subdirectories deeper than this (a level is 1) are skipped, with a warning. */
#define MAX_DEPTH	32

static const enum abi_level levels[] = {
	LEVEL_STABLE, LEVEL_TESTING, LEVEL_UNSTABLE, LEVEL_OBSOLETE,
	LEVEL_PRIVATE, LEVEL_REMOVED,
};

struct walk {
	const struct abidocs_tree *t;
	enum abi_level level;
	struct snapshot *s;
	struct abidocs_stats *st;
};

static int dirent_cmp(const void *pa, const void *pb)
{
	const struct abidocs_dirent *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

void abidocs__dirents_sort(struct abidocs_dirent *v, size_t nr)
{
	qsort(v, nr, sizeof(*v), dirent_cmp);
}

void abidocs__dirents_free(struct abidocs_dirent *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

/* Warn that @rel, of @type, is not read, and count the warning. */
static void skip(struct walk *w, const char *rel, enum abidocs_type type)
{
	pr_warn("%s/%s: %s, skipped", w->t->where, rel,
		type == ABIDOCS_LINK ? "a symbolic link" :
		"not a regular file or a directory");
	w->st->warnings++;
}

/* Read @rel into @buf; 1 when it is skipped, not being a regular file. */
static int read_doc(struct walk *w, const char *rel, char **buf, size_t *len)
{
	int err = w->t->read(w->t->ctx, rel, buf, len);

	if (err > 0) {
		skip(w, rel, err);
		return 1;
	}
	if (!err)
		w->st->files++;
	return err;
}

/*
 * Parse @rel: a sysctl document, or a file below a level directory, which
 * is named from Documentation/ABI on.
 */
static int parse_file(struct walk *w, const char *rel, bool sysctl)
{
	const char *abi_rel = w->t->abi ? rel + strlen(w->t->abi) + 1 : rel;
	char *buf;
	size_t len;
	int err;

	err = read_doc(w, rel, &buf, &len);
	if (err)
		return err > 0 ? 0 : err;
	if (sysctl)
		err = abidocs__parse_sysctl(rel, buf, len, w->s, w->st);
	else
		err = abidocs__parse(abi_rel, w->level, buf, len, w->s, w->st);
	free(buf);
	return err;
}

/* Parse every file below @rel (relative to the ABI directory). */
static int walk_dir(struct walk *w, const char *rel, int depth)
{
	struct abidocs_dirent *v;
	char sub[4096];
	size_t n, i;
	int err;

	err = w->t->list(w->t->ctx, rel, &v, &n);
	if (err)
		return err;
	for (i = 0; !err && i < n; i++) {
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", rel,
				     v[i].name) >= sizeof(sub)) {
			pr_warn("%s/%s/%s: a path longer than %zu bytes, skipped",
				w->t->where, rel, v[i].name, sizeof(sub) - 1);
			w->st->warnings++;
			continue;
		}
		switch (v[i].type) {
		case ABIDOCS_FILE:
			err = parse_file(w, sub, false);
			break;
		case ABIDOCS_DIR:
			if (depth < MAX_DEPTH) {
				err = walk_dir(w, sub, depth + 1);
				break;
			}
			pr_warn("%s/%s: deeper than %d levels, skipped",
				w->t->where, sub, MAX_DEPTH);
			w->st->warnings++;
			break;
		default:
			skip(w, sub, v[i].type);
			break;
		}
	}
	abidocs__dirents_free(v, n);
	return err;
}

/*
 * The documents of /proc/sys: Documentation/admin-guide/sysctl/\*.rst but
 * its index, and Documentation/networking/\*sysctl*.rst.
 */
static bool is_sysctl_guide(const char *name)
{
	size_t len = strlen(name);

	return len > 4 && !strcmp(name + len - 4, ".rst") &&
	       strcmp(name, "index.rst");
}

static bool is_net_sysctl_doc(const char *name)
{
	size_t len = strlen(name);

	return len > 4 && !strcmp(name + len - 4, ".rst") &&
	       strstr(name, "sysctl");
}

static const struct {
	const char *dir;
	bool (*wanted)(const char *name);
} sysctl_docs[] = {
	{ "admin-guide/sysctl", is_sysctl_guide },
	{ "networking", is_net_sysctl_doc },
};


/*
 * What @dir is, each directory on the way to it looked at first, so that
 * no symbolic link is followed; a link or a special file is skipped with
 * a warning.
 */
static int dir_kind(struct walk *w, const char *dir)
{
	char rel[4096];
	const char *slash = dir;
	int kind;

	do {
		slash = strchrnul(slash + 1, '/');
		snprintf(rel, sizeof(rel), "%.*s", (int)(slash - dir), dir);
		kind = w->t->kind(w->t->ctx, rel);
		if (kind == ABIDOCS_LINK || kind == ABIDOCS_OTHER)
			skip(w, rel, kind);
	} while (*slash && kind == ABIDOCS_DIR);
	return kind;
}

/* The sysctl documents of directory @dir that @wanted takes, in name order. */
static int walk_sysctl_dir(struct walk *w, const char *dir,
			   bool (*wanted)(const char *name))
{
	int kind = dir_kind(w, dir);
	struct abidocs_dirent *v;
	char rel[4096];
	size_t n, i;
	int err;

	if (kind != ABIDOCS_DIR)
		return kind < 0 ? kind : 0;
	err = w->t->list(w->t->ctx, dir, &v, &n);
	if (err)
		return err;
	for (i = 0; !err && i < n; i++) {
		if (!wanted(v[i].name))
			continue;
		snprintf(rel, sizeof(rel), "%s/%s", dir, v[i].name);
		if (v[i].type == ABIDOCS_FILE)
			err = parse_file(w, rel, true);
		else
			skip(w, rel, v[i].type);
	}
	abidocs__dirents_free(v, n);
	return err;
}

int abidocs__walk(const struct abidocs_tree *t, struct snapshot *s,
		  struct abidocs_stats *st)
{
	struct walk w = { .t = t, .s = s, .st = st };
	char rel[64];
	size_t i;
	int err = 0;

	s->docs.collected = true;
	for (i = 0; !err && i < ARRAY_SIZE(levels); i++) {
		int kind;

		snprintf(rel, sizeof(rel), "%s%s%s", t->abi ?: "",
			 t->abi ? "/" : "", abi_level__name(levels[i]));
		kind = t->kind(t->ctx, rel);
		if (kind < 0)
			err = kind;
		if (kind == ABIDOCS_LINK || kind == ABIDOCS_OTHER)
			skip(&w, rel, kind);
		if (kind != ABIDOCS_DIR)
			continue;
		w.level = levels[i];
		err = walk_dir(&w, rel, 1);
	}
	for (i = 0; !err && t->abi && i < ARRAY_SIZE(sysctl_docs); i++)
		err = walk_sysctl_dir(&w, sysctl_docs[i].dir,
				      sysctl_docs[i].wanted);
	if (!err)
		err = abidocs__check_duplicates(s, st);
	return err;
}

/* A Documentation (or Documentation/ABI) directory on disk. */
struct disk {
	char root[4096];
};

static enum abidocs_type mode_type(mode_t mode)
{
	if (S_ISREG(mode))
		return ABIDOCS_FILE;
	if (S_ISDIR(mode))
		return ABIDOCS_DIR;
	if (S_ISLNK(mode))
		return ABIDOCS_LINK;
	return ABIDOCS_OTHER;
}

static int disk_kind(void *ctx, const char *rel)
{
	struct disk *d = ctx;
	char path[8192];
	struct stat st;

	int err;

	snprintf(path, sizeof(path), "%s/%s", d->root, rel);
	if (!lstat(path, &st))
		return mode_type(st.st_mode);
	if (errno == ENOENT || errno == ENOTDIR)
		return ABIDOCS_ABSENT;
	/* a level that cannot be looked at is not one that is not there */
	err = -errno;
	if (err != -ENOMEM)
		pr_err("%s: %s", path, strerror(-err));
	return err;
}

static int skip_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* What @path is, without following it; -errno, reported. */
static int lstat_type(const char *path)
{
	struct stat st;
	int err;

	if (!lstat(path, &st))
		return mode_type(st.st_mode);
	err = -errno;
	pr_err("%s: %s", path, strerror(-err));
	return err;
}

static int disk_list(void *ctx, const char *rel, struct abidocs_dirent **out,
		     size_t *nr)
{
	struct disk *d = ctx;
	struct abidocs_dirent *v = NULL;
	struct dirent **names;
	char path[8192], sub[sizeof(path) + 256];
	int n, i, type, err = 0;

	snprintf(path, sizeof(path), "%s/%s", d->root, rel);
	n = scandir(path, &names, skip_hidden, NULL);
	if (n < 0) {
		err = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return err;
	}
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
		type = lstat_type(sub);
		if (type < 0) {
			err = type;
			break;
		}
		v[i].type = type;
		v[i].name = strdup(names[i]->d_name);
		if (!v[i].name)
			err = -ENOMEM;
	}
	if (err) {
		abidocs__dirents_free(v, v ? i : 0);
	} else {
		abidocs__dirents_sort(v, n);
		*out = v;
		*nr = n;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

static int too_big(const char *path)
{
	pr_err("%s: larger than %s, the most a documentation file may hold",
	       path, ABIDOCS_MAX_FILE_TEXT);
	return -EFBIG;
}

static int disk_read(void *ctx, const char *rel, char **buf, size_t *len)
{
	struct disk *d = ctx;
	char path[8192];
	struct stat st;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", d->root, rel);
	/* a FIFO opens at once with O_NONBLOCK, and is then not read */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			return ABIDOCS_LINK;
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
	} else if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? ABIDOCS_OTHER : mode_type(st.st_mode);
	} else if ((unsigned long long)st.st_size > ABIDOCS_MAX_FILE) {
		err = too_big(path);
	} else {
		err = read_fd(fd, ABIDOCS_MAX_FILE, st.st_size, buf, len);
		if (err == -EFBIG)
			err = too_big(path);	/* it grew since fstat() */
		else if (err && err != -ENOMEM)
			pr_err("%s: %s", path, strerror(-err));
	}
	close(fd);
	return err;
}

/*
 * @dir is a kernel tree, whose Documentation directory is the root (with
 * ABI/ and the sysctl documents in it), or Documentation/ABI itself, the
 * root then (*@abi NULL).
 */
static int find_docs_dir(const char *dir, struct disk *d, const char **abi)
{
	char path[8192];
	struct stat st;
	size_t i;

	/* a path that is not there is no more than that */
	if (stat(dir, &st)) {
		pr_err("%s: %s", dir, strerror(errno));
		return -errno;
	}
	snprintf(d->root, sizeof(d->root), "%s/Documentation", dir);
	snprintf(path, sizeof(path), "%s/ABI", d->root);
	*abi = "ABI";
	if (is_dir(path))
		return 0;
	*abi = NULL;
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 abi_level__name(levels[i]));
		if (is_dir(path)) {
			snprintf(d->root, sizeof(d->root), "%s", dir);
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
	struct disk d;
	struct abidocs_tree t = {
		.where = d.root, .ctx = &d,
		.kind = disk_kind, .list = disk_list, .read = disk_read,
	};
	int err = find_docs_dir(dir, &d, &t.abi);

	if (err) {
		s->docs.collected = true;
		return err;
	}
	return abidocs__walk(&t, s, st);
}

/*
 * The name of the documentation file @path from its level directory on
 * ("testing/sysfs-foo"): what follows Documentation/ABI/ in it, else its
 * parent directory and its own name.
 */
static const char *level_relative(const char *path)
{
	static const char abi[] = "Documentation/ABI/";
	const char *p = strstr(path, abi), *slash;

	if (p)
		return p + strlen(abi);
	slash = strrchr(path, '/');
	if (!slash)
		return path;
	for (p = slash; p > path && p[-1] != '/'; p--)
		;
	return p;
}

/*
 * What follows "Documentation/" in @path when it names a sysctl document
 * ("admin-guide/sysctl/kernel.rst"), else NULL.
 */
static const char *sysctl_relative(const char *path)
{
	const char *base = strrchr(path, '/'), *p;
	char dir[64];
	size_t i;

	for (i = 0; base && i < ARRAY_SIZE(sysctl_docs); i++) {
		snprintf(dir, sizeof(dir), "Documentation/%s/", sysctl_docs[i].dir);
		p = strstr(path, dir);
		if (p && p + strlen(dir) == base + 1 &&
		    sysctl_docs[i].wanted(base + 1))
			return p + strlen("Documentation/");
	}
	return NULL;
}

int abidocs__collect_file(const char *path, struct snapshot *s,
			  struct abidocs_stats *st)
{
	const char *rel = level_relative(path);
	const char *sysctl = sysctl_relative(path);
	size_t len = strcspn(rel, "/");
	enum abi_level level;
	char name[64], *buf;
	int err;

	s->docs.collected = true;
	snprintf(name, sizeof(name), "%.*s", (int)len, rel);
	err = read_file_or_report(path, ABIDOCS_MAX_FILE, &buf, &len);
	if (err)
		return err;
	if (sysctl) {
		st->files++;
		err = abidocs__parse_sysctl(sysctl, buf, len, s, st);
		free(buf);
		return err;
	}
	if (!rel[strlen(name)] || abi_level__parse(name, &level)) {
		pr_err("%s: neither in a level directory (stable/, testing/, ...) of Documentation/ABI nor a sysctl document (Documentation/admin-guide/sysctl/*.rst, Documentation/networking/*sysctl*.rst): its level is unknown",
		       path);
		free(buf);
		return -EINVAL;
	}
	st->files++;
	err = abidocs__parse(rel, level, buf, len, s, st);
	free(buf);
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
			pr_warn("%s%s:%u: warning: What: %s is also documented at %s%s:%u",
				doc_entry__dir(refs[j].entry),
				refs[j].entry->file, refs[j].entry->line,
				quote_buf(q, sizeof(q), refs[i].what),
				doc_entry__dir(refs[i].entry),
				refs[i].entry->file, refs[i].entry->line);
			st->warnings++;
		}
	}
	free(refs);
	return 0;
}
