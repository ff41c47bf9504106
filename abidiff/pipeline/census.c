// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/census/census.h"
#include "collectors/debian/deb.h"
#include "lib/print.h"
#include "census.h"
#include "progress.h"

/* The -dbg package's DWARF copies: vmlinux and the modules. */
#define DBG_BOOT	"usr/lib/debug/boot/"
#define DBG_MODULES	"usr/lib/debug/lib/modules/"

struct deb_census {
	struct census *census;
	const char *path;
	size_t files;
};

static bool wanted(void *arg, const char *name)
{
	return (!strncmp(name, DBG_BOOT, strlen(DBG_BOOT)) ||
		!strncmp(name, DBG_MODULES, strlen(DBG_MODULES))) &&
	       census_file_wanted(name);
}

static int take(void *arg, const char *name, unsigned char *buf, size_t size)
{
	struct deb_census *dc = arg;
	char module[256], *origin;
	int err;

	census_module_of(name, module, sizeof(module));
	if (asprintf(&origin, "%s: %s", dc->path, name) < 0) {
		free(buf);
		return -ENOMEM;
	}
	err = census__add(dc->census, module, buf, size, origin);
	free(origin);
	dc->files++;
	return err;
}

static int census_of_deb(struct snapshot *s, const char *path)
{
	struct deb_census dc = { .path = path };
	struct deb *deb;
	int err = deb__open(path, &deb);

	if (err)
		return err;
	dc.census = census__new(s);
	err = dc.census ? 0 : -ENOMEM;
	if (!err)
		err = deb__read(deb, wanted, take, CENSUS_FILE_MAX,
				progress_deb, &dc);
	if (!err && !dc.files) {
		pr_err("%s: no vmlinux and no module: not a -dbg kernel package", path);
		err = -EINVAL;
	}
	if (!err)
		err = census__finish(dc.census);
	census__free(dc.census);
	deb__close(deb);
	return err;
}

static bool is_deb(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcmp(path + n - 4, ".deb");
}

int collect_census(struct snapshot *s, const char *path)
{
	return is_deb(path) ? census_of_deb(s, path) : census__collect(s, path);
}
