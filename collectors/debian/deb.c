// SPDX-License-Identifier: GPL-2.0-only
/*
 * A Debian binary package is an ar archive of three members:
 * "debian-binary", "control.tar.*" and "data.tar.*" (xz, zstd, gzip or
 * none).  libarchive reads the ar archive, and a member as an archive of
 * its own through a read callback that pulls the member's bytes out of the
 * outer one (nested_open()), so nothing is decompressed but the stream
 * being read, and nothing is written but the members asked for.  A
 * data.tar.xz is decompressed by liblzma on every CPU, not by libarchive
 * (open_data()).
 *
 * The members are written by our own few lines, not libarchive's
 * archive_write_disk, which makes whatever the archive holds: devices,
 * FIFOs, setuid files.  A package is untrusted and its entry in the cache
 * is trusted, so a member is made only if it is a file or a directory
 * with a name that stays inside the entry, each directory on its way
 * opened relative to the one before it, never through a link.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <lzma.h>

#include "lib/compiler.h"
#include "lib/print.h"
#include "deb.h"

#define CONTROL_MAX	(64 << 10)	/* a control file is a few KB */
#define XZ_OUT		(1 << 20)	/* what one read of a data.tar.xz gives */

struct deb {
	char *path;
	int fd;				/* @path, open */
	struct archive *ar;		/* the outer ar archive */
	uint64_t size;			/* of the file, for progress */
	struct deb_control control;
};

/*
 * A data.tar.xz decompressed here, for libarchive to read as a plain tar
 * (open_data()): the outer archive it is a member of, liblzma's decoder,
 * and the decoded bytes handed on.
 */
struct xz {
	struct archive *outer;
	lzma_stream strm;
	bool in_end;			/* all of the member given to liblzma */
	bool end;			/* the stream's end, every check passed */
	unsigned char out[XZ_OUT];
};

/* The data archive being read, and our xz decoder under it, if any. */
struct data {
	struct archive *a;
	struct xz *xz;			/* NULL: libarchive's filters decode */
};

/* What deb__extract() carries through the archives it reads. */
struct extract {
	struct deb *deb;
	const char *dest;
	int dirfd;			/* @dest, which members go under */
	uint64_t written, max;		/* bytes unpacked, and the cap */
	deb_progress_fn progress;
	void *arg;
	size_t whole_left;		/* members named whole not out yet */
	bool dir_rules;			/* a rule takes a directory */
	bool at_end;			/* the data archive read to its end */
};

/*
 * The next block of the current member of @outer, for @a to read:
 * 0 and *@buf, *@size; 1 at the member's end; -1 with @outer's error
 * set on @a.
 */
static int member_block(struct archive *a, struct archive *outer,
			const void **buf, size_t *size)
{
	la_int64_t offset;
	int r = archive_read_data_block(outer, buf, size, &offset);

	if (r == ARCHIVE_EOF) {
		*size = 0;
		return 1;
	}
	if (r < ARCHIVE_WARN) {
		archive_set_error(a, archive_errno(outer), "%s",
				  archive_error_string(outer));
		return -1;
	}
	return 0;
}

static la_ssize_t nested_read(struct archive *a, void *outer,
			      const void **buf)
{
	size_t size;

	return member_block(a, outer, buf, &size) < 0 ? -1 : (la_ssize_t)size;
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

/*
 * liblzma's decoder, as libarchive's xz filter sets it up (no memory
 * limit, concatenated streams), but on as many threads as CPUs online:
 * it decodes the blocks of a stream in parallel when their headers give
 * their sizes, as those of dpkg-deb's multi-threaded xz do.  It uses
 * threads only while they fit in a quarter of the memory (xz's own
 * default), and the plain decoder is what a liblzma before 5.4, or one
 * that cannot start threads, gives.
 */
static lzma_ret xz_decoder(lzma_stream *strm)
{
#if LZMA_VERSION_MAJOR > 5 || (LZMA_VERSION_MAJOR == 5 && LZMA_VERSION_MINOR >= 4)
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	lzma_mt mt = {
		.flags = LZMA_CONCATENATED,
		.threads = cpus > 1 ? cpus : 1,
		.memlimit_threading = lzma_physmem() / 4,
		.memlimit_stop = UINT64_MAX,
	};

	if (lzma_stream_decoder_mt(strm, &mt) == LZMA_OK)
		return LZMA_OK;
#endif
	return lzma_stream_decoder(strm, UINT64_MAX, LZMA_CONCATENATED);
}

/* liblzma's error @ret, set on @a: -1. */
static int xz_error(struct archive *a, lzma_ret ret)
{
	static const struct {
		lzma_ret ret;
		int errnum;
		const char *what;
	} errors[] = {
		{ LZMA_MEM_ERROR, ENOMEM, "out of memory" },
		{ LZMA_MEMLIMIT_ERROR, ENOMEM, "over the memory limit" },
		{ LZMA_FORMAT_ERROR, EINVAL, "not in the xz format" },
		{ LZMA_OPTIONS_ERROR, EINVAL, "compressed with options liblzma does not support" },
		{ LZMA_DATA_ERROR, EINVAL, "corrupt compressed data" },
		{ LZMA_BUF_ERROR, EINVAL, "the xz stream is cut short" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errors); i++)
		if (errors[i].ret == ret)
			break;
	if (i == ARRAY_SIZE(errors))
		archive_set_error(a, EINVAL, "data.tar.xz: liblzma error %d", ret);
	else
		archive_set_error(a, errors[i].errnum, "data.tar.xz: %s",
				  errors[i].what);
	return -1;
}

/*
 * xz->out filled with what the stream decodes to, as far as it goes: how
 * many bytes, 0 only at the stream's end, which liblzma has checked
 * whole (each block's check, the index, the footer); or -1, the error
 * set on @a.  The member's end is LZMA_FINISH: a member that ends before
 * its stream does is LZMA_BUF_ERROR, never a tar that ends early at a
 * member's boundary, which libarchive's tar reader would take for whole.
 */
static la_ssize_t xz_fill(struct xz *xz, struct archive *a)
{
	lzma_stream *strm = &xz->strm;
	const void *in;
	size_t size;
	lzma_ret ret;
	int r;

	strm->next_out = xz->out;
	strm->avail_out = sizeof(xz->out);
	while (strm->avail_out && !xz->end) {
		while (!strm->avail_in && !xz->in_end) {
			r = member_block(a, xz->outer, &in, &size);
			if (r < 0)
				return -1;
			xz->in_end = r;
			strm->next_in = in;
			strm->avail_in = size;
		}
		ret = lzma_code(strm, xz->in_end ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END)
			xz->end = true;
		else if (ret != LZMA_OK)
			return xz_error(a, ret);
	}
	return sizeof(xz->out) - strm->avail_out;
}

static la_ssize_t xz_read(struct archive *a, void *xz, const void **buf)
{
	*buf = ((struct xz *)xz)->out;
	return xz_fill(xz, a);
}

/*
 * The current member of @outer, an xz stream, decoded by xz_decoder() on
 * its threads and read by libarchive as a plain tar: libarchive 3.6.2's
 * own xz filter decodes on one thread only.  Returns 0, or -ENOMEM.
 */
static int xz_open(struct archive *outer, struct data *data)
{
	struct xz *xz = malloc(sizeof(*xz));
	struct archive *a = archive_read_new();
	lzma_stream init = LZMA_STREAM_INIT;

	if (!xz || !a)
		goto out_free;
	xz->outer = outer;
	xz->strm = init;
	xz->in_end = xz->end = false;
	if (xz_decoder(&xz->strm) != LZMA_OK)
		goto out_free;
	archive_read_support_filter_none(a);
	archive_read_support_format_tar(a);
	/* a failure shows at the first archive_read_next_header() */
	archive_read_open(a, xz, NULL, xz_read, NULL);
	data->a = a;
	data->xz = xz;
	return 0;

out_free:
	if (a)
		archive_read_free(a);
	free(xz);
	return -ENOMEM;
}

/* "./boot/vmlinuz-R" is "boot/vmlinuz-R". */
static const char *member_name(const char *path)
{
	if (!path)
		return "";
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

	if (archive_errno(a) == ENOMEM) {
		pr_err("%s: %s", deb->path, why ? why : strerror(ENOMEM));
		return -ENOMEM;
	}
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
	/* O_NONBLOCK: a FIFO would wait for a writer; it is refused below */
	deb->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (deb->fd < 0 || fstat(deb->fd, &st)) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		deb__close(deb);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		pr_err("%s: not a regular file, so no Debian package", path);
		deb__close(deb);
		return -EINVAL;
	}
	deb->size = st.st_size;
	deb->path = strdup(path);
	deb->ar = archive_read_new();
	if (!deb->path || !deb->ar) {
		deb__close(deb);
		return -ENOMEM;
	}
	archive_read_support_format_ar(deb->ar);
	if (archive_read_open_fd(deb->ar, deb->fd, 1 << 16) != ARCHIVE_OK) {
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

/* A member's name or kind that is not unpacked: one error, naming it. */
static int refuse(const struct extract *x, const char *name, const char *why)
{
	pr_err("%s: unpacking %s into %s: %s: refused", x->deb->path, name,
	       x->dest, why);
	return -EINVAL;
}

/* The member @name could not be written: -@errnum, reported. */
static int write_failed(const struct extract *x, const char *name, int errnum)
{
	pr_err("%s: unpacking %s into %s: %s", x->deb->path, name, x->dest,
	       strerror(errnum));
	return -errnum;
}

/*
 * Why the member @name may not be unpacked, or NULL: it must be a path
 * relative to the entry, of components neither empty nor "." nor "..",
 * with at most a '/' at its end (a directory's).
 */
static const char *bad_name(const char *name)
{
	const char *p = name;
	size_t len;

	if (!*name)
		return "an empty name";
	if (*name == '/')
		return "an absolute path";
	while (*p) {
		len = strcspn(p, "/");
		if (len == 2 && !strncmp(p, "..", 2))
			return "a '..' in its path";
		if (!len || (len == 1 && *p == '.'))
			return "an empty or '.' component in its path";
		p += len;
		p += *p == '/';
	}
	return NULL;
}

/* Why a member of kind @type is not unpacked. */
static const char *bad_kind(mode_t type)
{
	switch (type) {
	case AE_IFCHR:
		return "a character device, not a file or a directory";
	case AE_IFBLK:
		return "a block device, not a file or a directory";
	case AE_IFIFO:
		return "a FIFO, not a file or a directory";
	case AE_IFSOCK:
		return "a socket, not a file or a directory";
	default:
		return "not a file or a directory";
	}
}

/*
 * The mode a member is given: its permissions without setuid, setgid,
 * sticky and the group's and others' write, and what we need ourselves
 * to read it (and for a directory to write and remove what is in it).
 */
static mode_t safe_mode(mode_t perm, bool dir)
{
	return (perm & 0755) | (dir ? 0700 : 0400);
}

/*
 * The directory @name in @dirfd, made (0755) when it is not there, and
 * opened never through a symbolic link.  Returns its fd or -errno.
 */
static int subdir(int dirfd, const char *name)
{
	int fd;

	if (mkdirat(dirfd, name, 0755) && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * The directory that holds the member @path (a checked name, cut in
 * place) under x->dirfd, each directory on the way made and opened
 * relative to the one before it: the entry holds nothing but what we
 * made.  Returns its fd, and the last component in *@leaf; or -errno.
 */
static int open_parent(const struct extract *x, char *path, char **leaf)
{
	size_t len = strlen(path);
	char *slash;
	int fd, next;

	if (path[len - 1] == '/')
		path[len - 1] = '\0';
	fd = fcntl(x->dirfd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	while ((slash = strchr(path, '/'))) {
		*slash = '\0';
		next = subdir(fd, path);
		close(fd);
		if (next < 0)
			return next;
		fd = next;
		path = slash + 1;
	}
	*leaf = path;
	return fd;
}

/* "16 GiB", "1000 bytes": @n in the largest unit that divides it. */
static void format_size(uint64_t n, char *buf, size_t size)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	size_t i = 0;

	while (i + 1 < ARRAY_SIZE(units) && n && !(n & 1023)) {
		n >>= 10;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 " %s", n, units[i]);
}

/* The member @name would unpack more than the cap: -EFBIG, reported. */
static int over_cap(const struct extract *x, const char *name)
{
	char cap[32];

	format_size(x->max, cap, sizeof(cap));
	pr_err("%s: %s unpacks to more than %s, the most one package may (KABIDIFF_UNPACK_MAX): stopped at %s",
	       x->deb->path, x->deb->control.package, cap, name);
	return -EFBIG;
}

/* The member @name's file grows from @size to @end bytes: counted, if it may. */
static int grow(struct extract *x, const char *name, uint64_t size,
		uint64_t end)
{
	if (end <= size)
		return 0;
	if (end - size > x->max - x->written)
		return over_cap(x, name);
	x->written += end - size;
	return 0;
}

int deb_unpack_max(uint64_t *max)
{
	static const char units[] = "KMGTkmgt";
	const char *value = getenv("KABIDIFF_UNPACK_MAX"), *unit;
	unsigned long long n;
	unsigned int shift = 0;
	char *end;

	*max = DEB_UNPACK_MAX_DEFAULT;
	if (!value || !*value)
		return 0;
	errno = 0;
	n = strtoull(value, &end, 10);
	unit = *end ? strchr(units, *end) : NULL;
	if (unit) {
		shift = 10 * (1 + (unit - units) % 4);
		end += strcmp(end + 1, "iB") ? 1 : 3;
	}
	if (*value < '0' || *value > '9' || errno || *end || !n ||
	    n > (UINT64_MAX >> shift)) {
		pr_err("KABIDIFF_UNPACK_MAX: '%s' is not a size: a number of bytes, and K, M, G or T for KiB, MiB, GiB or TiB",
		       value);
		return -EINVAL;
	}
	*max = (uint64_t)n << shift;
	return 0;
}

/* pwrite() all of @size bytes at @offset. */
static int write_all(int fd, const char *buf, size_t size, off_t offset)
{
	ssize_t n;

	while (size) {
		n = pwrite(fd, buf, size, offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		size -= n;
		offset += n;
	}
	return 0;
}

/* The data of the member @e of @a into @fd, a new file. */
static int write_data(struct extract *x, struct archive *a,
		      struct archive_entry *e, int fd, const char *name)
{
	la_int64_t offset, end = 0;
	const void *buf;
	size_t size;
	int r, err = 0;

	while (!err && (r = archive_read_data_block(a, &buf, &size,
						     &offset)) != ARCHIVE_EOF) {
		if (r < ARCHIVE_WARN)
			return corrupt(x->deb, a);
		if (offset < 0)
			return corrupt(x->deb, a);
		if (grow(x, name, end, offset + size))
			return -EFBIG;
		if (offset + (la_int64_t)size > end)
			end = offset + size;
		err = write_all(fd, buf, size, offset);
		progress(x);
	}
	/* a sparse file may end in a hole */
	if (!err && archive_entry_size_is_set(e) && archive_entry_size(e) > end) {
		if (grow(x, name, end, archive_entry_size(e)))
			return -EFBIG;
		if (ftruncate(fd, archive_entry_size(e)))
			err = -errno;
	}
	return err ? write_failed(x, name, -err) : 0;
}

/* The regular file @e of @a as @leaf in @dirfd. */
static int write_file(struct extract *x, struct archive *a,
		      struct archive_entry *e, int dirfd, const char *leaf,
		      const char *name)
{
	struct timespec times[2] = {
		{ .tv_sec = archive_entry_mtime(e),
		  .tv_nsec = archive_entry_mtime_nsec(e) },
	};
	int fd, err;

	times[1] = times[0];
	/* what the member says it holds is known before writing it */
	if (archive_entry_size_is_set(e) && archive_entry_size(e) > 0 &&
	    (uint64_t)archive_entry_size(e) > x->max - x->written)
		return over_cap(x, name);
	/* a member given twice: the last one, as tar does */
	if (unlinkat(dirfd, leaf, 0) && errno != ENOENT)
		return write_failed(x, name, errno);
	fd = openat(dirfd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd < 0)
		return write_failed(x, name, errno);
	err = write_data(x, a, e, fd, name);
	if (!err && (fchmod(fd, safe_mode(archive_entry_perm(e), false)) ||
		     (archive_entry_mtime_is_set(e) && futimens(fd, times))))
		err = write_failed(x, name, errno);
	if (close(fd) && !err)
		err = write_failed(x, name, errno);
	return err;
}

/* The hard link @leaf in @dirfd to @target, a file unpacked before. */
static int write_link(const struct extract *x, int dirfd, const char *leaf,
		      const char *name, const char *target)
{
	char *copy, *target_leaf;
	struct stat st;
	int tfd, err = 0;

	if (bad_name(target))
		return refuse(x, name, "a hard link to a path out of the package's tree");
	copy = strdup(target);
	if (!copy)
		return -ENOMEM;
	tfd = open_parent(x, copy, &target_leaf);
	if (tfd < 0 || fstatat(tfd, target_leaf, &st, AT_SYMLINK_NOFOLLOW))
		err = write_failed(x, target, tfd < 0 ? -tfd : errno);
	else if (!S_ISREG(st.st_mode))
		err = refuse(x, name, "a hard link to what is not a file");
	else if ((unlinkat(dirfd, leaf, 0) && errno != ENOENT) ||
		 linkat(tfd, target_leaf, dirfd, leaf, 0))
		err = write_failed(x, name, errno);
	if (tfd >= 0)
		close(tfd);
	free(copy);
	return err;
}

/* The directory @leaf in @dirfd, with the member @e's mode. */
static int write_dir(const struct extract *x, struct archive_entry *e,
		     int dirfd, const char *leaf, const char *name)
{
	int fd = subdir(dirfd, leaf), err = 0;

	if (fd < 0)
		return write_failed(x, name, -fd);
	if (fchmod(fd, safe_mode(archive_entry_perm(e), true)))
		err = write_failed(x, name, errno);
	close(fd);
	return err;
}

/*
 * The member @e of @a, named @name, written under x->dirfd.  Only regular
 * files (and hard links to them) and directories are made: a symbolic
 * link is skipped (the -dbg package's vdso/.build-id/ holds some, which
 * kabidiff does not read), and a device or a FIFO is refused.
 */
static int write_member(struct extract *x, struct archive *a,
			struct archive_entry *e, const char *name)
{
	const char *link = archive_entry_hardlink(e), *why = bad_name(name);
	mode_t type = archive_entry_filetype(e);
	char *path, *leaf;
	int dirfd, err;

	if (!why && !link && type != AE_IFREG && type != AE_IFDIR) {
		if (type == AE_IFLNK)
			return 0;
		why = bad_kind(type);
	}
	if (why)
		return refuse(x, name, why);
	path = strdup(name);
	if (!path)
		return -ENOMEM;
	dirfd = open_parent(x, path, &leaf);
	if (dirfd < 0)
		err = write_failed(x, name, -dirfd);
	else if (link)
		err = write_link(x, dirfd, leaf, name, member_name(link));
	else if (type == AE_IFDIR)
		err = write_dir(x, e, dirfd, leaf, name);
	else
		err = write_file(x, a, e, dirfd, leaf, name);
	if (dirfd >= 0)
		close(dirfd);
	free(path);
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
	if (r != ARCHIVE_EOF)
		return corrupt(x->deb, a);
	x->at_end |= top;
	return 0;
}

/*
 * The data archive of @deb, opened to be read: *@data, or -errno,
 * reported.  A data.tar.xz is decoded by xz_open(), as dpkg-deb decodes
 * it, by its name; any other by libarchive's filters.
 */
static int open_data(struct deb *deb, struct data *data)
{
	struct archive_entry *e;
	const char *name;
	int r;

	data->a = NULL;
	data->xz = NULL;
	while ((r = archive_read_next_header(deb->ar, &e)) == ARCHIVE_OK)
		if (!strncmp(archive_entry_pathname(e), "data.tar", strlen("data.tar")))
			break;
	if (r == ARCHIVE_EOF) {
		pr_err("%s: not a Debian package (no data archive)", deb->path);
		return -EINVAL;
	}
	if (r != ARCHIVE_OK)
		return corrupt(deb, deb->ar);
	name = archive_entry_pathname(e);
	if (!strcmp(name, "data.tar.xz"))
		return xz_open(deb->ar, data);
	data->a = nested_open(deb->ar);
	return data->a ? 0 : -ENOMEM;
}

/*
 * The data archive read to its end: its xz stream, if we decode it, must
 * end there too, whole.  libarchive stops at the tar's end-of-archive
 * blocks, and what may follow them, padding, is decoded here, to the
 * stream's checks.  Returns 0 or -errno, reported.
 */
static int data_end(struct deb *deb, struct data *data)
{
	la_ssize_t n;

	if (!data->xz)
		return 0;
	while ((n = xz_fill(data->xz, data->a)) > 0)
		;
	return n < 0 ? corrupt(deb, data->a) : 0;
}

static void close_data(struct data *data)
{
	if (data->a)
		archive_read_free(data->a);
	if (data->xz) {
		lzma_end(&data->xz->strm);
		free(data->xz);
	}
}

int deb__extract(struct deb *deb, const struct deb_take *take,
		 const char *dest, uint64_t max, deb_progress_fn progress_fn,
		 void *arg)
{
	struct extract x = {
		.deb = deb, .dest = dest, .max = max,
		.progress = progress_fn, .arg = arg,
	};
	const struct deb_take *rule;
	struct data data;
	int err;

	for (rule = take; rule->path; rule++) {
		x.dir_rules |= takes_dir(rule);
		x.whole_left += !takes_dir(rule);
	}
	x.dirfd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (x.dirfd < 0) {
		err = -errno;
		pr_err("%s: %s", dest, strerror(-err));
		return err;
	}
	err = open_data(deb, &data);
	if (!err)
		err = extract_archive(&x, data.a, take, true);
	if (!err && x.at_end)
		err = data_end(deb, &data);
	close_data(&data);
	close(x.dirfd);
	if (!err && x.progress)
		x.progress(x.arg, deb->control.package, deb->size, deb->size);
	return err;
}

/* The bytes of the member @e of @a, at most @max of them, into *@bufp. */
static int read_member(struct extract *x, struct archive *a,
		       struct archive_entry *e, const char *name,
		       unsigned char **bufp, size_t *sizep)
{
	uint64_t size = archive_entry_size(e);
	la_int64_t offset;
	const void *block;
	unsigned char *buf;
	size_t len;
	int r;

	if (size > x->max)
		return over_cap(x, name);
	buf = calloc(1, size ? size : 1);
	if (!buf)
		return -ENOMEM;
	while ((r = archive_read_data_block(a, &block, &len, &offset)) != ARCHIVE_EOF) {
		if (r < ARCHIVE_WARN || offset < 0 || (uint64_t)offset > size ||
		    len > size - offset) {
			free(buf);
			return corrupt(x->deb, a);
		}
		memcpy(buf + offset, block, len);
		progress(x);
	}
	*bufp = buf;
	*sizep = size;
	return 0;
}

int deb__read(struct deb *deb, deb_want_fn want, deb_member_fn fn,
	      uint64_t max, deb_progress_fn progress_fn, void *arg)
{
	struct extract x = {
		.deb = deb, .max = max, .progress = progress_fn, .arg = arg,
	};
	struct archive_entry *e;
	struct data data;
	unsigned char *buf = NULL;
	size_t size = 0;
	int r = ARCHIVE_EOF, err = open_data(deb, &data);

	while (!err && (r = archive_read_next_header(data.a, &e)) == ARCHIVE_OK) {
		const char *name = member_name(archive_entry_pathname(e));

		progress(&x);
		if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e) ||
		    !archive_entry_size_is_set(e) || !want(arg, name))
			continue;
		err = read_member(&x, data.a, e, name, &buf, &size);
		if (!err)
			err = fn(arg, name, buf, size);
	}
	if (!err && r != ARCHIVE_EOF && r != ARCHIVE_OK)
		err = corrupt(deb, data.a);
	if (!err)
		err = data_end(deb, &data);
	close_data(&data);
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
	if (deb->fd >= 0)
		close(deb->fd);
	free(deb->path);
	free(deb);
}
