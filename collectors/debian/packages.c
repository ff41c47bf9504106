// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unpacking a kernel's Debian packages into the cache.  Each package not
 * cached yet is unpacked into a temporary directory beside its cache entry
 * (".tmp.PID.PACKAGE_VERSION_ARCH.XXXXXX"), checked, and renamed into place
 * only once every package given passed, so a failed check caches nothing
 * and an interrupted run leaves a temporary directory that the next run
 * sweeps once its process is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>

#include "collectors/bzimage/bzimage.h"
#include "collectors/dwarf/elf.h"
#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "packages.h"

#define BUILD_ID_FILE	".kabidiff-build-id"
#define BUILD_ID_MAX	128

static const char *const kind_names[KERNEL_PACKAGES] = {
	[KERNEL_IMAGE] = "kernel image",
	[KERNEL_DBG] = "-dbg",
	[KERNEL_SOURCE] = "linux-source",
};

/* One package on its way into the cache. */
struct unpacking {
	const char *path;		/* the .deb */
	struct deb *deb;
	enum kernel_package kind;
	char *release;			/* 6.1.0-57-amd64; for the source, 6.1 */
	char *entry;			/* CACHE/PACKAGE_VERSION_ARCH */
	char *tmp;			/* where it is unpacked; NULL: cached */
	char build_id[BUILD_ID_MAX];
};

static char *join(const char *a, const char *b)
{
	return xasprintf("%s/%s", a, b);
}

/* The kind of package @name is, and the release or series it names. */
static int classify(struct unpacking *u, const char *name)
{
	static const char image[] = "linux-image-", source[] = "linux-source-";
	size_t len = strlen(name), cut = 0;

	if (!strncmp(name, source, strlen(source))) {
		u->kind = KERNEL_SOURCE;
		u->release = strdup(name + strlen(source));
		return u->release ? 0 : -ENOMEM;
	}
	if (strncmp(name, image, strlen(image))) {
		pr_err("%s: %s is no kernel image, -dbg or linux-source package",
		       u->path, name);
		return -EINVAL;
	}
	u->kind = KERNEL_IMAGE;
	if (len > 4 && !strcmp(name + len - 4, "-dbg")) {
		u->kind = KERNEL_DBG;
		cut = 4;
	} else if (len > 9 && !strcmp(name + len - 9, "-unsigned")) {
		cut = 9;
	}
	u->release = strndup(name + strlen(image), len - strlen(image) - cut);
	return u->release ? 0 : -ENOMEM;
}

static int check_architecture(const struct unpacking *u)
{
	const struct deb_control *c = deb__control(u->deb);
	const char *want = u->kind == KERNEL_SOURCE ? "all" : "amd64";

	if (!strcmp(c->architecture, want))
		return 0;
	pr_err("%s: %s is a package for %s; kabidiff reads the amd64 kernel's",
	       u->path, c->package, c->architecture);
	return -EINVAL;
}

/* Open @u->path, tell its kind, and find its cache entry. */
static int open_package(struct unpacking *u, const char *cache_dir)
{
	const struct deb_control *c;
	int err = deb__open(u->path, &u->deb);
	char *id;

	if (err)
		return err;
	c = deb__control(u->deb);
	err = classify(u, c->package);
	if (!err)
		err = check_architecture(u);
	if (err)
		return err;
	id = kernel_package__id(u->kind, c->package, c->version,
				c->architecture);
	u->entry = id ? join(cache_dir, id) : NULL;
	free(id);
	return u->entry ? 0 : -ENOMEM;
}

/* The layout of a source entry: 2 has the sysctl documents. */
#define KERNEL_SOURCE_LAYOUT	"+2"

char *kernel_package__id(enum kernel_package kind, const char *package,
			 const char *version, const char *architecture)
{
	return xasprintf("%s_%s_%s%s", package, version, architecture,
			 kind == KERNEL_SOURCE ? KERNEL_SOURCE_LAYOUT : "");
}

/* The tarball of a source package and the members read from it. */
#define SOURCE_MEMBERS	6

/* The members kabidiff reads of each kind of package. */
static int take_rules(const struct unpacking *u, char **paths,
		      struct deb_take *take, struct deb_take *inner)
{
	const char *r = u->release;
	size_t i;

	switch (u->kind) {
	case KERNEL_IMAGE:
		paths[0] = xasprintf("boot/vmlinuz-%s", r);
		paths[1] = xasprintf("boot/config-%s", r);
		paths[2] = xasprintf("lib/modules/%s/", r);
		break;
	case KERNEL_DBG:
		paths[0] = xasprintf("usr/lib/debug/boot/vmlinux-%s", r);
		paths[1] = xasprintf("usr/lib/debug/lib/modules/%s/vdso/", r);
		break;
	default:
		/*
		 * The tree is one tarball: what the docs (the sysctl
		 * documents among them) and syscalls need.
		 */
		paths[0] = xasprintf("usr/src/linux-source-%s.tar.xz", r);
		paths[1] = xasprintf("linux-source-%s/Documentation/ABI/", r);
		paths[2] = xasprintf("linux-source-%s/Documentation/admin-guide/sysctl/", r);
		paths[3] = xasprintf("linux-source-%s/Documentation/networking/", r);
		paths[4] = xasprintf("linux-source-%s/arch/x86/entry/syscalls/", r);
		paths[5] = xasprintf("linux-source-%s/MAINTAINERS", r);
		take[0].inner = inner;
		for (i = 1; i < SOURCE_MEMBERS; i++) {
			if (!paths[i])
				return -ENOMEM;
			inner[i - 1].path = paths[i];
		}
		take[0].path = paths[0];
		return paths[0] ? 0 : -ENOMEM;
	}
	for (i = 0; i < 3 && paths[i]; i++)
		take[i].path = paths[i];
	return paths[0] && paths[1] && (u->kind != KERNEL_IMAGE || paths[2]) ?
	       0 : -ENOMEM;
}

static int write_build_id(const struct unpacking *u)
{
	char *path = join(u->tmp, BUILD_ID_FILE);
	FILE *f;
	int err = 0;

	if (!path)
		return -ENOMEM;
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", u->build_id) < 0)
		err = -errno;
	if (f && fclose(f) && !err)
		err = -errno;
	if (err)
		pr_err("%s: %s", path, strerror(-err));
	free(path);
	return err;
}

static int read_build_id(struct unpacking *u)
{
	char *path = join(u->entry, BUILD_ID_FILE), *buf = NULL;
	size_t len;
	int err;

	if (!path)
		return -ENOMEM;
	err = read_file_or_report(path, SMALL_FILE_MAX, &buf, &len);
	if (!err)
		snprintf(u->build_id, sizeof(u->build_id), "%.*s",
			 (int)strcspn(buf, "\n"), buf);
	free(buf);
	free(path);
	return err;
}

static int vmlinux_build_id(struct unpacking *u, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	Elf *elf;

	if (fd < 0) {
		err = -errno;
		pr_err("%s: %s has no %s", u->path,
		       deb__control(u->deb)->package, strrchr(path, '/') + 1);
		return err;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_build_id(elf, u->build_id, sizeof(u->build_id))) {
		pr_err("%s: %s has no build id", u->path, path);
		err = -EINVAL;
	}
	elf_end(elf);
	close(fd);
	return err;
}

/* Where in an entry @base (a temporary one, or the cache's) a member is. */
static char *member(const struct unpacking *u, const char *base, int which)
{
	const char *r = u->release;

	switch (u->kind) {
	case KERNEL_IMAGE:
		return which ? xasprintf("%s/lib/modules/%s", base, r) :
		       xasprintf("%s/boot/vmlinuz-%s", base, r);
	case KERNEL_DBG:
		return which ? xasprintf("%s/usr/lib/debug/lib/modules/%s/vdso", base, r) :
		       xasprintf("%s/usr/lib/debug/boot/vmlinux-%s", base, r);
	default:
		return xasprintf("%s/linux-source-%s", base, r);
	}
}

/* The package unpacked: has it what it should, and which kernel is it? */
static int check_unpacked(struct unpacking *u)
{
	char *main_member = member(u, u->tmp, 0), *abi = NULL;
	const char *package = deb__control(u->deb)->package;
	int err = 0;

	if (!main_member)
		return -ENOMEM;
	switch (u->kind) {
	case KERNEL_IMAGE:
		if (access(main_member, F_OK)) {
			pr_err("%s: %s has no boot/vmlinuz-%s", u->path, package,
			       u->release);
			err = -EINVAL;
		} else {
			err = bzimage__build_id(main_member, u->build_id,
						sizeof(u->build_id));
		}
		break;
	case KERNEL_DBG:
		err = vmlinux_build_id(u, main_member);
		break;
	default:
		abi = join(main_member, "Documentation/ABI");
		if (!abi) {
			err = -ENOMEM;
		} else if (!is_dir(abi)) {
			pr_err("%s: %s has no usr/src/linux-source-%s.tar.xz with a Documentation/ABI",
			       u->path, package, u->release);
			err = -EINVAL;
		}
	}
	if (!err && u->kind != KERNEL_SOURCE)
		err = write_build_id(u);
	free(abi);
	free(main_member);
	return err;
}

static int unpack(struct unpacking *u, const char *cache_dir, uint64_t max,
		  deb_progress_fn progress, void *arg)
{
	struct deb_take take[SOURCE_MEMBERS] = { { 0 } };
	struct deb_take inner[SOURCE_MEMBERS] = { { 0 } };
	char *paths[SOURCE_MEMBERS] = { 0 };
	const char *name = strrchr(u->entry, '/') + 1;
	size_t i;
	int err;

	if (is_dir(u->entry))
		return u->kind == KERNEL_SOURCE ? 0 : read_build_id(u);
	err = make_dirs(cache_dir);
	if (err) {
		pr_err("%s: %s", cache_dir, strerror(-err));
		return err;
	}
	u->tmp = xasprintf("%s/.tmp.%d.%s.XXXXXX", cache_dir, (int)getpid(), name);
	if (!u->tmp)
		return -ENOMEM;
	if (!mkdtemp(u->tmp)) {
		err = -errno;
		pr_err("%s: %s", u->tmp, strerror(-err));
		free(u->tmp);
		u->tmp = NULL;
		return err;
	}
	pr_info("unpacking %s", name);
	err = take_rules(u, paths, take, inner);
	if (!err)
		err = deb__extract(u->deb, take, u->tmp, max, progress, arg);
	if (!err)
		err = check_unpacked(u);
	for (i = 0; i < ARRAY_SIZE(paths); i++)
		free(paths[i]);
	return err;
}

/* The -dbg package must be of the image package's build. */
static int check_same_build(const struct unpacking *image,
			    const struct unpacking *dbg)
{
	if (!image || !dbg || !strcmp(image->build_id, dbg->build_id))
		return 0;
	pr_err("%s: its vmlinux (build id %s) is not the kernel of %s (build id %s)",
	       dbg->path, dbg->build_id, image->path, image->build_id);
	return -EINVAL;
}

/* The temporary directory into the cache; another run's is as good. */
static int commit(struct unpacking *u)
{
	int err = 0;

	if (!u->tmp)
		return 0;
	if (rename(u->tmp, u->entry)) {
		err = -errno;
		if ((err == -ENOTEMPTY || err == -EEXIST) && is_dir(u->entry))
			err = 0;
		else
			pr_err("%s: %s", u->entry, strerror(-err));
		remove_tree(u->tmp);
	}
	free(u->tmp);
	u->tmp = NULL;
	return err;
}

char *kernel_dbg_kept(const char *entry)
{
	char *path = join(entry, KERNEL_DBG_KEPT);
	struct stat st;

	if (path && (lstat(path, &st) || !S_ISREG(st.st_mode))) {
		free(path);
		path = NULL;
	}
	return path;
}

/* What the collectors read, from the cache entries. */
static int fill(struct kernel_packages *kp, struct unpacking *u)
{
	static const char *const images[] = {
		"vdso64.so", "vdso32.so", "vdsox32.so",
	};
	char *vdso_dir, *path, *order;
	size_t i;
	int err = 0;

	kp->id[u->kind] = strdup(strrchr(u->entry, '/') + 1);
	if (!kp->id[u->kind])
		return -ENOMEM;
	if (u->kind != KERNEL_SOURCE && !kp->build_id) {
		kp->build_id = strdup(u->build_id);
		if (!kp->build_id)
			return -ENOMEM;
	}
	switch (u->kind) {
	case KERNEL_IMAGE:
		kp->image = member(u, u->entry, 0);
		kp->modules = member(u, u->entry, 1);
		order = kp->modules ? join(kp->modules, "modules.order") : NULL;
		if (order && access(order, F_OK)) {
			free(kp->modules);
			kp->modules = NULL;
		}
		err = kp->image && order ? 0 : -ENOMEM;
		free(order);
		return err;
	case KERNEL_DBG:
		kp->vmlinux = member(u, u->entry, 0);
		vdso_dir = member(u, u->entry, 1);
		if (u->deb)
			kp->dbg_deb = strdup(u->path);
		else
			kp->dbg_deb = kernel_dbg_kept(u->entry);
		if (!kp->vmlinux || !vdso_dir || (u->deb && !kp->dbg_deb))
			err = -ENOMEM;
		for (i = 0; !err && i < ARRAY_SIZE(images); i++) {
			path = join(vdso_dir, images[i]);
			if (!path)
				err = -ENOMEM;
			else if (!access(path, F_OK))
				err = strings__append(&kp->vdso, &kp->nr_vdso, path);
			free(path);
		}
		free(vdso_dir);
		return err;
	default:
		kp->tree = member(u, u->entry, 0);
		return kp->tree ? 0 : -ENOMEM;
	}
}

static void release_unpacking(struct unpacking *u)
{
	if (u->tmp)
		remove_tree(u->tmp);
	free(u->tmp);
	free(u->entry);
	free(u->release);
	deb__close(u->deb);
}

static int check_kinds(struct unpacking *u, size_t nr,
		       struct unpacking *of[KERNEL_PACKAGES])
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct unpacking *other = of[u[i].kind];

		if (other) {
			pr_err("%s and %s are both %s packages: give one of each",
			       other->path, u[i].path, kind_names[u[i].kind]);
			return -EINVAL;
		}
		of[u[i].kind] = &u[i];
	}
	return 0;
}

/* @u's packages into @kp when all went well (@err 0); @u released. */
static int finish(struct kernel_packages *kp, struct unpacking *u, size_t nr,
		  int err)
{
	size_t i;

	for (i = 0; !err && i < nr; i++)
		err = fill(kp, &u[i]);
	for (i = 0; u && i < nr; i++)
		release_unpacking(&u[i]);
	free(u);
	if (err == -ENOMEM)
		pr_err("out of memory");
	return err;
}

int kernel_packages__cached(struct kernel_packages *kp, char *const *ids,
			    size_t nr, const char *cache_dir)
{
	struct unpacking *u = calloc(nr, sizeof(*u));
	struct unpacking *of[KERNEL_PACKAGES] = { NULL };
	size_t i;
	int err = u ? 0 : -ENOMEM;

	for (i = 0; !err && i < nr; i++) {
		char *package = strndup(ids[i], strcspn(ids[i], "_"));

		u[i].path = ids[i];
		u[i].entry = join(cache_dir, ids[i]);
		err = package && u[i].entry ? classify(&u[i], package) : -ENOMEM;
		free(package);
		if (!err && !is_dir(u[i].entry))
			err = -ENOENT;
		else if (!err && u[i].kind != KERNEL_SOURCE)
			err = read_build_id(&u[i]);
	}
	if (!err)
		err = check_kinds(u, nr, of);
	if (!err)
		err = check_same_build(of[KERNEL_IMAGE], of[KERNEL_DBG]);
	return finish(kp, u, nr, err);
}

int kernel_packages__unpack(struct kernel_packages *kp, char *const *debs,
			    size_t nr, const char *cache_dir,
			    deb_progress_fn progress, void *arg)
{
	struct unpacking *u = calloc(nr, sizeof(*u));
	struct unpacking *of[KERNEL_PACKAGES] = { NULL };
	uint64_t max;
	size_t i;
	int err = u ? deb_unpack_max(&max) : -ENOMEM;

	for (i = 0; !err && i < nr; i++) {
		u[i].path = debs[i];
		err = open_package(&u[i], cache_dir);
	}
	if (!err)
		err = check_kinds(u, nr, of);
	if (!err)
		remove_stale_tmp_dirs(cache_dir);
	for (i = 0; !err && i < nr; i++)
		err = unpack(&u[i], cache_dir, max, progress, arg);
	if (!err)
		err = check_same_build(of[KERNEL_IMAGE], of[KERNEL_DBG]);
	for (i = 0; !err && i < nr; i++)
		err = commit(&u[i]);
	return finish(kp, u, nr, err);
}

int kernel_packages__keep_dbg(struct kernel_packages *kp, const char *cache_dir)
{
	char *entry = kp->id[KERNEL_DBG] ? join(cache_dir, kp->id[KERNEL_DBG]) : NULL;
	char *kept = entry ? join(entry, KERNEL_DBG_KEPT) : NULL;
	int err = 0;

	if (!kp->dbg_deb || !kp->id[KERNEL_DBG]) {
		pr_err("no -dbg package to keep in %s", cache_dir);
		err = -EINVAL;
	} else if (!kept) {
		pr_err("out of memory");
		err = -ENOMEM;
	} else if (rename(kp->dbg_deb, kept)) {
		err = -errno;
		pr_err("%s: %s", kept, strerror(-err));
	} else {
		free(kp->dbg_deb);
		kp->dbg_deb = kept;
		kept = NULL;
	}
	free(kept);
	free(entry);
	return err;
}

int debs_in_dir(const char *dir, char ***debs, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = d ? 0 : -errno;

	while (!err && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char *path;

		if (len < 5 || strcmp(de->d_name + len - 4, ".deb"))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		err = path ? strings__append(debs, nr, path) : -ENOMEM;
		free(path);
	}
	if (d)
		closedir(d);
	return err;
}

void kernel_packages__release(struct kernel_packages *kp)
{
	size_t i;

	for (i = 0; i < KERNEL_PACKAGES; i++)
		free(kp->id[i]);
	strings__free(kp->vdso, kp->nr_vdso);
	free(kp->build_id);
	free(kp->vmlinux);
	free(kp->image);
	free(kp->modules);
	free(kp->tree);
	free(kp->dbg_deb);
	memset(kp, 0, sizeof(*kp));
}
