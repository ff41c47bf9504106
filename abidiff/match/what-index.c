// SPDX-License-Identifier: GPL-2.0-only
/*
 * What: patterns and the index that matches paths against all of them.
 *
 * The grammar.  A What: line of Documentation/ABI names one interface, most
 * often a sysfs path, with wildcards for the parts that vary between
 * machines.  The forms in use, and what we make of them:
 *
 *   /sys/class/net/<iface>/mtu   <...> is one or more characters of a
 *                                component ("<iface>", "<N>", "<dev>")
 *   /sys/devices/system/cpu/cpuX X, Y and Z stand for one or more characters
 *                                when no capital letter stands next to them
 *                                ("cpuX", "in_voltageY_raw", but not "XHCI")
 *   /sys/block/sd[a-z]           [...] is one character of a class, with
 *                                ranges and a leading ^ for "not"; [0-9]+ is
 *                                one or more of them
 *   /sys/fs/ext4/features/lazy_* * is zero or more characters of a component
 *   /sys/.../power/{on,off}      {a,b} is one of the alternatives, which may
 *                                hold '/', wildcards and braces
 *   /sys/devices/.../power       a component "..." is zero or more whole
 *                                components
 *
 * IIO's ".../triggerX/name = "value"" documents the path before " = ".
 * A pattern ending in '/' documents a directory and nothing else.
 * Anything else is a literal character.  A pattern is anchored at both ends:
 * it matches a whole path, never a prefix of one, and no wildcard but "..."
 * crosses a '/'.  An unbalanced < [ { } ] > makes a pattern unparsable; so do
 * a relative path, an empty alternative, whitespace outside <...>, more than
 * WHAT_MAX_BRACES groups or WHAT_MAX_EXPANSION expansions.
 *
 * The index.  Braces are expanded first, so each pattern becomes one or more
 * paths of components, and the components of all patterns form a trie.  An
 * edge of the trie is either a literal component ("net"), or a compiled
 * wildcard component ("cpuX"), or "...".  Literal edges of every node live in
 * one hash table keyed by (node, component), so taking one is O(1) however
 * many children a node has: /sys/class has hundreds.  Wildcard edges are a
 * short list per node, tried one by one, keyed by what they compile to and
 * not by their spelling: "<iface>", "<dev>" and "X" are one edge, so
 * patterns that differ only in how they name their wildcards are one path
 * of the trie.  A "..." edge leads to a node that takes any component and
 * stays where it is.
 *
 * Matching keeps the set of trie nodes reachable by the components so far (a
 * cursor) and advances it component by component.  A wildcard component is
 * a short sequence of atoms (a set of characters, taken once, once or more,
 * or any number of times) run as an NFA over the component's bytes: no
 * backtracking, so no pattern can make matching slow.
 *
 * The frames.  A node reached through a literal or a wildcard edge is alive
 * for one component; one reached through "..." for the rest of the path.
 * Below /sys/devices every "/sys/devices/.../NAME" is alive at every node,
 * and N patterns "/sys/devices/<vI>/.../NAME" whose first wildcards differ
 * are N such nodes: stepping each of them at each component would make
 * every component of every path cost N.  So a cursor holds the nodes that
 * its last component reached in an array, and the "..." ones apart, in
 * frames: a frame holds the "..." nodes that one step reached, with all
 * their literal edges in one array sorted by the hash of the name and their
 * wildcard edges sorted by what they compile to, alike ones together.  A
 * cursor points to the frame of its last step that reached any, which points
 * to the frame before it; the frame is built once, where its nodes are
 * reached, and shared, counted, by every cursor stepped from there.
 *
 * A component then costs one hash lookup per node the component before
 * reached, one binary search per frame on the path (one per step that
 * reached a new "..." node: a few), one NFA run per distinct wildcard
 * after a "...", and one step per node it reaches.  The number of patterns
 * enters only through those the component advances, which is the size of
 * the answer, and through wildcards after a "..." that all differ.  Nodes
 * with no edge out and no pattern ending at them are not kept: they only
 * lead to their "..." node.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "what-index.h"

#define WHAT_MAX_PATTERN	4096
/* A wildcard component's atoms are NFA states, one bit each in a uint64_t. */
#define WHAT_MAX_ATOMS		63

enum quantifier {
	ONCE,
	ONE_OR_MORE,
	ANY_NUMBER,
};

struct atom {
	uint8_t set[32];	/* the bytes it takes, as a bitmap */
	enum quantifier quant;
	int literal;		/* the one byte it takes once, or -1 */
};

struct wild_edge {
	uint32_t hash;		/* of the atoms */
	struct atom *atoms;	/* compiled: equal atoms share the edge */
	size_t nr_atoms;
	size_t head, tail;	/* literal atoms at the start and the end */
	uint64_t any_number;	/* atoms taken any number of times */
	struct what_node *child;
};

/* A literal edge out of a "..." node, kept with it for the frames. */
struct label {
	uint32_t hash;		/* of the name alone */
	const char *name;	/* the edge table's copy */
	size_t len;
	struct what_node *child;
};

struct what_node {
	uint32_t serial;	/* half of the literal edges' hash key */
	bool globstar;		/* reached by "...": takes any component */
	struct what_node *globstar_child;
	size_t nr_literal;	/* literal edges out of it, in the table */
	struct label *labels;	/* a "..." node's literal edges, again */
	size_t nr_labels;
	struct wild_edge *wild;
	size_t nr_wild;
	/* entries whose pattern ends here: id << 1, | 1 if it ends in '/' */
	uint32_t *ids;
	size_t nr_ids;
};

struct literal_edge {
	uint32_t parent;
	uint32_t hash;
	char *name;
	size_t len;
	struct what_node *child;
};

struct what_index {
	struct what_node **nodes;	/* nodes[serial], nodes[0] the root */
	size_t nr_nodes;
	size_t alloc_nodes;
	struct literal_edge *edges;	/* open addressing, a power of two */
	size_t nr_edges;
	size_t size_edges;
};

static struct what_node *node__new(struct what_index *idx)
{
	struct what_node *n = calloc(1, sizeof(*n)), **slot;

	if (!n)
		return NULL;
	n->serial = idx->nr_nodes;
	slot = ARRAY_APPEND(idx->nodes, idx->nr_nodes, idx->alloc_nodes);
	if (!slot) {
		free(n);
		return NULL;
	}
	*slot = n;
	return n;
}

struct what_index *what_index__new(void)
{
	struct what_index *idx = calloc(1, sizeof(*idx));

	if (!idx)
		return NULL;
	idx->size_edges = 64;
	idx->edges = calloc(idx->size_edges, sizeof(*idx->edges));
	if (!idx->edges || !node__new(idx)) {
		what_index__free(idx);
		return NULL;
	}
	return idx;
}

void what_index__free(struct what_index *idx)
{
	size_t i, j;

	if (!idx)
		return;
	for (i = 0; i < idx->nr_nodes; i++) {
		struct what_node *n = idx->nodes[i];

		for (j = 0; j < n->nr_wild; j++)
			free(n->wild[j].atoms);
		free(n->wild);
		free(n->labels);
		free(n->ids);
		free(n);
	}
	for (i = 0; i < idx->size_edges; i++)
		free(idx->edges[i].name);
	free(idx->nodes);
	free(idx->edges);
	free(idx);
}

#define FNV_BASIS	2166136261u

static uint32_t fnv1a(uint32_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t name_hash(const char *name, size_t len)
{
	return fnv1a(FNV_BASIS, name, len);
}

/*
 * The key of a literal edge: the hash of its name (name_hash()) mixed with
 * the parent's serial by murmur3's finaliser.  A step hashes its component
 * once and looks it up from every node and frame of the cursor.
 */
static uint32_t edge_hash(uint32_t parent, uint32_t name)
{
	uint32_t h = name ^ parent * 0x9e3779b1u;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

/* The slot holding edge (@parent, @name), or the empty slot it would take. */
static struct literal_edge *edge_slot(const struct literal_edge *edges,
				      size_t size, uint32_t parent,
				      uint32_t hash, const char *name,
				      size_t len)
{
	size_t i = hash & (size - 1);

	for (;; i = (i + 1) & (size - 1)) {
		const struct literal_edge *e = &edges[i];

		if (!e->name)
			return (struct literal_edge *)e;
		if (e->hash == hash && e->parent == parent && e->len == len &&
		    !memcmp(e->name, name, len))
			return (struct literal_edge *)e;
	}
}

static int edges_grow(struct what_index *idx)
{
	size_t size = idx->size_edges * 2, i;
	struct literal_edge *edges = calloc(size, sizeof(*edges));

	if (!edges)
		return -ENOMEM;
	for (i = 0; i < idx->size_edges; i++) {
		const struct literal_edge *e = &idx->edges[i];

		if (e->name)
			*edge_slot(edges, size, e->parent, e->hash, e->name,
				   e->len) = *e;
	}
	free(idx->edges);
	idx->edges = edges;
	idx->size_edges = size;
	return 0;
}

static int add_label(struct what_node *parent, const struct literal_edge *e)
{
	struct label *l = ARRAY_APPEND_ITEM(parent->labels, parent->nr_labels);

	if (!l)
		return -ENOMEM;
	*l = (struct label){ name_hash(e->name, e->len), e->name,
			     e->len, e->child };
	return 0;
}

static struct what_node *literal_child(struct what_index *idx,
				       struct what_node *parent,
				       const char *name, size_t len)
{
	uint32_t hash = edge_hash(parent->serial, name_hash(name, len));
	struct literal_edge *e;

	e = edge_slot(idx->edges, idx->size_edges, parent->serial, hash, name,
		      len);
	if (e->name)
		return e->child;
	if (2 * (idx->nr_edges + 1) > idx->size_edges) {
		if (edges_grow(idx))
			return NULL;
		e = edge_slot(idx->edges, idx->size_edges, parent->serial,
			      hash, name, len);
	}
	e->child = node__new(idx);
	e->name = e->child ? strndup(name, len) : NULL;
	if (!e->name)
		return NULL;
	e->parent = parent->serial;
	e->hash = hash;
	e->len = len;
	idx->nr_edges++;
	parent->nr_literal++;
	return parent->globstar && add_label(parent, e) ? NULL : e->child;
}

static void set_bit(struct atom *a, unsigned char c)
{
	a->set[c / 8] |= 1u << (c % 8);
}

static bool has_bit(const struct atom *a, unsigned char c)
{
	return a->set[c / 8] & (1u << (c % 8));
}

/* Any byte of a component: all but '/'. */
static void set_any(struct atom *a)
{
	memset(a->set, 0xff, sizeof(a->set));
	a->set['/' / 8] &= ~(1u << ('/' % 8));
}

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

/* X, Y or Z at @p is a placeholder unless a capital letter touches it. */
static bool is_placeholder(const char *comp, const char *p, const char *end)
{
	if (*p != 'X' && *p != 'Y' && *p != 'Z')
		return false;
	if (p > comp && is_upper(p[-1]))
		return false;
	return !(p + 1 < end && is_upper(p[1]));
}

/* Parse "[...]" at *@pp (just past the '[') into @a; advance past ']'. */
static int parse_class(const char **pp, const char *end, struct atom *a,
		       const char **why)
{
	const char *p = *pp;
	bool negate = false;
	int c, i;

	if (p < end && *p == '^') {
		negate = true;
		p++;
	}
	for (; p < end && *p != ']'; p++) {
		if (*p == '[' || *p == '/') {
			*why = "'[' inside [...]";
			return -EINVAL;
		}
		if (p + 2 < end && p[1] == '-' && p[2] != ']') {
			for (c = (unsigned char)p[0]; c <= (unsigned char)p[2]; c++)
				set_bit(a, c);
			p += 2;
		} else {
			set_bit(a, *p);
		}
	}
	if (p == end) {
		*why = "unclosed '['";
		return -EINVAL;
	}
	if (negate) {
		for (i = 0; i < 32; i++)
			a->set[i] = ~a->set[i];
		a->set['/' / 8] &= ~(1u << ('/' % 8));
	}
	*pp = p + 1;
	return 0;
}

/* The atom at *@pp: advance past it; 1 if it is a wildcard, 0 or -EINVAL. */
static int parse_atom(const char *comp, const char **pp, const char *end,
		      struct atom *a, const char **why)
{
	const char *p = *pp, *close;

	memset(a, 0, sizeof(*a));
	a->literal = -1;
	*pp = p + 1;
	switch (*p) {
	case '<':
		close = memchr(p, '>', end - p);
		if (!close || memchr(p + 1, '<', close - p - 1)) {
			*why = "unclosed '<'";
			return -EINVAL;
		}
		set_any(a);
		a->quant = ONE_OR_MORE;
		*pp = close + 1;
		return 1;
	case '[':
		if (parse_class(pp, end, a, why))
			return -EINVAL;
		if (*pp < end && **pp == '+') {
			a->quant = ONE_OR_MORE;
			(*pp)++;
		}
		return 1;
	case '*':
		set_any(a);
		a->quant = ANY_NUMBER;
		return 1;
	case '>': case ']': case '{': case '}':
		*why = "unbalanced '<', '[' or '{'";
		return -EINVAL;
	}
	if (is_placeholder(comp, p, end)) {
		set_any(a);
		a->quant = ONE_OR_MORE;
		return 1;
	}
	set_bit(a, *p);
	a->literal = (unsigned char)*p;
	return 0;
}

/*
 * No byte of the component that parse_atom() could take for anything but
 * itself: most components are such ("power", "uevent").
 */
static bool plain_literal(const char *comp, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (comp[i]) {
		case '<': case '>': case '[': case ']': case '{': case '}':
		case '*': case 'X': case 'Y': case 'Z':
			return false;
		}
	}
	return true;
}

/*
 * Parse one component of @len bytes at @comp into @atoms (room for
 * WHAT_MAX_ATOMS).  Returns the number of atoms of a wildcard component, 0
 * for a plain literal, or -EINVAL.
 */
static int parse_component(const char *comp, size_t len, struct atom *atoms,
			   const char **why)
{
	const char *p = comp, *end = comp + len;
	struct atom spare;
	bool wild = false;
	int n = 0, ret;

	if (plain_literal(comp, len))
		return 0;
	while (p < end) {
		/* a long literal is fine: only count once too many */
		ret = parse_atom(comp, &p, end, n < WHAT_MAX_ATOMS ?
				 &atoms[n] : &spare, why);
		if (ret < 0)
			return ret;
		wild |= ret;
		n++;
	}
	if (wild && n > WHAT_MAX_ATOMS) {
		*why = "wildcard component too long";
		return -EINVAL;
	}
	return wild ? n : 0;
}

/*
 * Run the atoms between the literal head and tail as an NFA over the middle
 * of the component, one bit per state: no backtracking.
 */
static bool nfa_matches(const struct wild_edge *e, const char *s, size_t len)
{
	const struct atom *atoms = e->atoms + e->head;
	size_t n = e->nr_atoms - e->head - e->tail, i, k;
	uint64_t any = e->any_number >> e->head, cur = 1, next;

	for (k = 0;; k++) {
		/* an atom taken any number of times may be skipped */
		for (i = 0; i < n; i++)
			if (cur & any & (1ull << i))
				cur |= 1ull << (i + 1);
		if (k == len || !cur)
			return k == len && (cur & (1ull << n));
		for (next = 0, i = 0; i < n; i++) {
			if (!(cur & (1ull << i)) || !has_bit(&atoms[i], s[k]))
				continue;
			next |= 1ull << (i + 1);
			if (atoms[i].quant != ONCE)
				next |= 1ull << i;
		}
		cur = next;
	}
}

/*
 * What the NFA would say when one atom lies between the head and the
 * tail, as in most wildcard components ("<N>", "cpuX", "lazy_*",
 * "sd[a-z]"): every byte in its set, as many as its quantifier takes.
 */
static bool atom_matches(const struct atom *a, const char *s, size_t len)
{
	size_t i;

	if (a->quant == ONCE ? len != 1 : a->quant == ONE_OR_MORE && !len)
		return false;
	for (i = 0; i < len; i++)
		if (!has_bit(a, s[i]))
			return false;
	return true;
}

/* Reject on the literal head and tail first: most components fail there. */
static bool component_matches(const struct wild_edge *e, const char *comp,
			      size_t len)
{
	size_t i, n = e->nr_atoms;

	if (len < e->head + e->tail)
		return false;
	for (i = 0; i < e->head; i++)
		if ((unsigned char)comp[i] != e->atoms[i].literal)
			return false;
	for (i = 1; i <= e->tail; i++)
		if ((unsigned char)comp[len - i] != e->atoms[n - i].literal)
			return false;
	if (n - e->head - e->tail == 1)
		return atom_matches(&e->atoms[e->head], comp + e->head,
				    len - e->head - e->tail);
	return nfa_matches(e, comp + e->head, len - e->head - e->tail);
}

static uint32_t atoms_hash(const struct atom *atoms, size_t n)
{
	uint32_t h = FNV_BASIS;
	size_t i;

	for (i = 0; i < n; i++) {
		h = fnv1a(h, (const char *)atoms[i].set, sizeof(atoms[i].set));
		h = fnv1a(h, (const char *)&atoms[i].quant, sizeof(atoms[i].quant));
		h = fnv1a(h, (const char *)&atoms[i].literal,
			  sizeof(atoms[i].literal));
	}
	return h;
}

/*
 * An order of compiled wildcards, hashes first: 0 if edge @a and the
 * @nr_atoms @atoms of @hash take the same components.
 */
static int wild_cmp(const struct wild_edge *a, uint32_t hash,
		    const struct atom *atoms, size_t nr_atoms)
{
	size_t i;
	int c;

	if (a->hash != hash)
		return a->hash < hash ? -1 : 1;
	if (a->nr_atoms != nr_atoms)
		return a->nr_atoms < nr_atoms ? -1 : 1;
	for (i = 0; i < nr_atoms; i++) {
		if (a->atoms[i].quant != atoms[i].quant)
			return a->atoms[i].quant < atoms[i].quant ? -1 : 1;
		if (a->atoms[i].literal != atoms[i].literal)
			return a->atoms[i].literal < atoms[i].literal ? -1 : 1;
		c = memcmp(a->atoms[i].set, atoms[i].set, sizeof(atoms[i].set));
		if (c)
			return c;
	}
	return 0;
}

/*
 * The child of @parent through the wildcard component compiled to @atoms.
 * Components that compile alike ("<iface>" and "<dev>", "cpuX" and
 * "cpu<N>") take the same edge: edges keyed by their spelling would give
 * each spelling its own copy of the trie below, all of them alive at once.
 */
static struct what_node *wild_child(struct what_index *idx,
				    struct what_node *parent,
				    const struct atom *atoms, size_t nr_atoms)
{
	uint32_t hash = atoms_hash(atoms, nr_atoms);
	struct wild_edge *e;
	size_t i;

	for (i = 0; i < parent->nr_wild; i++) {
		e = &parent->wild[i];
		if (!wild_cmp(e, hash, atoms, nr_atoms))
			return e->child;
	}
	e = ARRAY_APPEND_ITEM(parent->wild, parent->nr_wild);
	if (!e)
		return NULL;
	e->atoms = calloc(nr_atoms, sizeof(*atoms));
	e->child = node__new(idx);
	if (!e->atoms || !e->child) {
		free(e->atoms);
		parent->nr_wild--;
		return NULL;
	}
	memcpy(e->atoms, atoms, nr_atoms * sizeof(*atoms));
	e->hash = hash;
	e->nr_atoms = nr_atoms;
	for (i = 0; i < nr_atoms; i++)
		if (atoms[i].quant == ANY_NUMBER)
			e->any_number |= 1ull << i;
	for (e->head = 0; atoms[e->head].literal >= 0; e->head++)
		;
	for (e->tail = 0; atoms[nr_atoms - 1 - e->tail].literal >= 0; e->tail++)
		;
	return e->child;
}

static struct what_node *globstar_child(struct what_index *idx,
					struct what_node *parent)
{
	if (!parent->globstar_child) {
		parent->globstar_child = node__new(idx);
		if (parent->globstar_child)
			parent->globstar_child->globstar = true;
	}
	return parent->globstar_child;
}

static int add_id(struct what_node *n, uint32_t id, bool dir_only)
{
	uint32_t *slot;
	size_t i;

	id = id << 1 | dir_only;
	for (i = 0; i < n->nr_ids; i++)
		if (n->ids[i] == id)
			return 0;
	slot = ARRAY_APPEND_ITEM(n->ids, n->nr_ids);
	if (!slot)
		return -ENOMEM;
	*slot = id;
	return 0;
}

/* A component with a fixed byte: "iio:deviceX" is one, "<device>" is not. */
static bool names_something(const struct atom *atoms, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (atoms[i].literal >= 0)
			return true;
	return !n;
}

/*
 * Walk (and, with @idx, build) the trie path of one brace-free pattern.
 * Without @idx only the syntax is checked.
 */
static int add_expanded(struct what_index *idx, const char *pat, size_t len,
			uint32_t id, const char **why)
{
	struct atom atoms[WHAT_MAX_ATOMS];
	struct what_node *node = idx ? idx->nodes[0] : NULL;
	const char *p = pat, *end = pat + len;
	int comps = 0, literals = 0;

	if (!len || *p != '/') {
		*why = "not an absolute path";
		return -EINVAL;
	}
	while (p < end) {
		const char *slash, *comp = p + 1;
		size_t clen;
		int n;

		slash = memchr(comp, '/', end - comp);
		clen = (slash ? slash : end) - comp;
		p = comp + clen;
		if (!clen)
			continue;	/* "//" and a trailing '/' add nothing */
		comps++;
		if (clen == 3 && !memcmp(comp, "...", 3)) {
			if (idx)
				node = globstar_child(idx, node);
			if (idx && !node)
				return -ENOMEM;
			continue;
		}
		n = parse_component(comp, clen, atoms, why);
		if (n < 0)
			return n;
		literals += comps > 1 && names_something(atoms, n);
		if (!idx)
			continue;
		node = n ? wild_child(idx, node, atoms, n) :
			   literal_child(idx, node, comp, clen);
		if (!node)
			return -ENOMEM;
	}
	/*
	 * "/sys/.../<device>/<UUID>/" would document nearly every directory
	 * of sysfs, and give each the level of one driver's entry.
	 */
	if (comps > 1 && !literals) {
		*why = "no fixed name after the first component: it would match almost anything";
		return -EINVAL;
	}
	/* a trailing '/' names a directory, not what is in it */
	return idx ? add_id(node, id, len > 1 && pat[len - 1] == '/') : 0;
}

/* The '}' closing the '{' at @open, nesting counted; NULL if none. */
static const char *matching_brace(const char *open, const char *end)
{
	const char *p;
	int depth = 0;

	for (p = open; p < end; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && !--depth)
			return p;
	}
	return NULL;
}

/* The ',' or '}' that ends the alternative at @alt, nesting counted. */
static const char *next_alternative(const char *alt, const char *close)
{
	int depth = 0;

	for (; alt < close; alt++) {
		if (*alt == '{')
			depth++;
		else if (*alt == '}')
			depth--;
		else if (*alt == ',' && !depth)
			break;
	}
	return alt;
}

/*
 * Expand the first {a,b,...} of @pat (@len bytes) and recurse on each
 * alternative; a pattern without braces is added.  *@count limits the
 * expansion to WHAT_MAX_EXPANSION paths.
 */
static int expand(struct what_index *idx, const char *pat, size_t len,
		  uint32_t id, int *count, int depth, const char **why)
{
	const char *open = memchr(pat, '{', len), *close, *alt;
	char buf[WHAT_MAX_PATTERN];
	size_t head, tail;
	int err;

	if (!open) {
		if (++*count > WHAT_MAX_EXPANSION) {
			*why = "too many {...} alternatives";
			return -EINVAL;
		}
		return add_expanded(idx, pat, len, id, why);
	}
	/* each level holds a buffer on the stack: bound them */
	if (depth == WHAT_MAX_BRACES) {
		*why = "too many {...} groups";
		return -EINVAL;
	}
	close = matching_brace(open, pat + len);
	if (!close) {
		*why = "unclosed '{'";
		return -EINVAL;
	}
	head = open - pat;
	tail = pat + len - close - 1;
	for (alt = open + 1; alt <= close; ) {
		const char *comma = next_alternative(alt, close);
		size_t alen = comma - alt;

		if (!alen) {
			*why = "empty {...} alternative";
			return -EINVAL;
		}
		memcpy(buf, pat, head);
		memcpy(buf + head, alt, alen);
		memcpy(buf + head + alen, close + 1, tail);
		err = expand(idx, buf, head + alen + tail, id, count, depth + 1,
			     why);
		if (err)
			return err;
		alt += alen + 1;
	}
	return 0;
}

static int compile(struct what_index *idx, const char *pattern, uint32_t id,
		   const char **why)
{
	const char *dummy;
	size_t len = strlen(pattern), i;
	bool in_name = false;
	int count = 0;

	if (!why)
		why = &dummy;
	/* IIO's "What: .../triggerX/name = "value"" documents the name */
	for (i = 0; i + 2 < len; i++)
		if (!memcmp(pattern + i, " = ", 3))
			len = i;
	if (len >= WHAT_MAX_PATTERN) {
		*why = "pattern too long";
		return -EINVAL;
	}
	/* "<config num>" names one thing; a blank elsewhere ends the path */
	for (i = 0; i < len; i++) {
		if (pattern[i] == '<')
			in_name = true;
		else if (pattern[i] == '>')
			in_name = false;
		else if (!in_name && (pattern[i] == ' ' || pattern[i] == '\t' ||
				      pattern[i] == '\n')) {
			*why = "whitespace in pattern";
			return -EINVAL;
		}
	}
	return expand(idx, pattern, len, id, &count, 0, why);
}

int what_pattern__check(const char *pattern, const char **why)
{
	return compile(NULL, pattern, 0, why);
}

int what_index__add(struct what_index *idx, const char *pattern, uint32_t id,
		    const char **why)
{
	int err = compile(NULL, pattern, id, why);

	/* check first: one bad alternative must not leave the others added */
	return err ? err : compile(idx, pattern, id, why);
}

/* The wildcard edges of a frame's nodes that compile alike. */
struct frame_wild {
	struct wild_edge e;	/* a copy of one: the node's array may move */
	size_t first, nr;	/* their children in the frame's kids[] */
};

/* The "..." nodes reached by one step, with their edges: see the top. */
struct what_frame {
	struct what_frame *up;		/* those reached before, or NULL */
	size_t refs;			/* cursors and frames pointing here */
	const struct what_node **v;	/* by serial */
	size_t nr;
	size_t total;			/* nr, and the nodes of those below */
	uint64_t hash;			/* of the nodes, and of those below */
	const struct what_node **ends;	/* those that end a pattern */
	size_t nr_ends;
	struct label *labels;		/* all their literal edges, by hash */
	size_t nr_labels;
	struct frame_wild *wild;	/* their wildcard edges, by what they take */
	size_t nr_wild;
	const struct what_node **kids;	/* where the wildcard edges lead */
};

static struct what_frame *frame_get(struct what_frame *f)
{
	if (f)
		f->refs++;
	return f;
}

static void frame_put(struct what_frame *f)
{
	while (f && !--f->refs) {
		struct what_frame *up = f->up;

		free(f->v);
		free(f->ends);
		free(f->labels);
		free(f->wild);
		free(f->kids);
		free(f);
		f = up;
	}
}

static int serial_cmp(const void *pa, const void *pb)
{
	const struct what_node *a = *(const struct what_node **)pa;
	const struct what_node *b = *(const struct what_node **)pb;

	return (a->serial > b->serial) - (a->serial < b->serial);
}

static int label_cmp(const void *pa, const void *pb)
{
	const struct label *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return serial_cmp(&a->child, &b->child);
}

static int frame_wild_cmp(const void *pa, const void *pb)
{
	const struct frame_wild *a = pa, *b = pb;
	int c = wild_cmp(&a->e, b->e.hash, b->e.atoms, b->e.nr_atoms);

	return c ? c : serial_cmp(&a->e.child, &b->e.child);
}

/*
 * Gather the edges and the pattern ends of @f's nodes.  The wildcard edges
 * are sorted, then each run of alike ones becomes one entry, in place.
 */
static int frame_merge(struct what_frame *f)
{
	size_t i, j, k, nr_labels = 0, nr_wild = 0, nr_ends = 0;

	for (i = 0; i < f->nr; i++) {
		nr_labels += f->v[i]->nr_labels;
		nr_wild += f->v[i]->nr_wild;
		nr_ends += !!f->v[i]->nr_ids;
	}
	f->labels = malloc(nr_labels * sizeof(*f->labels) + 1);
	f->wild = malloc(nr_wild * sizeof(*f->wild) + 1);
	f->kids = malloc(nr_wild * sizeof(*f->kids) + 1);
	f->ends = malloc(nr_ends * sizeof(*f->ends) + 1);
	if (!f->labels || !f->wild || !f->kids || !f->ends)
		return -ENOMEM;
	for (i = 0; i < f->nr; i++) {
		const struct what_node *n = f->v[i];

		for (j = 0; j < n->nr_labels; j++)
			f->labels[f->nr_labels++] = n->labels[j];
		for (j = 0; j < n->nr_wild; j++)
			f->wild[f->nr_wild++].e = n->wild[j];
		if (n->nr_ids)
			f->ends[f->nr_ends++] = n;
	}
	qsort(f->labels, f->nr_labels, sizeof(*f->labels), label_cmp);
	qsort(f->wild, f->nr_wild, sizeof(*f->wild), frame_wild_cmp);
	for (i = k = nr_wild = 0; i < f->nr_wild; i = j) {
		const struct wild_edge *e = &f->wild[i].e;

		for (j = i; j < f->nr_wild &&
		     !wild_cmp(&f->wild[j].e, e->hash, e->atoms, e->nr_atoms); j++)
			f->kids[k++] = f->wild[j].e.child;
		f->wild[nr_wild] = f->wild[i];
		f->wild[nr_wild].first = k - (j - i);
		f->wild[nr_wild++].nr = j - i;
	}
	f->nr_wild = nr_wild;
	return 0;
}

/* Is @n one of the nodes of @f or of the frames below it? */
static bool frames_hold(const struct what_frame *f, const struct what_node *n)
{
	for (; f; f = f->up)
		if (bsearch(&n, f->v, f->nr, sizeof(*f->v), serial_cmp))
			return true;
	return false;
}

/*
 * A node's share of a cursor's hash (splitmix64's finaliser): a sum of
 * them does not depend on how the nodes are spread over frames.
 */
static uint64_t node_hash(const struct what_node *n)
{
	uint64_t h = n->serial + 0x9e3779b97f4a7c15ull;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

void what_cursor__init(struct what_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

static void cursor_clear(struct what_cursor *c)
{
	frame_put(c->frame);
	c->frame = NULL;
	c->nr = 0;
}

void what_cursor__release(struct what_cursor *c)
{
	cursor_clear(c);
	free(c->v);
	what_cursor__init(c);
}

bool what_cursor__empty(const struct what_cursor *c)
{
	return !c->nr && !c->frame;
}

/* No edge out of it and no pattern ending at it: nothing to keep it for. */
static bool dead_end(const struct what_node *n)
{
	return !n->nr_literal && !n->nr_wild && !n->nr_ids;
}

/*
 * Add @n, which the component just taken reaches, to @c, and the "..."
 * nodes it reaches without a step, but none of @live, the frames of the
 * cursor stepped from: those are alive in @c already.
 */
static int reach(struct what_cursor *c, const struct what_frame *live,
		 const struct what_node *n)
{
	for (; n; n = n->globstar_child) {
		const struct what_node **slot;

		if (n->globstar ? frames_hold(live, n) : dead_end(n))
			continue;
		slot = ARRAY_APPEND(c->v, c->nr, c->alloc);
		if (!slot)
			return -ENOMEM;
		*slot = n;
	}
	return 0;
}

/*
 * Put the nodes a step reached in order of serial.  There are a few of
 * them at most steps, for which qsort()'s set-up costs more than
 * insertion's moves.
 */
static void sort_by_serial(const struct what_node **v, size_t nr)
{
	size_t i, j;

	if (nr > 16) {
		qsort(v, nr, sizeof(*v), serial_cmp);
		return;
	}
	for (i = 1; i < nr; i++) {
		const struct what_node *n = v[i];

		for (j = i; j > 0 && v[j - 1]->serial > n->serial; j--)
			v[j] = v[j - 1];
		v[j] = n;
	}
}

/*
 * Move the "..." nodes the step put into c->v to a frame of their own over
 * @up, which every cursor stepped from @c then shares.
 */
static int settle(struct what_cursor *c, struct what_frame *up)
{
	struct what_frame *f;
	size_t i, nr = 0, kept = 0;

	/* in order, so that what_cursor__same() can compare them as they are */
	sort_by_serial(c->v, c->nr);
	for (i = 0; i < c->nr; i++)
		nr += c->v[i]->globstar;
	if (!nr) {
		c->frame = frame_get(up);
		return 0;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->refs = 1;
	f->up = frame_get(up);
	c->frame = f;
	f->v = malloc(nr * sizeof(*f->v));
	if (!f->v)
		return -ENOMEM;
	f->total = up ? up->total : 0;
	f->hash = up ? up->hash : 0;
	for (i = 0; i < c->nr; i++) {
		if (c->v[i]->globstar) {
			f->v[f->nr++] = c->v[i];
			f->hash += node_hash(c->v[i]);
		} else {
			c->v[kept++] = c->v[i];
		}
	}
	f->total += f->nr;
	c->nr = kept;
	return frame_merge(f);
}

int what_index__root(const struct what_index *idx, struct what_cursor *c)
{
	int err;

	cursor_clear(c);
	err = reach(c, NULL, idx->nodes[0]);
	return err ? err : settle(c, NULL);
}

/*
 * Take the edges out of node @n that @comp (@len bytes, name_hash() @name)
 * matches.
 */
static int step_node(const struct what_index *idx, const struct what_node *n,
		     const char *comp, size_t len, uint32_t name,
		     const struct what_frame *live, struct what_cursor *to)
{
	uint32_t hash = edge_hash(n->serial, name);
	const struct literal_edge *e;
	size_t i;
	int err = 0;

	e = edge_slot(idx->edges, idx->size_edges, n->serial, hash, comp, len);
	if (e->name)
		err = reach(to, live, e->child);
	for (i = 0; !err && i < n->nr_wild; i++)
		if (component_matches(&n->wild[i], comp, len))
			err = reach(to, live, n->wild[i].child);
	return err;
}

/* The first of @f's labels with @hash, or the end. */
static size_t first_label(const struct what_frame *f, uint32_t hash)
{
	size_t lo = 0, hi = f->nr_labels;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->labels[mid].hash < hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Take the edges out of frame @f's nodes that @comp (name_hash() @hash)
 * matches: one lookup for all their literal edges, one NFA run for each set
 * of alike wildcards.
 */
static int step_frame(const struct what_frame *f, const char *comp,
		      size_t len, uint32_t hash, const struct what_frame *live,
		      struct what_cursor *to)
{
	size_t i, j;
	int err = 0;

	for (i = first_label(f, hash);
	     !err && i < f->nr_labels && f->labels[i].hash == hash; i++)
		if (f->labels[i].len == len &&
		    !memcmp(f->labels[i].name, comp, len))
			err = reach(to, live, f->labels[i].child);
	for (i = 0; !err && i < f->nr_wild; i++) {
		const struct frame_wild *w = &f->wild[i];

		if (!component_matches(&w->e, comp, len))
			continue;
		for (j = 0; !err && j < w->nr; j++)
			err = reach(to, live, f->kids[w->first + j]);
	}
	return err;
}

int what_index__step(const struct what_index *idx,
		     const struct what_cursor *from, const char *comp,
		     size_t len, struct what_cursor *to)
{
	const struct what_frame *f;
	uint32_t name = name_hash(comp, len);
	size_t i;
	int err = 0;

	cursor_clear(to);
	for (i = 0; !err && i < from->nr; i++)
		err = step_node(idx, from->v[i], comp, len, name, from->frame,
				to);
	for (f = from->frame; !err && f; f = f->up)
		err = step_frame(f, comp, len, name, from->frame, to);
	return err ? err : settle(to, from->frame);
}

static void node_entries(const struct what_node *n, what_match_fn fn,
			 void *ctx)
{
	size_t i;

	for (i = 0; i < n->nr_ids; i++)
		fn(n->ids[i] >> 1, n->ids[i] & 1, ctx);
}

void what_cursor__entries(const struct what_cursor *c, what_match_fn fn,
			  void *ctx)
{
	const struct what_frame *f;
	size_t i;

	for (i = 0; i < c->nr; i++)
		node_entries(c->v[i], fn, ctx);
	for (f = c->frame; f; f = f->up)
		for (i = 0; i < f->nr_ends; i++)
			node_entries(f->ends[i], fn, ctx);
}

size_t what_cursor__size(const struct what_cursor *c)
{
	return c->nr + (c->frame ? c->frame->total : 0);
}

uint64_t what_cursor__hash(const struct what_cursor *c)
{
	uint64_t h = c->frame ? c->frame->hash : 0;
	size_t i;

	for (i = 0; i < c->nr; i++)
		h += node_hash(c->v[i]);
	return h;
}

/*
 * Cursors stepped from one another share their frames, and then the
 * comparison is quick; others may still hold the same "..." nodes in
 * other frames, looked up one by one.
 */
bool what_cursor__same(const struct what_cursor *a, const struct what_cursor *b)
{
	const struct what_frame *f;
	size_t i;

	if (a->nr != b->nr || what_cursor__size(a) != what_cursor__size(b) ||
	    (a->nr && memcmp(a->v, b->v, a->nr * sizeof(*a->v))))
		return false;
	if (a->frame == b->frame)
		return true;
	for (f = a->frame; f; f = f->up)
		for (i = 0; i < f->nr; i++)
			if (!frames_hold(b->frame, f->v[i]))
				return false;
	return true;
}

int what_cursor__copy(struct what_cursor *to, const struct what_cursor *from)
{
	size_t i;

	cursor_clear(to);
	for (i = 0; i < from->nr; i++) {
		const struct what_node **slot = ARRAY_APPEND(to->v, to->nr,
							      to->alloc);

		if (!slot)
			return -ENOMEM;
		*slot = from->v[i];
	}
	to->frame = frame_get(from->frame);
	return 0;
}

int what_index__match(const struct what_index *idx, const char *path,
		      what_match_fn fn, void *ctx)
{
	struct what_cursor a, b, *cur = &a, *next = &b, *tmp;
	const char *p = path;
	int err;

	what_cursor__init(&a);
	what_cursor__init(&b);
	err = what_index__root(idx, cur);
	while (!err && *p && !what_cursor__empty(cur)) {
		const char *slash;
		size_t len;

		if (*p == '/') {
			p++;
			continue;
		}
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		err = what_index__step(idx, cur, p, len, next);
		tmp = cur;
		cur = next;
		next = tmp;
		p += len;
	}
	if (!err)
		what_cursor__entries(cur, fn, ctx);
	what_cursor__release(&a);
	what_cursor__release(&b);
	return err;
}
