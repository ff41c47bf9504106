// SPDX-License-Identifier: GPL-2.0-only
/*
 * A snapshot's sysfs part as a tree: parents, children and link targets.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "sysfs-tree.h"

int32_t sysfs_tree__find(const struct sysfs_tree *t, const char *path,
			 size_t len)
{
	return array__find_name(t->v, t->nr, sizeof(*t->v),
				offsetof(struct sysfs_node, path), path, len);
}

const char *sysfs_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *sysfs_link_resolve(const char *link, const char *target)
{
	size_t dirlen = sysfs_basename(link) - link;
	size_t len = dirlen + strlen(target) + 2, out = 0;
	char *path = malloc(len), *res = malloc(len);
	const char *p, *end;

	if (!path || !res) {
		free(path);
		free(res);
		return NULL;
	}
	if (target[0] == '/')
		snprintf(path, len, "%s", target);
	else
		snprintf(path, len, "%.*s%s", (int)dirlen, link, target);
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		if (end == p || (end - p == 1 && p[0] == '.'))
			continue;
		if (end - p == 2 && p[0] == '.' && p[1] == '.') {
			while (out && res[--out] != '/')
				;
			continue;
		}
		res[out++] = '/';
		memcpy(res + out, p, end - p);
		out += end - p;
	}
	res[out] = '\0';
	free(path);
	return res;
}

/* Parents, children in path order (a CSR array) and link targets. */
int sysfs_tree__build(struct sysfs_tree *t, const struct snapshot *s)
{
	size_t i, n = s->sysfs.nr;
	int32_t *fill;

	t->v = s->sysfs.v;
	t->nr = n;
	t->parent = calloc(n + 1, sizeof(int32_t));
	t->first = calloc(n + 2, sizeof(int32_t));
	t->child = calloc(n + 1, sizeof(int32_t));
	t->target = calloc(n + 1, sizeof(int32_t));
	fill = calloc(n + 1, sizeof(int32_t));
	if (!t->parent || !t->first || !t->child || !t->target || !fill)
		goto out_nomem;
	for (i = 0; i < n; i++) {
		const char *path = t->v[i].path;
		const char *name = sysfs_basename(path);

		/* a path with no '/' (a damaged snapshot's) has no parent */
		t->parent[i] = name == path ? -1 :
			       sysfs_tree__find(t, path, name - path - 1);
		if (t->parent[i] >= 0)
			t->first[t->parent[i] + 1]++;
		t->target[i] = -1;
		if (t->v[i].kind == NODE_LINK && t->v[i].target) {
			char *abs = sysfs_link_resolve(path, t->v[i].target);

			if (!abs)
				goto out_nomem;
			t->target[i] = sysfs_tree__find(t, abs, strlen(abs));
			free(abs);
		}
	}
	for (i = 0; i < n; i++)
		t->first[i + 1] += t->first[i];
	for (i = 0; i < n; i++)
		if (t->parent[i] >= 0)
			t->child[t->first[t->parent[i]] + fill[t->parent[i]]++] = i;
	free(fill);
	return 0;

out_nomem:
	free(fill);
	return -ENOMEM;
}

void sysfs_tree__release(struct sysfs_tree *t)
{
	free(t->parent);
	free(t->first);
	free(t->child);
	free(t->target);
}
