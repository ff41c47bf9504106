// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading one side of a comparison, whatever names it, and collecting two
 * sides at once.
 *
 * A snapshot of packages is cached as snapshots/HASH.json beside
 * snapshots/HASH.key, the text it was made from: the packages (name,
 * version, architecture: the build id and modules come with them), the
 * machine profile, the snapshot format, a digest of the sources that
 * decide what a collection finds (COLLECTING_DIGEST, which the Makefile
 * computes: a rebuild of the same collectors keeps the cache) and the
 * build id of the guest agent that walked the guest.  A hit needs the key
 * file's text to be the same, so two keys that hash alike never share a
 * snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collectors/dwarf/elf.h"
#include "collectors/sysfs/machine.h"
#include "lib/array.h"
#include "lib/atomic-file.h"
#include "lib/bytes.h"
#include "lib/cleanup.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "lib/run-command.h"
#include "model/snapshot-json.h"
#include "cache.h"
#include "collect.h"
#include "debian.h"
#include "exit-status.h"
#include "progress.h"
#include "side.h"

#define BUILD_ID_MAX	128

/*
 * The snapshot file sides_prepare() found for a side, for side_load() to
 * read: the cached one of its packages, or a temporary one it collected,
 * removed at exit or by a signal that kills us (lib/cleanup.h).
 */
static struct prepared {
	const char *name;
	char path[4096];
	bool temporary;
	int slot;		/* the temporary one's, in lib/cleanup.h */
} prepared[2];

/* @machine, or the default profile */
static const struct machine_profile *of(const struct machine_profile *machine)
{
	return machine ? machine : machine_profile__find(MACHINE_DEFAULT);
}

/* The build id of the ELF file @path, or "none". */
static void file_build_id(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = NULL;

	snprintf(buf, size, "none");
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_build_id(elf, buf, size))
		snprintf(buf, size, "none");
	elf_end(elf);
	close(fd);
}

/* The text a snapshot of the packages @ids is cached under. */
static char *cache_key(char *const *ids, const struct machine_profile *machine)
{
	char agent[BUILD_ID_MAX], *agent_path;

	agent_path = collect_agent_path();
	if (!agent_path)
		return NULL;
	file_build_id(agent_path, agent, sizeof(agent));
	free(agent_path);
	return xasprintf("kabidiff snapshot of Debian packages\n"
			 "format %d\ncollectors %s\nagent %s\nmachine %s\n"
			 "image %s\ndbg %s\nsource %s\n",
			 SNAPSHOT_VERSION, COLLECTING_DIGEST, agent, machine->name,
			 ids[KERNEL_IMAGE] ? ids[KERNEL_IMAGE] : "none",
			 ids[KERNEL_DBG] ? ids[KERNEL_DBG] : "none",
			 ids[KERNEL_SOURCE] ? ids[KERNEL_SOURCE] : "none");
}

/* snapshots/HASH.@ext for @key in *@path; 0 or -errno, as cache_dir(). */
static int cache_file(const char *key, const char *ext, char **path)
{
	char *dir;
	int err = cache_dir("snapshots", &dir);

	*path = NULL;
	if (err)
		return err;
	*path = xasprintf("%s/%016llx.%s", dir,
			  (unsigned long long)fnv1a64(FNV1A64_BASIS, key, strlen(key)),
			  ext);
	free(dir);
	return *path ? 0 : -ENOMEM;
}

/* Whether the cache has a snapshot of @key. */
static bool cache_has(const char *key)
{
	char *key_path, *text = NULL;
	size_t len;
	bool has = !cache_file(key, "key", &key_path) &&
		   !read_file(key_path, SMALL_FILE_MAX, &text, &len) &&
		   !strcmp(text, key);

	free(text);
	free(key_path);
	return has;
}

/* The cached snapshot of @key, or NULL (quietly) when there is none. */
static struct snapshot *cache_lookup(const char *key)
{
	char *json = NULL;
	struct snapshot *s;

	if (cache_has(key))
		cache_file(key, "json", &json);
	s = json ? snapshot__load(json) : NULL;

	if (s)
		pr_info("%s: the snapshot of the same packages", json);
	free(json);
	return s;
}

static int write_key(FILE *f, void *key)
{
	return fputs(key, f) < 0 ? -EIO : 0;
}

/* Keep @s under @key: the snapshot first, then the key that finds it. */
static int cache_store(const char *key, struct snapshot *s)
{
	char *key_path, *json = NULL;
	int err = cache_file(key, "key", &key_path);

	if (!err)
		err = cache_file(key, "json", &json);
	if (!err)
		err = snapshot__save(s, json, ATOMIC_OWN_FILE);
	if (!err)
		err = atomic_write(key_path, ATOMIC_OWN_FILE, write_key,
				   (void *)key);
	free(key_path);
	free(json);
	return err;
}

/* Collect the kernel @kp's packages give (taking them), and keep it. */
static struct snapshot *collect_packages(struct kernel_packages *kp,
					 const char *key,
					 const struct machine_profile *machine)
{
	struct collect_inputs in = COLLECT_INPUTS_INIT;
	struct snapshot *s = snapshot__new();
	int err = s ? 0 : -ENOMEM;

	in.boot.machine = machine;
	in.packages = *kp;
	memset(kp, 0, sizeof(*kp));
	if (!err)
		err = collect_snapshot(s, &in, NULL);
	else
		kernel_packages__release(&in.packages);
	if (!err)
		err = cache_store(key, s);
	if (err == -ENOMEM)
		pr_err("out of memory");
	if (err) {
		snapshot__free(s);
		return NULL;
	}
	return s;
}

/* debian:ABI[-FLAVOUR]: cached, or fetched and collected. */
static struct snapshot *load_debian(const char *spec,
				    const struct machine_profile *machine)
{
	struct kernel_packages kp = { 0 };
	struct debian_kernel k;
	struct snapshot *s = NULL;
	char *key = NULL, *packages = NULL;

	/* the cache first: one that is refused is refused before any work */
	if (debian_kernel__resolve(&k, spec) || cache_dir("packages", &packages))
		goto out;
	debian_kernel__tell(&k);
	key = cache_key(k.id, machine);
	if (!key) {
		pr_err("out of memory");
		goto out;
	}
	s = cache_lookup(key);
	if (!s && !debian_kernel__fetch(&k, packages, &kp))
		s = collect_packages(&kp, key, machine);
out:
	kernel_packages__release(&kp);
	debian_kernel__release(&k);
	free(packages);
	free(key);
	return s;
}

/* A directory of a kernel's .deb files: unpacked, cached or collected. */
static struct snapshot *load_debs(char **debs, size_t nr,
				  const struct machine_profile *machine)
{
	struct kernel_packages kp = { 0 };
	char *packages, *key = NULL;
	struct snapshot *s = NULL;

	if (!cache_dir("packages", &packages) &&
	    !kernel_packages__unpack(&kp, debs, nr, packages, progress_deb,
				     NULL)) {
		key = cache_key(kp.id, machine);
		s = key ? cache_lookup(key) : NULL;
		if (!s && key)
			s = collect_packages(&kp, key, machine);
	}
	kernel_packages__release(&kp);
	free(packages);
	free(key);
	return s;
}

static struct snapshot *load_dir(const char *dir,
				 const struct machine_profile *machine,
				 const char **how)
{
	struct snapshot *s;
	char **debs = NULL;
	size_t nr = 0;
	int err = debs_in_dir(dir, &debs, &nr);

	if (err) {
		pr_err("%s: %s", dir, strerror(-err));
		strings__free(debs, nr);
		return NULL;
	}
	if (nr) {
		*how = "of its packages";
		s = load_debs(debs, nr, machine);
	} else {
		*how = "collected";
		pr_info("%s: collecting the build", dir);
		s = collect_build(dir, machine);
	}
	strings__free(debs, nr);
	return s;
}

static struct prepared *prepared_for(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prepared); i++)
		if (prepared[i].name && !strcmp(prepared[i].name, name))
			return &prepared[i];
	return NULL;
}

/* Load a side without minding what sides_prepare() did. */
static struct snapshot *load(const char *name,
			     const struct machine_profile *machine,
			     const char **how)
{
	*how = "loaded";
	if (debian_spec(name)) {
		*how = "of Debian's packages";
		return load_debian(name, machine);
	}
	if (is_dir(name))
		return load_dir(name, machine, how);
	return snapshot__load(name);
}

struct snapshot *side_load(const char *name,
			   const struct machine_profile *machine)
{
	struct prepared *p = prepared_for(name);
	struct timespec start;
	struct snapshot *s;
	const char *how;

	clock_gettime(CLOCK_MONOTONIC, &start);
	if (p) {
		how = p->temporary ? "collected" : "of Debian's packages";
		if (!p->temporary)
			pr_info("%s: the snapshot of the same packages", p->path);
		/* one collected goes at exit: sides load in two threads */
		s = snapshot__load(p->path);
	} else {
		s = load(name, of(machine), &how);
	}
	if (s)
		pr_info("%s: %zu sysfs nodes, %zu syscalls, %zu types, %zu doc entries, %s in %.3f s",
			name, s->sysfs.nr, s->syscalls.nr, s->types.nr,
			s->docs.nr, how, seconds_since(&start));
	return s;
}

/* @dir/MAINTAINERS, malloc()ed, when it is there; else NULL. */
static char *maintainers_in(const char *dir)
{
	char *path = xasprintf("%s/MAINTAINERS", dir);

	if (path && access(path, R_OK)) {
		free(path);
		path = NULL;
	}
	return path;
}

/* The MAINTAINERS of the linux-source package @kp has, or NULL. */
static char *packages_maintainers(const struct kernel_packages *kp)
{
	return kp->tree ? maintainers_in(kp->tree) : NULL;
}

/* A debian: side's: its linux-source package, when the cache has it. */
static char *debian_maintainers(const char *spec)
{
	struct kernel_packages kp = { 0 };
	struct debian_kernel k;
	char *packages = NULL, *path = NULL;
	/* the side's loading has said what resolving says */
	kabi_print_fn_t print = kabi_set_print(NULL);

	if (!debian_kernel__resolve(&k, spec))
		cache_dir("packages", &packages);
	kabi_set_print(print);
	if (packages && k.id[KERNEL_SOURCE] &&
	    !kernel_packages__cached(&kp, &k.id[KERNEL_SOURCE], 1, packages))
		path = packages_maintainers(&kp);
	kernel_packages__release(&kp);
	debian_kernel__release(&k);
	free(packages);
	return path;
}

/* A directory's: its linux-source package's, or a build's tree's. */
static char *dir_maintainers(const char *dir)
{
	struct kernel_packages kp = { 0 };
	char **debs = NULL, *packages, *path = NULL, *source;
	size_t nr = 0;

	if (!debs_in_dir(dir, &debs, &nr) && nr) {
		if (!cache_dir("packages", &packages) &&
		    !kernel_packages__unpack(&kp, debs, nr, packages, NULL,
					     NULL))
			path = packages_maintainers(&kp);
		kernel_packages__release(&kp);
		free(packages);
	} else {
		/* an O= build links its tree as source */
		source = xasprintf("%s/source", dir);
		path = source ? maintainers_in(source) : NULL;
		free(source);
		if (!path)
			path = maintainers_in(dir);
	}
	strings__free(debs, nr);
	return path;
}

char *side_maintainers(const char *name)
{
	if (debian_spec(name))
		return debian_maintainers(name);
	if (is_dir(name))
		return dir_maintainers(name);
	return NULL;
}

bool side_concurrent(const char *name)
{
	return prepared_for(name) || (!debian_spec(name) && !is_dir(name));
}

/*
 * Whether loading @name means collecting: a build directory or one of
 * packages, or debian:ABI whose snapshot is not cached.  The one that is
 * goes into @p.
 */
static bool needs_collecting(const char *name, struct prepared *p,
			     const struct machine_profile *machine)
{
	struct debian_kernel k;
	char *key = NULL, *json = NULL;
	kabi_print_fn_t print;

	if (!debian_spec(name))
		return is_dir(name);
	/* what resolving reports, the side's own loading reports again */
	print = kabi_set_print(NULL);
	if (!debian_kernel__resolve(&k, name)) {
		key = cache_key(k.id, machine);
		if (key && cache_has(key))
			cache_file(key, "json", &json);
	}
	kabi_set_print(print);
	if (json) {
		debian_kernel__tell(&k);
		snprintf(p->path, sizeof(p->path), "%s", json);
		p->name = name;
	}
	debian_kernel__release(&k);
	free(json);
	free(key);
	return !p->name;
}

/* In a child: collect @name into @p->path; the exit status says how. */
static void __noreturn collect_child(const char *name, const struct prepared *p,
				     const struct machine_profile *machine)
{
	const char *how;
	struct snapshot *s;

	progress_meter_off();
	s = load(name, machine, &how);
	_exit(s && !snapshot__save(s, p->path, ATOMIC_OWN_FILE) ? EXIT_OK : EXIT_TROUBLE);
}

/* Whether @a and @b name the same input: the same words, or one file. */
static bool same_input(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	if (debian_spec(a) || debian_spec(b))
		return false;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int sides_prepare(const char *const *names, size_t nr,
		  const struct machine_profile *machine)
{
	pid_t pid[ARRAY_SIZE(prepared)];
	size_t i, n = 0;
	const char *tmp = getenv("TMPDIR");
	int err = 0, status, fd;
	bool same;

	if (nr > ARRAY_SIZE(prepared))
		return 0;
	machine = of(machine);
	for (i = 0; i < nr; i++)
		n += needs_collecting(names[i], &prepared[i], machine);
	if (n < 2)
		return 0;
	/* the same input twice is collected once, and compared with itself */
	same = nr == 2 && same_input(names[0], names[1]);
	if (same)
		pr_info("%s and %s are the same: collecting it once", names[0],
			names[1]);
	else
		pr_info("collecting %s and %s at once", names[0], names[1]);
	fflush(NULL);
	for (i = 0; !err && i < (same ? 1 : nr); i++) {
		struct prepared *p = &prepared[i];

		snprintf(p->path, sizeof(p->path), "%s/kabidiff-side.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		/* removed by a signal that kills us, or at exit */
		p->slot = cleanup_temp_create(p->path, &fd);
		if (p->slot < 0) {
			err = p->slot;
			pr_err("%s: %s", p->path, strerror(-err));
			break;
		}
		close(fd);
		p->name = names[i];
		p->temporary = true;
		/* dies with us: a signal that kills us ends it first */
		pid[i] = fork_child(false);
		if (!pid[i])
			collect_child(names[i], p, machine);
		if (pid[i] < 0) {
			err = -errno;
			pr_err("cannot start collecting %s: %s", names[i],
			       strerror(-err));
		}
	}
	for (n = i, i = 0; i < n; i++) {
		if (pid[i] > 0 && (child_wait(pid[i], &status, false) ||
				   !WIFEXITED(status) || WEXITSTATUS(status)))
			err = err ? err : -ECHILD;
	}
	if (err) {
		for (i = 0; i < n; i++) {
			if (prepared[i].temporary)
				cleanup_temp_remove(prepared[i].slot);
			prepared[i].name = NULL;
		}
	} else if (same) {
		/* its snapshot is read twice, and goes once at exit */
		prepared[1] = prepared[0];
		prepared[1].name = names[1];
	}
	return err;
}
