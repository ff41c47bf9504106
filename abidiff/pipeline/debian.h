/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * debian:ABI[-FLAVOUR]: a kernel of Debian's archive, named as its
 * packages name it ("debian:6.1.0-57", "debian:6.12.118+deb12",
 * "debian:6.12.118+deb12-cloud-amd64"), fetched with apt-get download.
 * debian:SERIES[-FLAVOUR] ("debian:6.12") is the series' newest ABI, and
 * a flavour may leave out its architecture ("debian:6.1.0-57-cloud").
 */
#ifndef KABIDIFF_PIPELINE_DEBIAN_H
#define KABIDIFF_PIPELINE_DEBIAN_H

#include <stdbool.h>

#include "collectors/debian/packages.h"

#define DEBIAN_PREFIX	"debian:"

/* The three packages of one kernel: image (-unsigned), -dbg, source. */
struct debian_kernel {
	const char *spec;		/* as given */
	char *series;			/* "6.1" */
	char *release;			/* ABI-FLAVOUR: "6.1.0-57-amd64" */
	bool chosen;			/* @release chosen among the archive's */
	char *name[KERNEL_PACKAGES];
	char *version[KERNEL_PACKAGES];
	char *id[KERNEL_PACKAGES];	/* PACKAGE_VERSION_ARCH */
};

/* debian_spec() - whether @name is a debian:ABI[-FLAVOUR]. */
bool debian_spec(const char *name);

/*
 * debian_kernel__resolve() - the packages and versions of @spec, as
 * apt-cache knows them: the release (of a series, the newest), the
 * image's and -dbg's version, and the source at that version or, when the
 * archive no longer has it, the nearest older one (else newer), with a
 * warning.  Returns 0 or -errno, reported.
 */
int debian_kernel__resolve(struct debian_kernel *k, const char *spec);

/* debian_kernel__tell() - say which release was chosen, if @k chose one. */
void debian_kernel__tell(const struct debian_kernel *k);

/*
 * debian_kernel__fetch() - @k's packages in the cache @packages_dir,
 * downloading and unpacking those it lacks, into @kp.  The -dbg package
 * is also kept whole in its cache entry (@kp->dbg_deb) for the census,
 * which reads every module's DWARF out of it; an entry without it is
 * downloaded again.  Returns 0 or -errno, reported.
 */
int debian_kernel__fetch(const struct debian_kernel *k,
			 const char *packages_dir, struct kernel_packages *kp);

void debian_kernel__release(struct debian_kernel *k);

#endif /* KABIDIFF_PIPELINE_DEBIAN_H */
