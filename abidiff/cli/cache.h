/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabidiff's cache: $KABIDIFF_CACHE, by default ~/.cache/kabidiff.  Kernel
 * trees, builds, downloads, unpacked packages and snapshots live there,
 * each kind in a folder of its own.
 */
#ifndef KABIDIFF_CLI_CACHE_H
#define KABIDIFF_CLI_CACHE_H

/*
 * cache_dir() - the folder @sub of the cache, malloc()ed (not created);
 * NULL when out of memory.
 */
char *cache_dir(const char *sub);

#endif /* KABIDIFF_CLI_CACHE_H */
