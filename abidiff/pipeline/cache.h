/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabidiff's cache: $KABIDIFF_CACHE, else kabidiff in $XDG_CACHE_HOME,
 * else ~/.cache/kabidiff.  Kernel trees, builds, downloads, unpacked
 * packages and snapshots live there, each kind in a folder of its own.
 *
 * What is in the cache is trusted (a snapshot found there is not
 * collected again), so the cache is a folder that only we may write: one
 * we created or own, mode 0700, not reached through a symbolic link.
 * Without $HOME or $XDG_CACHE_HOME there is no cache, rather than one
 * under /tmp that anyone could have made first.
 */
#ifndef KABIDIFF_PIPELINE_CACHE_H
#define KABIDIFF_PIPELINE_CACHE_H

/*
 * cache_dir() - the folder @sub of the cache, created where missing, in
 * *@dirp (malloc()ed).  Returns 0 or -errno; a failure other than -ENOMEM
 * is reported.
 */
int cache_dir(const char *sub, char **dirp);

#endif /* KABIDIFF_PIPELINE_CACHE_H */
