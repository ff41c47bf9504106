// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sysfs (and /proc/sys) part of the diff.
 *
 * Nodes are paired by path.  A device may move though: its real directory
 * under /sys/devices changes (a new parent bus, a renamed platform device)
 * while the names users know it by, links such as /sys/class/tty/ttyS0,
 * stay.  Pairing by real path alone would report every attribute of such a
 * device removed, and judge each removal by the documentation of its
 * attribute: a stable break for a device that is still there.
 *
 * So before pairing, every link that exists in both trees is followed on
 * both sides.  When it points to a directory O in the old tree and N in the
 * new one, O is gone from the new tree and N was not in the old one, O has
 * moved to N: the nodes below O are paired with the nodes at the same place
 * below N, and O itself yields one "node-moved" change.  A link's target is
 * then compared through the pairing, so links whose text changed only
 * because their target moved are not changes either.  Directories that only
 * held moved nodes (the old device's parents) are not reported removed, nor
 * the new parents added.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "match/sysfs-tree.h"
#include "parts.h"

struct sysfs_diff {
	struct sysfs_tree a, b;		/* the old and the new tree */
	int32_t *moved_to;	/* old move roots: their new node, else -1 */
	int32_t *pair_a;	/* old node: its new node, or -1 */
	int32_t *pair_b;	/* new node: its old node, or -1 */
	bool *quiet_a, *quiet_b;	/* unpaired, but only moved nodes below */
	struct diff *d;
};

/* The absolute path a link node points to; NULL (ENOMEM). */
static char *link_target(const struct sysfs_node *n)
{
	return sysfs_link_resolve(n->path, n->target ? n->target : "");
}

/* A link of both trees, followed on both sides: does it reveal a move? */
static void note_move(struct sysfs_diff *sd, int32_t i, int32_t j)
{
	int32_t o = sd->a.target[i], n = sd->b.target[j];
	const char *old_path, *new_path;

	if (o < 0 || n < 0 || sd->a.v[o].kind != NODE_DIR ||
	    sd->b.v[n].kind != NODE_DIR)
		return;
	old_path = sd->a.v[o].path;
	new_path = sd->b.v[n].path;
	if (!strcmp(old_path, new_path) ||
	    sysfs_tree__find(&sd->b, old_path, strlen(old_path)) >= 0 ||
	    sysfs_tree__find(&sd->a, new_path, strlen(new_path)) >= 0)
		return;
	sd->moved_to[o] = n;
}

static void find_moves(struct sysfs_diff *sd)
{
	size_t i;
	int32_t j;

	for (i = 0; i < sd->a.nr; i++) {
		const char *path = sd->a.v[i].path;

		if (sd->a.v[i].kind != NODE_LINK)
			continue;
		j = sysfs_tree__find(&sd->b, path, strlen(path));
		if (j >= 0 && sd->b.v[j].kind == NODE_LINK)
			note_move(sd, i, j);
	}
}

/*
 * The new node that old node @i is through the nearest moved directory at
 * or above it, into *@out; -1 when there is none.  Returns 0 or -ENOMEM.
 */
static int pair_through_move(struct sysfs_diff *sd, int32_t i, int32_t *out)
{
	const char *path = sd->a.v[i].path;
	int32_t root = i;
	char *mapped;

	*out = -1;
	while (root >= 0 && sd->moved_to[root] < 0)
		root = sd->a.parent[root];
	if (root < 0)
		return 0;
	mapped = xasprintf("%s%s", sd->b.v[sd->moved_to[root]].path,
			   path + strlen(sd->a.v[root].path));
	if (!mapped)
		return -ENOMEM;
	*out = sysfs_tree__find(&sd->b, mapped, strlen(mapped));
	free(mapped);
	return 0;
}

static int pair_nodes(struct sysfs_diff *sd)
{
	size_t i;

	for (i = 0; i < sd->b.nr; i++)
		sd->pair_b[i] = -1;
	for (i = 0; i < sd->a.nr; i++) {
		const char *path = sd->a.v[i].path;
		int32_t j = sysfs_tree__find(&sd->b, path, strlen(path));

		if ((j < 0 || sd->pair_b[j] >= 0) && pair_through_move(sd, i, &j))
			return -ENOMEM;
		if (j >= 0 && sd->pair_b[j] >= 0)
			j = -1;		/* taken by its own old path */
		sd->pair_a[i] = j;
		if (j >= 0)
			sd->pair_b[j] = i;
	}
	return 0;
}

/*
 * Unpaired directories whose subtree holds moved nodes and nothing else
 * unpaired are the scaffolding of a move, not removals (or additions).
 */
static void find_scaffolding(const struct sysfs_tree *t, const int32_t *pair,
			     bool *quiet)
{
	bool *has_paired = calloc(t->nr + 1, sizeof(bool));
	bool *has_lost = calloc(t->nr + 1, sizeof(bool));
	size_t i;
	int32_t p;

	if (!has_paired || !has_lost)
		goto out;	/* then every removal is reported: still true */
	for (i = 0; i < t->nr; i++) {
		bool lost = pair[i] < 0 && (t->v[i].kind != NODE_DIR ||
					    t->first[i] == t->first[i + 1]);
		bool *flag = lost ? has_lost : has_paired;

		if (pair[i] < 0 && !lost)
			continue;	/* a directory: its children decide */
		for (p = t->parent[i]; p >= 0 && !flag[p]; p = t->parent[p])
			flag[p] = true;
	}
	for (i = 0; i < t->nr; i++)
		quiet[i] = pair[i] < 0 && has_paired[i] && !has_lost[i];
out:
	free(has_paired);
	free(has_lost);
}

static const char *shape_name(const struct node_value *v)
{
	return v->shape == SHAPE_NONE ? NULL : value_shape__name(v->shape);
}

/* "file 0444 uint", "link -> ../../devices/x": what a node is. */
static char *describe_node(const struct sysfs_node *n)
{
	const char *shape = shape_name(&n->value);

	if (n->kind == NODE_LINK)
		return xasprintf("link -> %s", n->target ? n->target : "?");
	return xasprintf("%s %04o%s%s", node_kind__name(n->kind), n->mode,
			 shape ? " " : "", shape ? shape : "");
}

/* A node of one side only: @kind says which (removed or added). */
static int node_alone(struct sysfs_diff *sd, int32_t i, enum change_kind kind)
{
	bool removed = kind == CHANGE_NODE_REMOVED ||
		       kind == CHANGE_INSTANCE_REMOVED;
	const struct sysfs_node *n = removed ? &sd->a.v[i] : &sd->b.v[i];
	char *what = describe_node(n);
	int err = -ENOMEM;

	if (what)
		err = removed ?
		      diff_add(sd->d, kind, n->path, what, NULL, i, -1) :
		      diff_add(sd->d, kind, n->path, NULL, what, -1, i);
	free(what);
	return err;
}

static int add_formatted(struct sysfs_diff *sd, enum change_kind kind,
			 int32_t i, int32_t j, char *was, char *now)
{
	int err = was && now ? diff_add(sd->d, kind, sd->a.v[i].path, was, now,
					i, j) : -ENOMEM;

	free(was);
	free(now);
	return err;
}

static int compare_mode(struct sysfs_diff *sd, int32_t i, int32_t j)
{
	unsigned int was = sd->a.v[i].mode, now = sd->b.v[j].mode;
	int err = 0;

	if (was & ~now)
		err = add_formatted(sd, CHANGE_MODE_LOST, i, j,
				    xasprintf("%04o", was), xasprintf("%04o", now));
	if (!err && (now & ~was))
		err = add_formatted(sd, (now & ~was & 0002) ?
				    CHANGE_WORLD_WRITABLE : CHANGE_MODE_GAINED,
				    i, j, xasprintf("%04o", was),
				    xasprintf("%04o", now));
	return err;
}

/* Where a link points, compared through the pairing. */
static int compare_link(struct sysfs_diff *sd, int32_t i, int32_t j)
{
	const struct sysfs_node *a = &sd->a.v[i], *b = &sd->b.v[j];
	int32_t ta = sd->a.target[i], tb = sd->b.target[j];
	bool same;

	if (ta >= 0 && tb >= 0) {
		same = sd->pair_a[ta] == tb;
	} else if (ta >= 0 || tb >= 0) {
		same = false;	/* dangling on one side only */
	} else {
		char *abs_a = link_target(a), *abs_b = link_target(b);

		if (!abs_a || !abs_b) {
			free(abs_a);
			free(abs_b);
			return -ENOMEM;
		}
		same = !strcmp(abs_a, abs_b);
		free(abs_a);
		free(abs_b);
	}
	if (same)
		return 0;
	return add_formatted(sd, CHANGE_LINK_TARGET_CHANGED, i, j,
			     xasprintf("%s", a->target ? a->target : "?"),
			     xasprintf("%s", b->target ? b->target : "?"));
}

/*
 * Does a value of shape @big include every value of shape @small?  An
 * empty value fits any shape, an unsigned number is a number, a word a
 * list of one word, a list one line of text.
 */
static bool shape_includes(enum value_shape big, enum value_shape small)
{
	switch (small) {
	case SHAPE_EMPTY:
		return true;
	case SHAPE_UINT:
		return big == SHAPE_INT;
	case SHAPE_WORD:
		return big == SHAPE_LIST || big == SHAPE_TEXT;
	case SHAPE_LIST:
		return big == SHAPE_TEXT;
	default:
		return false;
	}
}

/*
 * A shape is what one reading showed.  The new shape including the old
 * one is a compatible change; the opposite (a number that was negative at
 * one boot and is not at the next) says nothing and is not reported: -1.
 */
static int shape_change(enum value_shape was, enum value_shape now)
{
	if (now == SHAPE_UNREADABLE)
		return CHANGE_BECAME_UNREADABLE;
	if (was == SHAPE_UNREADABLE || shape_includes(now, was))
		return CHANGE_VALUE_SHAPE_WIDENED;
	if (shape_includes(was, now))
		return -1;
	return CHANGE_VALUE_SHAPE_CHANGED;
}

static int compare_value(struct sysfs_diff *sd, int32_t i, int32_t j)
{
	const struct node_value *a = &sd->a.v[i].value, *b = &sd->b.v[j].value;
	int kind;

	if (a->shape == SHAPE_NONE || b->shape == SHAPE_NONE ||
	    a->shape == b->shape)
		return 0;
	kind = shape_change(a->shape, b->shape);
	if (kind < 0)
		return 0;
	return add_formatted(sd, kind, i, j,
			     xasprintf("%s", value_shape__name(a->shape)),
			     b->error ? xasprintf("%s (%s)", value_shape__name(b->shape),
						  b->error) :
			     xasprintf("%s", value_shape__name(b->shape)));
}

static int compare_nodes(struct sysfs_diff *sd, int32_t i, int32_t j)
{
	const struct sysfs_node *a = &sd->a.v[i], *b = &sd->b.v[j];
	int err = 0;

	if (sd->moved_to[i] == j)
		err = diff_add(sd->d, CHANGE_NODE_MOVED, a->path, a->path, b->path,
			       i, j);
	if (err)
		return err;
	if (a->kind != b->kind)
		return add_formatted(sd, CHANGE_NODE_KIND_CHANGED, i, j,
				     describe_node(a), describe_node(b));
	if (a->kind == NODE_LINK)
		return compare_link(sd, i, j);
	err = compare_mode(sd, i, j);
	return err ? err : compare_value(sd, i, j);
}

/*
 * Removals judged per documented pattern.
 *
 * The documentation promises an interface, /sys/kernel/slab/<cache>/order,
 * and a tree holds instances of it, one per cache.  An instance going away
 * (a cache NEW merges with another) is not the interface going away: while
 * some node of NEW still matches the What: line an old node matched, the
 * old node's removal is an "instance-removed", a compatible change.  A
 * What: line that loses every instance is a removed interface, reported
 * once: one "node-removed" with the pattern for subject and the lost nodes
 * as its instances (a pattern with a single lost node keeps that node's
 * path as subject).  The pattern is a What: line of the entry that judges
 * the node (the most stable one documenting it): an entry documenting
 * .../address and .../module loses .../module when no module link is left,
 * whatever .../address still has.  A node matched by several What: lines
 * of its entry is an instance while any of them keeps instances.
 *
 * Added nodes are the mirror image: a node of NEW matching a What: line
 * that had instances in OLD is an "instance-added"; a node of a pattern new
 * to NEW stays a "node-added".
 *
 * Undocumented removals have no pattern, so one is made of the path where a
 * component is plainly an instance.  Take the highest removed directory
 * above the node (or the node itself), R, and its parent P, which NEW
 * kept.  R is an instance of P's contents when its name is a number (a
 * PCI slot "12", a "10:125" device number), or when it is a directory or a
 * link and some other entry of P is still in NEW (a slab cache merged
 * away, a platform device renamed).  The node's shape is then its path
 * with R's name replaced by an asterisk, and the removals of one shape are
 * one "node-removed" with the shape for subject, listing them.  Such a
 * removal stays what it was, undocumented; it is only said once.  The
 * level of any group is that of its first instance.
 */
struct group_member {
	uint32_t what;		/* the What: line's number, or NO_WHAT */
	char *shape;		/* undocumented: the path's shape */
	int32_t node;
};

#define NO_WHAT		UINT32_MAX

struct grouping {
	const struct doc_matches *m;	/* NULL: OLD has no docs */
	const struct snapshot *old;
	size_t *first_what;	/* per entry of OLD: its first What:'s number */
	bool *alive_old;	/* per What:: matched some node of OLD */
	bool *alive_new;	/* ... of NEW */
	bool *keeps;		/* per old node: a child of it is in NEW */
	struct group_member *v;
	size_t nr, alloc;
};

/* The hits of @node: *@nr of them, sorted by entry and What:. */
static const struct docmatch_hit *hits_of(const struct docmatch_hits *h,
					  int32_t node, size_t *nr)
{
	size_t lo = 0, hi = h->nr, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->v[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < h->nr && h->v[end].node == node; end++)
		;
	*nr = end - lo;
	return h->v + lo;
}

static int grouping__init(struct grouping *g, struct sysfs_diff *sd,
			  const struct snapshot *old,
			  const struct doc_matches *m)
{
	size_t i, nr_what = 0;

	memset(g, 0, sizeof(*g));
	g->old = old;
	g->keeps = calloc(sd->a.nr + 1, sizeof(bool));
	if (!g->keeps)
		return -ENOMEM;
	for (i = 0; i < sd->a.nr; i++)
		if (sd->pair_a[i] >= 0 && sd->a.parent[i] >= 0)
			g->keeps[sd->a.parent[i]] = true;
	if (!m || !m->old_entry || !m->new_entry)
		return 0;
	g->m = m;
	g->first_what = malloc((old->docs.nr + 1) * sizeof(size_t));
	if (!g->first_what)
		return -ENOMEM;
	for (i = 0; i < old->docs.nr; i++) {
		g->first_what[i] = nr_what;
		nr_what += old->docs.v[i].nr_what;
	}
	g->alive_old = calloc(nr_what + 1, sizeof(bool));
	g->alive_new = calloc(nr_what + 1, sizeof(bool));
	if (!g->alive_old || !g->alive_new)
		return -ENOMEM;
	for (i = 0; i < m->old_hits.nr; i++)
		g->alive_old[g->first_what[m->old_hits.v[i].entry] +
			     m->old_hits.v[i].what] = true;
	for (i = 0; i < m->new_hits.nr; i++)
		g->alive_new[g->first_what[m->new_hits.v[i].entry] +
			     m->new_hits.v[i].what] = true;
	return 0;
}

static void grouping__release(struct grouping *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		free(g->v[i].shape);
	free(g->v);
	free(g->first_what);
	free(g->alive_old);
	free(g->alive_new);
	free(g->keeps);
}

/*
 * Node @node of one side (@hits, @entry) against the What: lines of the
 * other side (@alive): 1 when a What: line of its entry that matches it
 * matches a node there too; 0 and the first such line's number in *@what
 * when none does; -1 when no entry documents it.
 */
static int still_alive(const struct grouping *g, const struct docmatch_hits *hits,
		       const int32_t *entry, const bool *alive, int32_t node,
		       uint32_t *what)
{
	const struct docmatch_hit *h;
	int32_t e = g->m ? entry[node] : -1;
	size_t i, nr;

	*what = NO_WHAT;
	if (e < 0)
		return -1;
	h = hits_of(hits, node, &nr);
	for (i = 0; i < nr; i++) {
		size_t w = g->first_what[e] + h[i].what;

		if (h[i].entry != e)
			continue;
		if (alive[w])
			return 1;
		if (*what == NO_WHAT)
			*what = w;
	}
	return *what == NO_WHAT ? -1 : 0;
}

/* "12", "10:125": a name that only numbers something. */
static bool is_number(const char *name)
{
	if (!isdigit((unsigned char)*name))
		return false;
	for (; *name; name++)
		if (!isdigit((unsigned char)*name) && !strchr(":.-", *name))
			return false;
	return true;
}

/* The shape of undocumented removed node @i, or NULL; *@err on ENOMEM. */
static char *shape_of(const struct sysfs_diff *sd, const struct grouping *g,
		      int32_t i, int *err)
{
	const struct sysfs_node *r;
	int32_t root = i, p;
	char *shape;

	while ((p = sd->a.parent[root]) >= 0 && sd->pair_a[p] < 0)
		root = p;
	if (p < 0)
		return NULL;
	r = &sd->a.v[root];
	if (!is_number(sysfs_basename(r->path)) &&
	    !((r->kind == NODE_DIR || r->kind == NODE_LINK) && g->keeps[p]))
		return NULL;
	shape = xasprintf("%s/*%s", sd->a.v[p].path,
			  sd->a.v[i].path + strlen(r->path));
	if (!shape)
		*err = -ENOMEM;
	return shape;
}

static int group_add(struct grouping *g, uint32_t what, char *shape,
		     int32_t node)
{
	struct group_member *gm = ARRAY_APPEND(g->v, g->nr, g->alloc);

	if (!gm) {
		free(shape);
		return -ENOMEM;
	}
	*gm = (struct group_member){ what, shape, node };
	return 0;
}

static int member_cmp(const void *pa, const void *pb)
{
	const struct group_member *a = pa, *b = pb;
	int c;

	if (a->what != b->what)
		return a->what < b->what ? -1 : 1;
	c = strcmp(a->shape ? a->shape : "", b->shape ? b->shape : "");
	return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* The What: line numbered @what in OLD's docs. */
static const char *what_text(const struct grouping *g, uint32_t what)
{
	size_t lo = 0, hi = g->old->docs.nr;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->first_what[mid] <= what)
			lo = mid;
		else
			hi = mid;
	}
	return g->old->docs.v[lo].what[what - g->first_what[lo]];
}

/*
 * One removal of members @v[0 .. @nr): "node-removed" with the pattern or
 * shape for subject, described as its nodes are when they agree.
 */
static int emit_group(struct sysfs_diff *sd, const struct grouping *g,
		      const struct group_member *v, size_t nr)
{
	const char **paths = malloc(nr * sizeof(*paths));
	char *what = describe_node(&sd->a.v[v[0].node]), *desc = NULL;
	bool same = true;
	size_t i;
	int err = -ENOMEM;

	for (i = 0; what && paths && i < nr; i++) {
		char *d = describe_node(&sd->a.v[v[i].node]);

		if (!d)
			goto out;
		same = same && !strcmp(d, what);
		free(d);
		paths[i] = sd->a.v[v[i].node].path;
	}
	if (!what || !paths)
		goto out;
	desc = same ? xasprintf("%s", what) : xasprintf("%s, ...", what);
	if (desc)
		err = diff_add_instances(sd->d, CHANGE_NODE_REMOVED,
					 v[0].shape ? v[0].shape :
					 what_text(g, v[0].what), desc, NULL,
					 v[0].node, -1, paths, nr);
out:
	free(paths);
	free(what);
	free(desc);
	return err;
}

static int emit_groups(struct sysfs_diff *sd, struct grouping *g)
{
	size_t i, end;
	int err = 0;

	if (g->nr)
		qsort(g->v, g->nr, sizeof(*g->v), member_cmp);
	for (i = 0; !err && i < g->nr; i = end) {
		for (end = i + 1; end < g->nr && g->v[end].what == g->v[i].what &&
		     !strcmp(g->v[end].shape ? g->v[end].shape : "",
			     g->v[i].shape ? g->v[i].shape : ""); end++)
			;
		err = end - i == 1 ?
		      node_alone(sd, g->v[i].node, CHANGE_NODE_REMOVED) :
		      emit_group(sd, g, g->v + i, end - i);
	}
	return err;
}

/* Old node @i is gone: an instance, or a member of its pattern's group. */
static int node_removed(struct sysfs_diff *sd, struct grouping *g, int32_t i)
{
	const struct doc_matches *m = g->m;
	uint32_t what;
	char *shape;
	int err = 0;

	switch (still_alive(g, m ? &m->old_hits : NULL, m ? m->old_entry : NULL,
			    g->alive_new, i, &what)) {
	case 1:
		return node_alone(sd, i, CHANGE_INSTANCE_REMOVED);
	case 0:
		return group_add(g, what, NULL, i);
	default:
		break;
	}
	if (g->m && g->m->old_entry[i] >= 0)	/* no hit: cannot be */
		return node_alone(sd, i, CHANGE_NODE_REMOVED);
	shape = shape_of(sd, g, i, &err);
	if (err)
		return err;
	return shape ? group_add(g, NO_WHAT, shape, i) :
	       node_alone(sd, i, CHANGE_NODE_REMOVED);
}

static int node_added(struct sysfs_diff *sd, struct grouping *g, int32_t j)
{
	const struct doc_matches *m = g->m;
	uint32_t what;
	int alive = still_alive(g, m ? &m->new_hits : NULL,
				m ? m->new_entry : NULL, g->alive_old, j, &what);

	return node_alone(sd, j, alive == 1 ? CHANGE_INSTANCE_ADDED :
			  CHANGE_NODE_ADDED);
}

static int report(struct sysfs_diff *sd, const struct snapshot *old,
		  const struct doc_matches *m)
{
	struct grouping g;
	size_t i;
	int err = grouping__init(&g, sd, old, m);

	for (i = 0; !err && i < sd->a.nr; i++) {
		if (sd->pair_a[i] >= 0)
			err = compare_nodes(sd, i, sd->pair_a[i]);
		else if (!sd->quiet_a[i])
			err = node_removed(sd, &g, i);
	}
	if (!err)
		err = emit_groups(sd, &g);
	for (i = 0; !err && i < sd->b.nr; i++)
		if (sd->pair_b[i] < 0 && !sd->quiet_b[i])
			err = node_added(sd, &g, i);
	grouping__release(&g);
	return err;
}

int diff_sysfs(const struct snapshot *old, const struct snapshot *new,
	       const struct doc_matches *m, struct diff *d)
{
	struct sysfs_diff sd = { .d = d };
	size_t i, na = old->sysfs.nr + 1, nb = new->sysfs.nr + 1;
	int err = sysfs_tree__build(&sd.a, old);

	if (!err)
		err = sysfs_tree__build(&sd.b, new);
	sd.moved_to = malloc(na * sizeof(int32_t));
	sd.pair_a = malloc(na * sizeof(int32_t));
	sd.pair_b = malloc(nb * sizeof(int32_t));
	sd.quiet_a = calloc(na, sizeof(bool));
	sd.quiet_b = calloc(nb, sizeof(bool));
	if (!sd.moved_to || !sd.pair_a || !sd.pair_b || !sd.quiet_a ||
	    !sd.quiet_b)
		err = -ENOMEM;
	for (i = 0; !err && i < old->sysfs.nr; i++)
		sd.moved_to[i] = -1;
	if (!err) {
		find_moves(&sd);
		err = pair_nodes(&sd);
	}
	if (!err) {
		find_scaffolding(&sd.a, sd.pair_a, sd.quiet_a);
		find_scaffolding(&sd.b, sd.pair_b, sd.quiet_b);
		err = report(&sd, old, m);
	}
	free(sd.moved_to);
	free(sd.pair_a);
	free(sd.pair_b);
	free(sd.quiet_a);
	free(sd.quiet_b);
	sysfs_tree__release(&sd.a);
	sysfs_tree__release(&sd.b);
	return err;
}
