// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "lib/bytes.h"
#include "cache.h"

char *cache_dir(const char *sub)
{
	const char *cache = getenv("KABIDIFF_CACHE"), *home = getenv("HOME");

	if (cache && *cache)
		return xasprintf("%s/%s", cache, sub);
	return xasprintf("%s/.cache/kabidiff/%s", home && *home ? home : "/tmp",
			 sub);
}
