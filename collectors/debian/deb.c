// SPDX-License-Identifier: GPL-2.0-only
/*
 * A Debian binary package is an ar archive of three members:
 * "debian-binary", "control.tar.*" and "data.tar.*" (xz, zstd, gzip or
 * none).  libarchive reads the ar archive, and a member as an archive of
 * its own through a read callback that pulls the member's bytes out of the
 * outer one (nested_open()), so nothing is decompressed but the stream
 * being read, and nothing is written but the members asked for.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>

#include "lib/compiler.h"
#include "lib/print.h"
#include "deb.h"

#define CONTROL_MAX	(64 << 10)	/* a control file is a few KB */

struct deb {
	char *path;
	struct archive *ar;		/* the outer ar archive */
	uint64_t size;			/* of the file, for progress */
	struct deb_control control;
};

/* What deb__extract() carries through the archives it reads. */
struct extract {
	struct deb *deb;
	const char *dest;
	struct archive *disk;
	deb_progress_fn progress;
	void *arg;
	size_t whole_left;		/* members named whole not out yet */
	bool dir_rules;			/* a rule takes a directory */
};

static la_ssize_t nested_read(struct archive *a, void *outer,
			      const void **buf)
{
	la_int64_t offset;
	size_t size;
	int r = archive_read_data_block(outer, buf, &size, &offset);

	if (r == ARCHIVE_EOF)
		return 0;
	if (r < ARCHIVE_WARN) {
		archive_set_error(a, archive_errno(outer), "%s",
				  archive_error_string(outer));
		return -1;
	}
	return size;
}

/* The current member of @outer, read as a (compressed) tar archive. */
static struct archive *nested_open(struct archive *outer)
{
	struct archive *a = archive_read_new();

	if (!a)
		return NULL;
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	/* a failure shows at the first archive_read_next_header() */
	archive_read_open(a, outer, NULL, nested_read, NULL);
	return a;
}

/* "./boot/vmlinuz-R" is "boot/vmlinuz-R". */
static const char *member_name(const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return path;
}

static bool takes_dir(const struct deb_take *rule)
{
	size_t len = strlen(rule->path);

	return len && rule->path[len - 1] == '/';
}

static const struct deb_take *match(const struct deb_take *take,
				    const char *name)
{
	for (; take->path; take++) {
		size_t len = strlen(take->path);

		if (!takes_dir(take) ? !strcmp(name, take->path) :
		    !strncmp(name, take->path, len) ||
		    (strlen(name) == len - 1 && !strncmp(name, take->path, len - 1)))
			return take;
	}
	return NULL;
}

static int corrupt(const struct deb *deb, struct archive *a)
{
	const char *why = archive_error_string(a);

	pr_err("%s: corrupt or truncated package: %s", deb->path,
	       why ? why : "unreadable");
	return -EINVAL;
}

#define DIGITS	"0123456789"
#define LOWER	"abcdefghijklmnopqrstuvwxyz"
#define ALNUM	DIGITS LOWER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/* Whether @s is all of the characters @set and begins with one of @first. */
static bool spelled(const char *s, const char *first, const char *set)
{
	return *s && strchr(first, *s) && strspn(s, set) == strlen(s);
}

/* Debian policy 5.6.1: two or more of [a-z0-9+.-], beginning alphanumeric. */
static bool valid_package(const char *s)
{
	return s[0] && s[1] && spelled(s, DIGITS LOWER, DIGITS LOWER "+.-");
}

/*
 * Debian policy 5.6.12: [epoch:]upstream_version[-debian_revision], the
 * epoch a number, the rest of [A-Za-z0-9.+~-] beginning with a digit,
 * the revision not empty: no '/' or '_', and ':' only after the epoch.
 */
static bool valid_version(const char *s)
{
	const char *colon = strchr(s, ':');

	if (colon) {
		if (colon == s || strspn(s, DIGITS) != (size_t)(colon - s))
			return false;
		s = colon + 1;
	}
	return spelled(s, DIGITS, ALNUM ".+~-") && s[strlen(s) - 1] != '-';
}

/* An architecture name: amd64, all, linux-any... */
static bool valid_architecture(const char *s)
{
	return spelled(s, DIGITS LOWER, DIGITS LOWER "-");
}

/*
 * The fields kabidiff reads, each checked against Debian's grammar before
 * it is used: the cache's entries are named after them.
 */
static const struct control_field {
	const char *name;
	size_t offset, size;
	bool (*valid)(const char *value);
	const char *grammar;
} control_fields[] = {
#define SIZE(member)	sizeof(((struct deb_control *)0)->member)
	{ "Package", offsetof(struct deb_control, package), SIZE(package),
	  valid_package,
	  "a package name by Debian policy 5.6.1: [a-z0-9][a-z0-9+.-]+" },
	{ "Version", offsetof(struct deb_control, version), SIZE(version),
	  valid_version,
	  "a version by Debian policy 5.6.12: [epoch:]upstream[-revision] of A-Za-z0-9.+~-" },
	{ "Architecture", offsetof(struct deb_control, architecture),
	  SIZE(architecture), valid_architecture,
	  "an architecture name: [a-z0-9][a-z0-9-]*" },
#undef SIZE
};

/*
 * The fields kabidiff reads, from the text of a control file; a value
 * too long for its place is cut, and its field is *@too_long.
 */
static void parse_control(char *text, struct deb_control *c,
			  const struct control_field **too_long)
{
	const struct control_field *f, *end = control_fields + ARRAY_SIZE(control_fields);
	char *line, *next;

	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (f = control_fields; f < end; f++) {
			size_t len = strlen(f->name);
			char *value = line + len + 1;

			if (strncmp(line, f->name, len) || line[len] != ':')
				continue;
			value += strspn(value, " \t");
			if (strlen(value) >= f->size)
				*too_long = f;
			snprintf((char *)c + f->offset, f->size, "%s", value);
		}
	}
}

/* The fields read, each there and as Debian spells it. */
static int check_control(const struct deb *deb,
			 const struct control_field *too_long)
{
	const struct control_field *f, *end = control_fields + ARRAY_SIZE(control_fields);
	const char *value;

	for (f = control_fields; f < end; f++) {
		value = (const char *)&deb->control + f->offset;
		if (!*value) {
			pr_err("%s: its control file lacks Package, Version or Architecture",
			       deb->path);
			return -EINVAL;
		}
		if (f == too_long) {
			pr_err("%s: its %s field is longer than the %zu bytes kabidiff takes",
			       deb->path, f->name, f->size - 1);
			return -EINVAL;
		}
		if (!f->valid(value)) {
			pr_err("%s: its %s field '%s' is not %s", deb->path,
			       f->name, value, f->grammar);
			return -EINVAL;
		}
	}
	return 0;
}

/* The "control" member of the control archive the outer one is at. */
static int read_control(struct deb *deb)
{
	struct archive *a = nested_open(deb->ar);
	const struct control_field *too_long = NULL;
	struct archive_entry *e;
	char *text = NULL;
	la_ssize_t n = 0;
	int r, err = 0;

	if (!a)
		return -ENOMEM;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK)
		if (!strcmp(member_name(archive_entry_pathname(e)), "control"))
			break;
	if (r == ARCHIVE_OK) {
		text = malloc(CONTROL_MAX + 1);
		n = text ? archive_read_data(a, text, CONTROL_MAX) : 0;
		if (!text)
			err = -ENOMEM;
		else if (n < 0)
			err = corrupt(deb, a);
		else
			text[n] = '\0';
	} else if (r == ARCHIVE_EOF) {
		pr_err("%s: not a Debian package: its control archive has no control file",
		       deb->path);
		err = -EINVAL;
	} else {
		err = corrupt(deb, a);
	}
	if (text && !err)
		parse_control(text, &deb->control, &too_long);
	free(text);
	archive_read_free(a);
	if (!err)
		err = check_control(deb, too_long);
	return err;
}

/* Up to and through the control archive: "debian-binary" comes first. */
static int read_head(struct deb *deb)
{
	struct archive_entry *e;
	const char *name;
	bool first = true;
	int r;

	while ((r = archive_read_next_header(deb->ar, &e)) == ARCHIVE_OK) {
		name = archive_entry_pathname(e);
		if (first && strcmp(name, "debian-binary"))
			break;
		first = false;
		if (!strncmp(name, "control.tar", strlen("control.tar")))
			return read_control(deb);
	}
	if (r == ARCHIVE_OK || r == ARCHIVE_EOF || first) {
		pr_err("%s: not a Debian package (%s)", deb->path,
		       r == ARCHIVE_OK ? "no debian-binary first" :
		       r == ARCHIVE_EOF ? "no control archive" :
		       archive_error_string(deb->ar));
		return -EINVAL;
	}
	return corrupt(deb, deb->ar);
}

int deb__open(const char *path, struct deb **debp)
{
	struct deb *deb = calloc(1, sizeof(*deb));
	struct stat st;
	int err;

	*debp = NULL;
	if (!deb)
		return -ENOMEM;
	if (stat(path, &st)) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		free(deb);
		return err;
	}
	deb->size = st.st_size;
	deb->path = strdup(path);
	deb->ar = archive_read_new();
	if (!deb->path || !deb->ar) {
		deb__close(deb);
		return -ENOMEM;
	}
	archive_read_support_format_ar(deb->ar);
	if (archive_read_open_filename(deb->ar, path, 1 << 16) != ARCHIVE_OK) {
		/* libarchive's ARCHIVE_ERRNO_FILE_FORMAT is EILSEQ on Linux */
		err = archive_errno(deb->ar) > 0 ? -archive_errno(deb->ar) : -EINVAL;
		if (err == -EILSEQ) {
			pr_err("%s: not a Debian package (not an ar archive)", path);
			err = -EINVAL;
		} else {
			pr_err("%s: %s", path, err == -EINVAL ?
			       archive_error_string(deb->ar) : strerror(-err));
		}
	} else {
		err = read_head(deb);
	}
	if (err)
		deb__close(deb);
	else
		*debp = deb;
	return err;
}

const struct deb_control *deb__control(const struct deb *deb)
{
	return &deb->control;
}

static void progress(struct extract *x)
{
	if (x->progress)
		x->progress(x->arg, x->deb->control.package,
			    archive_filter_bytes(x->deb->ar, -1), x->deb->size);
}

/*
 * The member @name could not be written.  @name must outlive the entry:
 * archive_entry_set_pathname() frees the name the entry was read with.
 */
static int write_failed(const struct extract *x, const char *name)
{
	const char *why = archive_error_string(x->disk);

	pr_err("%s: unpacking %s into %s: %s", x->deb->path, name, x->dest,
	       why ? why : "cannot write");
	return archive_errno(x->disk) > 0 ? -archive_errno(x->disk) : -EIO;
}

/* "DEST/NAME", malloc()ed; NULL (ENOMEM). */
static char *dest_path(const struct extract *x, const char *name)
{
	size_t len = strlen(x->dest) + strlen(name) + 2;
	char *path = malloc(len);

	if (path)
		snprintf(path, len, "%s/%s", x->dest, name);
	return path;
}

/* The member @e of @a, named @name, written under x->dest. */
static int write_member(struct extract *x, struct archive *a,
			struct archive_entry *e, const char *name)
{
	const char *link = archive_entry_hardlink(e);
	char *path = dest_path(x, name), *target = NULL;
	/* our copy: the entry's own goes when its path is set */
	const char *own = path ? path + strlen(x->dest) + 1 : NULL;
	la_int64_t offset;
	const void *buf;
	size_t size;
	int r, err = 0;

	if (link)
		target = dest_path(x, member_name(link));
	if (!path || (link && !target)) {
		err = -ENOMEM;
		goto out;
	}
	archive_entry_set_pathname(e, path);
	if (link)
		archive_entry_set_hardlink(e, target);
	/* ARCHIVE_WARN from a write is a short write, a full disk: a failure */
	if (archive_write_header(x->disk, e) != ARCHIVE_OK) {
		err = write_failed(x, own);
		goto out;
	}
	while (!err && (r = archive_read_data_block(a, &buf, &size,
						     &offset)) != ARCHIVE_EOF) {
		if (r < ARCHIVE_WARN)
			err = corrupt(x->deb, a);
		else if (archive_write_data_block(x->disk, buf, size, offset) != ARCHIVE_OK)
			err = write_failed(x, own);
		else
			progress(x);
	}
	if (!err && archive_write_finish_entry(x->disk) != ARCHIVE_OK)
		err = write_failed(x, own);
out:
	free(path);
	free(target);
	return err;
}

static int extract_archive(struct extract *x, struct archive *a,
			   const struct deb_take *take, bool top);

/* The current member of @outer is a tarball: take @take out of it. */
static int extract_nested(struct extract *x, struct archive *outer,
			  const struct deb_take *take)
{
	struct archive *a = nested_open(outer);
	int err;

	if (!a)
		return -ENOMEM;
	err = extract_archive(x, a, take, false);
	archive_read_free(a);
	return err;
}

static int extract_archive(struct extract *x, struct archive *a,
			   const struct deb_take *take, bool top)
{
	const struct deb_take *rule;
	struct archive_entry *e;
	const char *name;
	int r, err;

	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		name = member_name(archive_entry_pathname(e));
		rule = match(take, name);
		progress(x);
		if (!rule)
			continue;
		err = rule->inner ? extract_nested(x, a, rule->inner) :
		      write_member(x, a, e, name);
		if (err)
			return err;
		if (top && !takes_dir(rule) && !--x->whole_left && !x->dir_rules)
			return 0;
	}
	return r == ARCHIVE_EOF ? 0 : corrupt(x->deb, a);
}

int deb__extract(struct deb *deb, const struct deb_take *take,
		 const char *dest, deb_progress_fn progress_fn, void *arg)
{
	struct extract x = {
		.deb = deb, .dest = dest, .progress = progress_fn, .arg = arg,
	};
	const struct deb_take *rule;
	struct archive_entry *e;
	struct archive *data;
	int r, err;

	for (rule = take; rule->path; rule++) {
		x.dir_rules |= takes_dir(rule);
		x.whole_left += !takes_dir(rule);
	}
	while ((r = archive_read_next_header(deb->ar, &e)) == ARCHIVE_OK)
		if (!strncmp(archive_entry_pathname(e), "data.tar", strlen("data.tar")))
			break;
	if (r == ARCHIVE_EOF) {
		pr_err("%s: not a Debian package (no data archive)", deb->path);
		return -EINVAL;
	}
	if (r != ARCHIVE_OK)
		return corrupt(deb, deb->ar);

	x.disk = archive_write_disk_new();
	data = nested_open(deb->ar);
	if (!x.disk || !data) {
		err = -ENOMEM;
	} else {
		archive_write_disk_set_options(x.disk, ARCHIVE_EXTRACT_TIME |
					       ARCHIVE_EXTRACT_PERM |
					       ARCHIVE_EXTRACT_SECURE_NODOTDOT |
					       ARCHIVE_EXTRACT_SECURE_SYMLINKS);
		err = extract_archive(&x, data, take, true);
	}
	if (data)
		archive_read_free(data);
	if (x.disk && archive_write_free(x.disk) != ARCHIVE_OK && !err)
		err = write_failed(&x, "the directories' modes and times");
	if (!err && x.progress)
		x.progress(x.arg, deb->control.package, deb->size, deb->size);
	return err;
}

void deb__close(struct deb *deb)
{
	if (!deb)
		return;
	if (deb->ar)
		archive_read_free(deb->ar);
	free(deb->path);
	free(deb);
}
