/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel as Debian packages it: the image package (linux-image-RELEASE,
 * signed, or -unsigned: vmlinuz, config, modules), its -dbg package
 * (vmlinux and the vDSO images, with DWARF) and a linux-source-SERIES
 * package (Documentation/ABI, the syscall tables).  The members kabidiff
 * reads are unpacked once into a cache, one directory per package and
 * version, which later runs reuse.
 */
#ifndef KABIDIFF_DEBIAN_PACKAGES_H
#define KABIDIFF_DEBIAN_PACKAGES_H

#include <stddef.h>

#include "deb.h"

enum kernel_package {
	KERNEL_IMAGE,
	KERNEL_DBG,
	KERNEL_SOURCE,
	KERNEL_PACKAGES
};

struct kernel_packages {
	/* the cache entry of each package given, else NULL */
	char *id[KERNEL_PACKAGES];
	char *build_id;		/* of the image or the -dbg package */
	/* what the collectors read, in the cache; NULL when not given */
	char *vmlinux;		/* -dbg: usr/lib/debug/boot/vmlinux-R */
	char **vdso;		/* -dbg: its vdso64.so, vdso32.so, vdsox32.so */
	size_t nr_vdso;
	char *image;		/* boot/vmlinuz-R */
	char *modules;		/* lib/modules/R, when it has modules.order */
	char *tree;		/* linux-source-SERIES/, in part */
	char *dbg_deb;		/* the -dbg package itself, given or kept */
};

/*
 * kernel_package__id() - the name of the cache entry of package @package
 * of @kind, @version and @architecture: "PACKAGE_VERSION_ARCH", and for a
 * linux-source package the layout of its entries after it ("+2": with the
 * sysctl documents), so that a kabidiff that reads more of the tree
 * unpacks it again rather than reading an entry that lacks it.  Returns a
 * malloc()ed string, or NULL when out of memory.
 */
char *kernel_package__id(enum kernel_package kind, const char *package,
			 const char *version, const char *architecture);

/* A -dbg package's cache entry keeps the package whole under this name. */
#define KERNEL_DBG_KEPT	"package.deb"

/*
 * kernel_dbg_kept() - the path of the -dbg package its cache @entry keeps,
 * or NULL when it keeps none (or only a link) or out of memory.
 */
char *kernel_dbg_kept(const char *entry);


/*
 * kernel_packages__unpack() - the members kabidiff reads of the packages
 * @debs (paths of .deb files, at most one of each kind), from the cache
 * @cache_dir when it has them (PACKAGE_VERSION_ARCH/), else unpacked there.
 *
 * Every package is checked before any is cached: a file that is no
 * Debian package or is cut short, a package that is no kernel image, -dbg
 * or linux-source package, a package for another architecture than amd64,
 * two of a kind, and a -dbg package whose vmlinux's build id is not that
 * of the kernel in the image package are each one error, and then nothing
 * is cached; so is a package that would unpack more than deb_unpack_max()
 * bytes (KABIDIFF_UNPACK_MAX), stopped before it writes them.  A cache
 * entry is renamed into place whole.  @progress, when not NULL, is told
 * how the reading goes.  Returns 0 or -errno, reported.
 */
int kernel_packages__unpack(struct kernel_packages *kp, char *const *debs,
			    size_t nr, const char *cache_dir,
			    deb_progress_fn progress, void *arg);

/*
 * kernel_packages__keep_dbg() - move the -dbg package @kp->dbg_deb, which
 * kernel_packages__unpack() has just read and cached in @cache_dir, into
 * its cache entry (KERNEL_DBG_KEPT), where kernel_packages__cached() finds
 * it; for the census, which reads every module's DWARF out of it.  Only
 * for a package downloaded into the cache: it is renamed, not copied.
 * Returns 0 or -errno, reported.
 */
int kernel_packages__keep_dbg(struct kernel_packages *kp, const char *cache_dir);

/*
 * kernel_packages__cached() - the same from the cache entries @ids
 * ("PACKAGE_VERSION_ARCH", as @kp->id holds them) under @cache_dir, which
 * kernel_packages__unpack() made earlier.  Returns 0, -ENOENT (quietly)
 * when one is not in the cache, or -errno, reported.
 */
int kernel_packages__cached(struct kernel_packages *kp, char *const *ids,
			    size_t nr, const char *cache_dir);

void kernel_packages__release(struct kernel_packages *kp);

/*
 * debs_in_dir() - the paths of the .deb files in @dir, appended to *@debs
 * (strings__free() them).  Returns 0 or -errno (quietly).
 */
int debs_in_dir(const char *dir, char ***debs, size_t *nr);

#endif /* KABIDIFF_DEBIAN_PACKAGES_H */
