// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest-agent/walk.h"
#include "lib/print.h"
#include "sysfs-dir.h"

struct collect {
	const char *prefix;
	struct snapshot *s;
};

static const enum node_kind node_kinds[] = {
	[WALK_DIR]	= NODE_DIR,
	[WALK_FILE]	= NODE_FILE,
	[WALK_LINK]	= NODE_LINK,
	[WALK_OTHER]	= NODE_OTHER,
};

static int add_node(const struct walk_node *wn, void *ctx)
{
	struct collect *c = ctx;
	struct sysfs_node *n = snapshot__add_sysfs_node(c->s);
	size_t len;

	if (!n)
		return -ENOMEM;
	len = strlen(c->prefix) + strlen(wn->path) + 2;
	n->path = malloc(len);
	if (!n->path)
		return -ENOMEM;
	snprintf(n->path, len, "%s%s%s", c->prefix, *wn->path ? "/" : "",
		 wn->path);
	n->kind = node_kinds[wn->kind];
	n->mode = wn->mode;
	if (wn->target) {
		n->target = strdup(wn->target);
		if (!n->target)
			return -ENOMEM;
	}
	return 0;
}

int sysfs_dir__collect(const char *dir, const char *prefix, bool modes,
		       struct snapshot *s)
{
	struct collect c = { .prefix = prefix, .s = s };
	struct walk_stop stop;
	int err;

	s->sysfs.collected = true;
	err = walk_tree(dir, modes ? WALK_FILE_MODES : 0, add_node, &c, &stop);
	if (err)
		pr_err("%s%s%s: %s", dir, *stop.path ? "/" : "", stop.path,
		       stop.reason ? stop.reason : strerror(-err));
	return err;
}
