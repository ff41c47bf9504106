// SPDX-License-Identifier: GPL-2.0-only
/*
 * A Debian kernel by its ABI name: apt-cache says which versions of its
 * packages the archive has, apt-get download fetches those the package
 * cache lacks into a temporary directory of the cache (downloads/), and
 * collectors/debian/ unpacks them; the .deb files go once unpacked.
 * Nothing is installed, and apt-get download needs no root.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/array.h"
#include "lib/atomic-file.h"
#include "lib/bytes.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "lib/run-command.h"
#include "cache.h"
#include "debian.h"
#include "progress.h"

/*
 * 6.1.0-57 or 6.12.118+deb12, or only the series (6.1) for its newest ABI,
 * then -FLAVOUR (cloud-amd64, or cloud: the architecture is amd64's) or
 * nothing (amd64).
 */
#define SPEC_PATTERN \
	"^([0-9]+\\.[0-9]+)(\\.[0-9]+(-[0-9]+|\\+deb[0-9]+))?(-([a-z0-9-]+))?$"
#define ARCH		"amd64"
#define IMAGE_PREFIX	"linux-image-"
#define IMAGE_SUFFIX	"-unsigned"

#define APT_LISTS	"/var/lib/apt/lists"

bool debian_spec(const char *name)
{
	return !strncmp(name, DEBIAN_PREFIX, strlen(DEBIAN_PREFIX));
}

/* Run @argv and give its standard output in *@out (malloc()ed). */
static int capture(const char *const *argv, char **out)
{
	FILE *f = tmpfile();
	struct child_process cp = {
		.argv = argv, .err_fd = CHILD_DEVNULL,
	};
	size_t len;
	int err;

	if (!f)
		return -errno;
	cp.out_fd = fileno(f);
	err = run_command(&cp);
	if (!err && !child_succeeded(&cp))
		err = -ENOENT;
	if (!err && lseek(cp.out_fd, 0, SEEK_SET))
		err = -errno;
	if (!err)
		err = read_fd(cp.out_fd, SMALL_FILE_MAX, 0, out, &len);
	fclose(f);
	return err;
}

/* The "Version:" fields apt-cache shows for @package, newest first. */
static int versions_of(const char *package, bool all, char ***v, size_t *nr)
{
	const char *argv[] = {
		"apt-cache", "show", all ? package : "--no-all-versions",
		all ? NULL : package, NULL
	};
	char *out = NULL, *line, *next;
	int err = capture(argv, &out);

	for (line = out; !err && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "Version: ", 9))
			err = strings__append(v, nr, line + 9);
	}
	free(out);
	if (!err && !*nr)
		err = -ENOENT;
	if (err == -ENOENT)
		pr_err("apt-cache knows no %s: run apt-get update, or name another kernel",
		       package);
	else if (err)
		pr_err("apt-cache show %s: %s", package, strerror(-err));
	return err;
}

/* dpkg's order of versions: is @a older than @b? */
static bool older(const char *a, const char *b)
{
	const char *argv[] = { "dpkg", "--compare-versions", a, "lt", b, NULL };
	struct child_process cp = {
		.argv = argv, .out_fd = CHILD_DEVNULL, .err_fd = CHILD_DEVNULL,
	};

	return !run_command(&cp) && child_succeeded(&cp);
}

/* Of @v, @want, or the newest older one, or else the oldest newer one. */
static const char *nearest(char **v, size_t nr, const char *want)
{
	const char *below = NULL, *above = NULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!strcmp(v[i], want))
			return v[i];
		if (older(v[i], want)) {
			if (!below || older(below, v[i]))
				below = v[i];
		} else if (!above || older(v[i], above)) {
			above = v[i];
		}
	}
	return below ? below : above;
}

static void warn_source(const struct debian_kernel *k)
{
	if (strcmp(k->version[KERNEL_SOURCE], k->version[KERNEL_IMAGE]))
		pr_warn("the archive has no %s %s, the version of %s: its docs and syscall tables are %s's",
			k->name[KERNEL_SOURCE], k->version[KERNEL_IMAGE],
			k->name[KERNEL_IMAGE], k->version[KERNEL_SOURCE]);
}

/* The source package at the image's version, or the nearest one. */
static int resolve_source(struct debian_kernel *k)
{
	const char *name = k->name[KERNEL_SOURCE], *want = k->version[KERNEL_IMAGE];
	char **v = NULL;
	size_t nr = 0;
	int err = versions_of(name, true, &v, &nr);

	if (err)
		return err;
	k->version[KERNEL_SOURCE] = strdup(nearest(v, nr, want));
	strings__free(v, nr);
	if (!k->version[KERNEL_SOURCE])
		return -ENOMEM;
	warn_source(k);
	return 0;
}

/* The -dbg package must be there at the image's version. */
static int check_dbg(const struct debian_kernel *k)
{
	const char *name = k->name[KERNEL_DBG], *want = k->version[KERNEL_IMAGE];
	char **v = NULL;
	size_t nr = 0, i;
	int err = versions_of(name, true, &v, &nr);

	for (i = 0; !err && i < nr && strcmp(v[i], want); i++)
		;
	if (!err && i == nr) {
		pr_err("the archive has no %s %s, the version of %s", name, want,
		       k->name[KERNEL_IMAGE]);
		err = -ENOENT;
	}
	strings__free(v, nr);
	return err;
}

/* What a debian: spec, or the middle of an image package's name, says. */
struct spec {
	char *series;		/* "6.1" */
	char *abi;		/* "6.1.0-57"; NULL: the series' newest */
	char *flavour;		/* "cloud-amd64", or as given: "cloud" */
	bool arch_given;	/* the flavour ends in its architecture */
};

static void spec__release(struct spec *sp)
{
	free(sp->series);
	free(sp->abi);
	free(sp->flavour);
}

static char *match_dup(const char *text, const regmatch_t *m)
{
	return m->rm_so < 0 ? NULL :
	       xasprintf("%.*s", (int)(m->rm_eo - m->rm_so), text + m->rm_so);
}

/* Split @text by @re (SPEC_PATTERN); -EINVAL if it does not match. */
static int spec__parse(struct spec *sp, const regex_t *re, const char *text)
{
	const char *flavour;
	regmatch_t m[6];
	size_t len;

	memset(sp, 0, sizeof(*sp));
	if (regexec(re, text, ARRAY_SIZE(m), m, 0))
		return -EINVAL;
	flavour = m[5].rm_so < 0 ? ARCH : text + m[5].rm_so;
	len = strlen(flavour);
	sp->arch_given = len >= strlen(ARCH) &&
			 !strcmp(flavour + len - strlen(ARCH), ARCH);
	sp->series = match_dup(text, &m[1]);
	sp->abi = m[2].rm_so < 0 ? NULL :
		  xasprintf("%.*s", (int)m[2].rm_eo, text);
	sp->flavour = strdup(flavour);
	if (!sp->series || (m[2].rm_so >= 0 && !sp->abi) || !sp->flavour) {
		spec__release(sp);
		return -ENOMEM;
	}
	return 0;
}

static int compile_spec_pattern(regex_t *re)
{
	return regcomp(re, SPEC_PATTERN, REG_EXTENDED) ? -ENOMEM : 0;
}

/* The package names of @k->release, and of its series' source. */
static int name_packages(struct debian_kernel *k)
{
	k->name[KERNEL_IMAGE] = xasprintf(IMAGE_PREFIX "%s" IMAGE_SUFFIX,
					  k->release);
	k->name[KERNEL_DBG] = xasprintf(IMAGE_PREFIX "%s-dbg", k->release);
	k->name[KERNEL_SOURCE] = xasprintf("linux-source-%s", k->series);
	return k->name[KERNEL_IMAGE] && k->name[KERNEL_DBG] &&
	       k->name[KERNEL_SOURCE] ? 0 : -ENOMEM;
}

/* Of an image package's name, the release it names ("6.1.0-57-amd64"). */
static const char *image_release(const char *package, char *buf, size_t size)
{
	size_t len = strlen(package), pre = strlen(IMAGE_PREFIX);
	size_t suf = strlen(IMAGE_SUFFIX);

	if (len <= pre + suf || len - pre - suf >= size ||
	    strncmp(package, IMAGE_PREFIX, pre) ||
	    strcmp(package + len - suf, IMAGE_SUFFIX))
		return NULL;
	snprintf(buf, size, "%.*s", (int)(len - pre - suf), package + pre);
	return buf;
}

/* The kernels of the archive, as "6.1.0-57-amd64", from their images. */
static int archive_releases(char ***v, size_t *nr)
{
	const char *argv[] = { "apt-cache", "pkgnames", IMAGE_PREFIX, NULL };
	char *out = NULL, *line, *next, buf[256];
	int err = capture(argv, &out);

	if (err)
		pr_err("apt-cache pkgnames %s: %s", IMAGE_PREFIX, strerror(-err));
	for (line = out; !err && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (image_release(line, buf, sizeof(buf)))
			err = strings__append(v, nr, buf);
	}
	free(out);
	return err;
}

/* Whether the archive's kernel @c is of the series and ABI @want names. */
static bool spec__same_abi(const struct spec *want, const struct spec *c)
{
	return c->abi && !strcmp(c->series, want->series) &&
	       (!want->abi || !strcmp(c->abi, want->abi));
}

/* Whether @c's flavour is @want's, or @want's with the architecture. */
static bool spec__same_flavour(const struct spec *want, const struct spec *c)
{
	size_t len = strlen(want->flavour);

	if (!strcmp(c->flavour, want->flavour))
		return true;
	return !want->arch_given && !strncmp(c->flavour, want->flavour, len) &&
	       !strcmp(c->flavour + len, "-" ARCH);
}

/* Append @s to @v unless it has it already. */
static int add_unique(char ***v, size_t *nr, const char *s)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	return strings__append(v, nr, s);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Say that no kernel is what @want asks for, and which @flavours are. */
static void no_such_kernel(const char *spec, const struct spec *want,
			   char **flavours, size_t nr)
{
	char *list = NULL, *more;
	size_t i;

	if (nr)
		qsort(flavours, nr, sizeof(*flavours), compare_strings);
	for (i = 0; i < nr; i++) {
		more = xasprintf("%s%s%s", list ?: "", list ? ", " : "", flavours[i]);
		free(list);
		list = more;
	}
	if (list)
		pr_err("%s: the archive has no %s kernel of flavour %s; its flavours are %s",
		       spec, want->abi ?: want->series, want->flavour, list);
	else
		pr_err("%s: the archive has no %s kernel: run apt-get update, or name another",
		       spec, want->abi ?: want->series);
	free(list);
}

/*
 * The newest of the archive's kernels that @want asks for, into
 * @k->release; if none is, the flavours its ABI or series has are named.
 */
static int choose_release(struct debian_kernel *k, const struct spec *want)
{
	char **v = NULL, **flavours = NULL, *best = NULL;
	size_t nr = 0, nr_flavours = 0, i;
	struct spec c, chosen = { 0 };
	regex_t re;
	int err = compile_spec_pattern(&re), bad;

	if (err)
		return err;
	err = archive_releases(&v, &nr);
	for (i = 0; !err && i < nr; i++) {
		bad = spec__parse(&c, &re, v[i]);
		if (bad == -EINVAL)
			continue;	/* not a release kabidiff reads */
		err = bad;
		if (err)
			break;
		if (spec__same_abi(want, &c) && spec__same_flavour(want, &c) &&
		    (!best || older(chosen.abi, c.abi))) {
			spec__release(&chosen);
			chosen = c;
			best = v[i];
			continue;
		}
		if (spec__same_abi(want, &c))
			err = add_unique(&flavours, &nr_flavours, c.flavour);
		spec__release(&c);
	}
	if (!err && !best) {
		no_such_kernel(k->spec, want, flavours, nr_flavours);
		err = -ENOENT;
	}
	if (!err) {
		k->release = strdup(best);
		err = k->release ? 0 : -ENOMEM;
	}
	spec__release(&chosen);
	strings__free(flavours, nr_flavours);
	strings__free(v, nr);
	regfree(&re);
	return err;
}

/*
 * What @k->spec asks for, into @want: its series, and its release when an
 * ABI with its flavour names one; a series, or a flavour without its
 * architecture, is for choose_release() to look for.
 */
static int parse_spec(struct debian_kernel *k, struct spec *want)
{
	regex_t re;
	int err = compile_spec_pattern(&re);

	if (err)
		return err;
	err = spec__parse(want, &re, k->spec + strlen(DEBIAN_PREFIX));
	regfree(&re);
	if (err == -EINVAL)
		pr_err("%s: not a Debian kernel: debian:ABI[-FLAVOUR] or debian:SERIES[-FLAVOUR] names one, as debian:6.1.0-57, debian:6.12.118+deb12-cloud-amd64 or debian:6.12",
		       k->spec);
	if (err)
		return err;
	k->series = strdup(want->series);
	k->chosen = !want->abi || !want->arch_given;
	if (!k->chosen)
		k->release = xasprintf("%s-%s", want->abi, want->flavour);
	return k->series && (k->chosen || k->release) ? 0 : -ENOMEM;
}

/*
 * apt-cache takes half a second a question, and a resolution asks three:
 * what it answered is kept in the cache (debian/SPEC) for as long as
 * apt's package lists are the same, which their directory's time tells
 * (apt-get update renames the lists it fetched into it).
 */
static char *lists_stamp(void)
{
	struct stat st;

	if (stat(APT_LISTS, &st))
		return NULL;
	/* "apt lists": memos before the release line said "lists" */
	return xasprintf("apt lists %lld.%09ld\n", (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec);
}

static char *memo_path(const char *spec)
{
	char *dir, *path;

	if (cache_dir("debian", &dir))
		return NULL;
	path = xasprintf("%s/%s", dir, spec + strlen(DEBIAN_PREFIX));
	free(dir);
	return path;
}

/* A memo: the stamp, then the release and the packages' versions. */
#define MEMO_LINES	(1 + KERNEL_PACKAGES)

/* Split @text in place into up to @max lines; returns how many. */
static int split_lines(char *text, char **lines, int max)
{
	char *next;
	int n;

	for (n = 0; text && *text && n < max; n++, text = next) {
		next = strchr(text, '\n');
		if (next)
			*next++ = '\0';
		lines[n] = text;
	}
	return n;
}

/* Take a memo's @lines into @k; false if it is not one of @k->spec. */
static bool take_memo(struct debian_kernel *k, char **lines)
{
	int i;

	if (k->release && strcmp(k->release, lines[0]))
		return false;
	if (!k->release)
		k->release = strdup(lines[0]);
	for (i = 0; i < KERNEL_PACKAGES; i++)
		k->version[i] = strdup(lines[1 + i]);
	for (i = 0; i < KERNEL_PACKAGES; i++)
		if (!k->version[i])
			return false;
	return k->release;
}

/*
 * What an earlier resolution of @k->spec found, if still good.
 * Quietly: a cache that is refused is the side's to report, once.
 */
static bool recall(struct debian_kernel *k)
{
	kabi_print_fn_t print = kabi_set_print(NULL);
	char *path = memo_path(k->spec), *stamp = lists_stamp(), *text = NULL;
	char *lines[MEMO_LINES];
	size_t len, stamp_len = stamp ? strlen(stamp) : 0;
	bool ok = false, had_release = k->release;
	int i;

	kabi_set_print(print);
	if (path && stamp && !read_file(path, SMALL_FILE_MAX, &text, &len) &&
	    !strncmp(text, stamp, stamp_len) &&
	    split_lines(text + stamp_len, lines, MEMO_LINES) == MEMO_LINES)
		ok = take_memo(k, lines);
	for (i = 0; !ok && i < KERNEL_PACKAGES; i++) {
		free(k->version[i]);
		k->version[i] = NULL;
	}
	if (!ok && !had_release) {
		free(k->release);
		k->release = NULL;
	}
	free(text);
	free(stamp);
	free(path);
	return ok;
}

static int write_memo(FILE *f, void *arg)
{
	const struct debian_kernel *k = arg;
	char *stamp = lists_stamp();
	int i, err = stamp && fputs(stamp, f) >= 0 &&
		     fprintf(f, "%s\n", k->release) >= 0 ? 0 : -EIO;

	for (i = 0; !err && i < KERNEL_PACKAGES; i++)
		if (fprintf(f, "%s\n", k->version[i]) < 0)
			err = -EIO;
	free(stamp);
	return err;
}

/* Keep what apt-cache said; a failure only costs the next run time. */
static void remember(const struct debian_kernel *k)
{
	kabi_print_fn_t print = kabi_set_print(NULL);
	char *path = memo_path(k->spec);

	if (path)
		atomic_write(path, ATOMIC_OWN_FILE, write_memo, (void *)k);
	kabi_set_print(print);
	free(path);
}

/* Ask apt-cache for the versions of @k's packages. */
static int ask_apt(struct debian_kernel *k)
{
	char **v = NULL;
	size_t nr = 0;
	int err = versions_of(k->name[KERNEL_IMAGE], false, &v, &nr);

	if (!err) {
		k->version[KERNEL_IMAGE] = strdup(v[0]);
		k->version[KERNEL_DBG] = strdup(v[0]);
		err = k->version[KERNEL_IMAGE] && k->version[KERNEL_DBG] ?
		      0 : -ENOMEM;
	}
	strings__free(v, nr);
	if (!err)
		err = check_dbg(k);
	if (!err)
		err = resolve_source(k);
	if (!err)
		remember(k);
	return err;
}

/* Ask the archive what @want names, and apt-cache for its versions. */
static int ask_archive(struct debian_kernel *k, const struct spec *want)
{
	int err = k->chosen ? choose_release(k, want) : 0;

	if (!err)
		err = name_packages(k);
	if (!err)
		err = ask_apt(k);
	return err;
}

int debian_kernel__resolve(struct debian_kernel *k, const char *spec)
{
	struct spec want = { 0 };
	int err, i;

	memset(k, 0, sizeof(*k));
	k->spec = spec;
	err = parse_spec(k, &want);
	if (!err && recall(k)) {
		err = name_packages(k);
		warn_source(k);
	} else if (!err) {
		err = ask_archive(k, &want);
	}
	spec__release(&want);
	for (i = 0; !err && i < KERNEL_PACKAGES; i++) {
		k->id[i] = kernel_package__id(i, k->name[i], k->version[i],
					      i == KERNEL_SOURCE ? "all" : ARCH);
		if (!k->id[i])
			err = -ENOMEM;
	}
	if (err == -ENOMEM)
		pr_err("out of memory");
	return err;
}

void debian_kernel__tell(const struct debian_kernel *k)
{
	if (k->chosen)
		pr_info("%s: %s, the newest release of the archive it names (%s %s)",
			k->spec, k->release, k->name[KERNEL_IMAGE],
			k->version[KERNEL_IMAGE]);
}

/* apt-get download of @packages ("NAME=VERSION") into @dir. */
static int download(const char *dir, char **packages, size_t nr)
{
	const char *argv[8 + KERNEL_PACKAGES] = { "apt-get", "download" };
	bool terminal = isatty(STDERR_FILENO) && progress_meter_on();
	struct child_process cp = {
		.argv = argv, .dir = dir, .err_fd = CHILD_INHERIT,
		.out_fd = terminal ? STDERR_FILENO : CHILD_DEVNULL,
	};
	size_t argc = 2, i;
	char how[64];
	int err;

	/*
	 * As root, apt drops to the _apt user to download, who may not
	 * write into a cache under /root: stay root instead.
	 */
	if (!geteuid()) {
		argv[argc++] = "-o";
		argv[argc++] = "APT::Sandbox::User=root";
	}
	if (!terminal)
		argv[argc++] = "-qq";
	for (i = 0; i < nr; i++)
		argv[argc++] = packages[i];
	argv[argc] = NULL;
	pr_info("downloading %zu package%s with apt-get", nr, nr == 1 ? "" : "s");
	err = run_command(&cp);
	if (err) {
		pr_err("cannot run apt-get: %s", strerror(-err));
		return err;
	}
	if (!child_succeeded(&cp)) {
		pr_err("apt-get download %s", describe_exit(cp.status, how, sizeof(how)));
		return -EIO;
	}
	return 0;
}

/* Whether the cache has the package of @kind at @entry (-dbg: kept whole). */
static bool in_cache(const char *entry, enum kernel_package kind)
{
	struct stat st;
	char *kept;
	bool has;

	if (stat(entry, &st))
		return false;
	if (kind != KERNEL_DBG)
		return true;
	kept = kernel_dbg_kept(entry);
	has = kept;
	free(kept);
	return has;
}

/* Download what the cache lacks and unpack it there. */
static int fetch_missing(const struct debian_kernel *k, const char *packages_dir)
{
	struct kernel_packages unpacked = { 0 };
	char **missing = NULL, **debs = NULL, *top, *dir = NULL;
	size_t nr_missing = 0, nr_debs = 0, i;
	int err = 0;

	for (i = 0; !err && i < KERNEL_PACKAGES; i++) {
		char *entry = xasprintf("%s/%s", packages_dir, k->id[i]);
		char *want = xasprintf("%s=%s", k->name[i], k->version[i]);

		if (!entry || !want)
			err = -ENOMEM;
		else if (!in_cache(entry, i))
			err = strings__append(&missing, &nr_missing, want);
		free(entry);
		free(want);
	}
	if (err || !nr_missing)
		goto out;
	err = cache_dir("downloads", &top);
	if (err)
		goto out;
	remove_stale_tmp_dirs(top);
	dir = xasprintf("%s/.tmp.%d.XXXXXX", top, (int)getpid());
	free(top);
	if (!dir || !mkdtemp(dir)) {
		err = dir ? -errno : -ENOMEM;
		pr_err("%s: %s", dir ? dir : "downloads", strerror(-err));
		free(dir);
		dir = NULL;
	}
	if (!err)
		err = download(dir, missing, nr_missing);
	if (!err)
		err = debs_in_dir(dir, &debs, &nr_debs);
	if (!err)
		err = kernel_packages__unpack(&unpacked, debs, nr_debs,
					      packages_dir, progress_deb, NULL);
	if (!err && unpacked.dbg_deb)
		err = kernel_packages__keep_dbg(&unpacked, packages_dir);
	kernel_packages__release(&unpacked);
out:
	if (dir)
		remove_tree(dir);
	free(dir);
	strings__free(missing, nr_missing);
	strings__free(debs, nr_debs);
	return err;
}

int debian_kernel__fetch(const struct debian_kernel *k,
			 const char *packages_dir, struct kernel_packages *kp)
{
	int err = fetch_missing(k, packages_dir);

	if (!err)
		err = kernel_packages__cached(kp, k->id, KERNEL_PACKAGES,
					      packages_dir);
	if (err == -ENOENT)
		pr_err("%s: its packages are not in %s after unpacking them",
		       k->spec, packages_dir);
	return err;
}

void debian_kernel__release(struct debian_kernel *k)
{
	int i;

	free(k->series);
	free(k->release);
	for (i = 0; i < KERNEL_PACKAGES; i++) {
		free(k->name[i]);
		free(k->version[i]);
		free(k->id[i]);
	}
}
