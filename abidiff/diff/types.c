// SPDX-License-Identifier: GPL-2.0-only
/*
 * The type part of the diff: the layouts of the types syscalls take.
 *
 * Types are paired by name and each pair is compared once, member by
 * member, so a change deep inside a nested structure is reported on the
 * structure that has it, not again on every type that contains it.
 *
 * Where a member's (or a syscall argument's) type is spelt differently on
 * the two sides ("__u32" and "unsigned int", "struct foo_v1" and "struct
 * foo"), the spelling is not the change: the question is whether the two
 * spellings name the same layout.  types_ref_equiv() answers it the way
 * libbpf's btf_dedup_is_equiv() compares two type graphs, on the type_refs
 * the model resolved each spelling to: typedefs are looked through
 * (type_ref__resolve()), the whole declarators must agree, and two named
 * structures are equivalent when their sizes and members agree, members'
 * types compared recursively.  Type graphs have cycles (a list node points
 * to its own type), so a pair of types under comparison is assumed
 * equivalent while its members are compared: a cycle then closes on the
 * assumption instead of recursing forever, and any real difference on the
 * way still makes the answer "no".
 *
 * A member that takes over reserved space is compatible: new members that
 * lie within an old member named like padding (is_reserved_name(), after
 * check-uapi.sh) are reported as "member-reserved-used", and that reserved
 * member shrinking or going away is not a change.  Whether other
 * members moved is reported on its own, as their offsets changing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "parts.h"

#define MAX_EQUIV_DEPTH		64

struct equiv {
	const struct snapshot *old, *new;
	struct { const struct type_def *a, *b; } *assumed;
	size_t nr, alloc;
	int depth;
};

static int spellings_equiv(struct equiv *eq, const char *a,
			   const struct type_ref *ra, const char *b,
			   const struct type_ref *rb);

static bool assumed(const struct equiv *eq, const struct type_def *a,
		    const struct type_def *b)
{
	size_t i;

	for (i = 0; i < eq->nr; i++)
		if (eq->assumed[i].a == a && eq->assumed[i].b == b)
			return true;
	return false;
}

static int assume(struct equiv *eq, const struct type_def *a,
		  const struct type_def *b)
{
	if (eq->nr == eq->alloc) {
		size_t alloc = eq->alloc ? eq->alloc * 2 : 16;
		void *v = realloc(eq->assumed, alloc * sizeof(*eq->assumed));

		if (!v)
			return -ENOMEM;
		eq->assumed = v;
		eq->alloc = alloc;
	}
	eq->assumed[eq->nr].a = a;
	eq->assumed[eq->nr++].b = b;
	return 0;
}

static bool same_name(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static int members_equiv(struct equiv *eq, const struct type_def *a,
			 const struct type_def *b)
{
	size_t i;
	int same = a->nr_members == b->nr_members;

	for (i = 0; same > 0 && i < a->nr_members; i++) {
		const struct type_member *ma = &a->members[i], *mb = &b->members[i];

		same = same_name(ma->name, mb->name) && ma->offset == mb->offset &&
		       ma->size == mb->size && ma->bitfield == mb->bitfield &&
		       ma->bit_offset == mb->bit_offset &&
		       ma->bit_size == mb->bit_size;
		if (same)
			same = spellings_equiv(eq, ma->type, &ma->type_ref,
					       mb->type, &mb->type_ref);
	}
	return same;
}

static bool enumerators_equal(const struct type_def *a, const struct type_def *b)
{
	size_t i;

	if (a->nr_enumerators != b->nr_enumerators)
		return false;
	for (i = 0; i < a->nr_enumerators; i++)
		if (strcmp(a->enumerators[i].name, b->enumerators[i].name) ||
		    a->enumerators[i].value != b->enumerators[i].value)
			return false;
	return true;
}

static int types_equiv(struct equiv *eq, const struct type_def *a,
		       const struct type_def *b)
{
	if (a->kind != b->kind || a->incomplete != b->incomplete ||
	    a->size != b->size)
		return 0;
	switch (a->kind) {
	case TYPE_STRUCT:
	case TYPE_UNION:
		if (assumed(eq, a, b))
			return 1;
		if (eq->depth == MAX_EQUIV_DEPTH || assume(eq, a, b))
			return eq->depth == MAX_EQUIV_DEPTH ? 0 : -ENOMEM;
		return members_equiv(eq, a, b);
	case TYPE_ENUM:
		return enumerators_equal(a, b);
	default:	/* base types: the names differ, and so do they */
		return 0;
	}
}

static int spellings_equiv(struct equiv *eq, const char *a,
			   const struct type_ref *ra, const char *b,
			   const struct type_ref *rb)
{
	struct type_ref sa = { .base = -1 }, sb = { .base = -1 };
	const char *ta, *tb;
	int same = -ENOMEM;

	if (!strcmp(a, b))
		return 1;	/* the type itself is compared on its own */
	if (type_ref__resolve(eq->old, a, ra, &sa, &ta) ||
	    type_ref__resolve(eq->new, b, rb, &sb, &tb))
		goto out;
	if (strcmp(sa.declarator ? sa.declarator : "",
		   sb.declarator ? sb.declarator : "")) {
		same = 0;
	} else if (!strcmp(ta, tb)) {
		same = 1;
	} else if (sa.base < 0 || sb.base < 0) {
		same = 0;
	} else {
		eq->depth++;
		same = types_equiv(eq, &eq->old->types.v[sa.base],
				   &eq->new->types.v[sb.base]);
		eq->depth--;
	}
out:
	type_ref__release(&sa);
	type_ref__release(&sb);
	return same;
}

int types_ref_equiv(const struct snapshot *old, const struct snapshot *new,
		    const char *a, const struct type_ref *ra,
		    const char *b, const struct type_ref *rb)
{
	struct equiv eq = { .old = old, .new = new };
	int same = spellings_equiv(&eq, a, ra, b, rb);

	free(eq.assumed);
	return same;
}

/* A member as the ABI sees it: anonymous aggregates flattened. */
struct flat_member {
	char *path;		/* "link_create.target_fd", malloc()ed */
	/* offsets from the outer type's start; strings and type_ref borrowed */
	struct type_member m;
};

struct flat {
	struct flat_member *v;
	size_t nr, alloc;
};

/* Comparing one pair of types of the same name. */
struct type_pair {
	const struct snapshot *old, *new;
	const struct type_def *a, *b;
	int32_t i, j;
	struct diff *d;
	struct flat fa, fb;	/* a's and b's members, flattened */
	bool *used_b;		/* new members accounted for */
};

/*
 * Whether a member's name says it is padding that later members may take:
 * the names the kernel's scripts/check-uapi.sh treats so, a name ending in
 * "end", "pad", "padding", "res", "resv", "reserved", "rsvd" or "unused",
 * most of them optionally followed by a digit ("pad2", "__reserved_1"),
 * and the kernel's other spelling of it, "spare" ("__spare3", "spare_1").
 */
static bool is_reserved_name(const char *name)
{
	static const struct {
		const char *suffix;
		bool digit;		/* "pad0" */
		bool underscore_digit;	/* "pad_0" */
	} padding[] = {
		{ "end" }, { "res" }, { "unused" },
		{ "pad", true, true }, { "padding", true, true },
		{ "resv", true, true }, { "reserved", true, true },
		{ "rsvd", true, false }, { "spare", true, true },
	};
	size_t len, i;
	bool digit, underscore;

	if (!name)
		return false;
	len = strlen(name);
	digit = len && isdigit((unsigned char)name[len - 1]);
	len -= digit;
	underscore = digit && len && name[len - 1] == '_';
	len -= underscore;
	for (i = 0; i < ARRAY_SIZE(padding); i++) {
		size_t n = strlen(padding[i].suffix);

		if (len >= n && !memcmp(name + len - n, padding[i].suffix, n) &&
		    (!digit || (underscore ? padding[i].underscore_digit :
				padding[i].digit)))
			return true;
	}
	return false;
}

/*
 * Whether an enumerator counts or bounds the others ("__IFLA_MAX",
 * "NUM_FOO", "BAR_COUNT"): its value moves whenever one is added, which
 * check-uapi.sh does not hold against a change either.
 */
static bool is_enum_limit(const char *name)
{
	static const char * const suffixes[] = {
		"_AFTER_LAST", "_CNT", "_COUNT", "_END", "_LAST", "_MASK",
		"_MAX", "_MAX_BIT", "_MAX_BPF_ATTACH_TYPE", "_MAX_ID",
		"_MAX_SHIFT", "_NBITS", "_NETDEV_NUMHOOKS", "_NFT_META_IIFTYPE",
		"_NL80211_ATTR", "_NLDEV_NUM_OPS", "_NUM", "_NUM_ELEMS",
		"_NUM_IRQS", "_SIZE", "_TLSMAX",
	};
	size_t len = strlen(name), i;

	if (!strncmp(name, "MAX_", 4) || !strncmp(name, "NUM_", 4))
		return true;
	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t n = strlen(suffixes[i]);

		if (len >= n && !strcmp(name + len - n, suffixes[i]))
			return true;
	}
	return false;
}

/* The bits a member occupies, from the type's start. */
static uint64_t bit_start(const struct type_member *m)
{
	return m->bitfield ? m->bit_offset : m->offset * 8;
}

static uint64_t bit_end(const struct type_member *m)
{
	return m->bitfield ? m->bit_offset + m->bit_size :
	       (m->offset + m->size) * 8;
}

static bool within(const struct type_member *inner,
		   const struct type_member *outer)
{
	return bit_start(inner) >= bit_start(outer) &&
	       bit_end(inner) <= bit_end(outer);
}

/*
 * An unnamed type is named after its place ("union (union bpf_attr.
 * link_create.{target_fd})", or by older collectors "union (struct sigevent
 * member 2)").  One that sits in a member is compared through the named
 * type that holds it (flatten()); one behind a typedef ("struct (typedef
 * sigset_t)"), a pointer or an array ("struct (anonymous)") on its own.
 */
static bool is_anonymous(const struct type_def *t)
{
	return strstr(t->name, " (") != NULL;
}

static bool is_member_placed(const struct type_def *t)
{
	const char *place = strstr(t->name, " (");

	return place && strncmp(place + 2, "typedef ", 8) &&
	       strcmp(place + 2, "anonymous)");
}

/* The anonymous struct or union that member @m is, inline; or NULL. */
static const struct type_def *inline_aggregate(const struct snapshot *s,
					       const struct type_member *m)
{
	const struct type_def *t;

	if (m->type_ref.base < 0 || (m->type_ref.declarator &&
				     *m->type_ref.declarator))
		return NULL;
	t = &s->types.v[m->type_ref.base];
	if ((t->kind != TYPE_STRUCT && t->kind != TYPE_UNION) || t->incomplete ||
	    !is_member_placed(t) || strcmp(t->name, m->type))
		return NULL;
	return t;
}

/*
 * The members of @t as a program reaches them, into @out: those of an
 * anonymous struct or union member in its place, with offsets from the
 * outer type's start, named by their path ("link_create.target_fd"; C
 * makes the members of an unnamed one members of the enclosing scope).
 * So a member wrapped into an anonymous union at the same place is the
 * same member, and a member of a nested anonymous struct is reported on
 * the type a user names.  Returns 0 or -ENOMEM.
 */
static int flatten(const struct snapshot *s, const struct type_def *t,
		   const char *prefix, uint64_t base, int depth,
		   struct flat *out)
{
	size_t i, anon = 0;
	int err = 0;

	for (i = 0; !err && i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type_def *inner = inline_aggregate(s, m);
		struct flat_member *f;
		char *path;

		anon += !m->name;
		if (inner && depth < MAX_EQUIV_DEPTH) {
			path = m->name ? xasprintf("%s%s.", prefix, m->name) :
			       strdup(prefix);
			err = path ? flatten(s, inner, path, base + m->offset,
					     depth + 1, out) : -ENOMEM;
			free(path);
			continue;
		}
		path = m->name ? xasprintf("%s%s", prefix, m->name) :
		       xasprintf("%s(anonymous %zu)", prefix, anon);
		f = path ? ARRAY_APPEND(out->v, out->nr, out->alloc) : NULL;
		if (!f) {
			free(path);
			return -ENOMEM;
		}
		f->path = path;
		f->m = *m;
		f->m.offset += base;
		if (f->m.bitfield)
			f->m.bit_offset += base * 8;
	}
	return err;
}

static void flat_release(struct flat *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		free(f->v[i].path);
	free(f->v);
	f->v = NULL;
	f->nr = f->alloc = 0;
}

static char *describe_member(const struct type_member *m)
{
	if (m->bitfield)
		return xasprintf("%s (bit %llu, %u bits)", m->type,
				 (unsigned long long)m->bit_offset, m->bit_size);
	return xasprintf("%s (offset %llu, %llu bytes)", m->type,
			 (unsigned long long)m->offset,
			 (unsigned long long)m->size);
}

/* A change of member @f of the type named @type: "TYPE.PATH". */
static int add_member_change(struct type_pair *tp, enum change_kind kind,
			     const char *type, const struct flat_member *f,
			     char *was, char *now)
{
	char *subject = xasprintf("%s.%s", type, f->path);
	int err = -ENOMEM;

	if (subject && (was || kind == CHANGE_MEMBER_ADDED ||
			kind == CHANGE_MEMBER_RESERVED_USED) &&
	    (now || kind == CHANGE_MEMBER_REMOVED))
		err = diff_add(tp->d, kind, subject, was, now, tp->i, tp->j);
	free(subject);
	free(was);
	free(now);
	return err;
}

/*
 * The new member that old member @idx is: the one of the same path, or of
 * the same rank among those of that path (names a damaged snapshot
 * repeats).
 */
static int32_t counterpart(const struct flat *a, size_t idx,
			   const struct flat *b)
{
	const char *path = a->v[idx].path;
	size_t i, rank = 0;

	for (i = 0; i < idx; i++)
		rank += !strcmp(a->v[i].path, path);
	for (i = 0; i < b->nr; i++)
		if (!strcmp(b->v[i].path, path) && !rank--)
			return i;
	return -1;
}

/*
 * Whether @a became the flexible array @b in place: "T[0]" or "T[1]", the
 * old ways to spell a trailing array of any length, to "T[]".  The
 * element types are compared as spellings of their snapshots.
 */
static int flex_array_of(const struct type_pair *tp, const struct type_member *a,
			 const struct type_member *b)
{
	size_t la = strlen(a->type), lb = strlen(b->type);
	struct type_ref ra, rb;
	char *ea, *eb;
	int same = -ENOMEM;

	if (a->bitfield || b->bitfield || a->offset != b->offset ||
	    lb < 3 || strcmp(b->type + lb - 2, "[]") || la < 4 ||
	    (strcmp(a->type + la - 3, "[0]") && strcmp(a->type + la - 3, "[1]")))
		return 0;
	ea = strndup(a->type, la - 3);
	eb = strndup(b->type, lb - 2);
	if (!ea || !eb)
		goto out;
	same = !strcmp(ea, eb);
	if (same)
		goto out;
	same = -ENOMEM;
	if (type_ref__parse(tp->old, ea, &ra))
		goto out;
	if (type_ref__parse(tp->new, eb, &rb)) {
		type_ref__release(&ra);
		goto out;
	}
	same = types_ref_equiv(tp->old, tp->new, ea, &ra, eb, &rb);
	type_ref__release(&ra);
	type_ref__release(&rb);
out:
	free(ea);
	free(eb);
	return same;
}

/*
 * What changed about old member @ia as new member @ib: 1 with the kind in
 * *@kind, 0 for nothing, or -ENOMEM.  One kind only: the description
 * carries offset and size, so a new type that also moved the member is
 * one member-type-changed, not that and a member-offset-changed.
 */
static int member_change(struct type_pair *tp, size_t ia, size_t ib,
			 enum change_kind *kind)
{
	const struct type_member *ma = &tp->fa.v[ia].m, *mb = &tp->fb.v[ib].m;
	bool same_size = ma->size == mb->size && ma->bit_size == mb->bit_size;
	int same = 1;

	if (is_reserved_name(ma->name) && within(mb, ma))
		return 0;	/* reserved space given to new members */
	if (strcmp(ma->type, mb->type)) {
		same = flex_array_of(tp, ma, mb);
		if (same)
			return same < 0 ? same : 0;	/* the same array */
		same = types_ref_equiv(tp->old, tp->new, ma->type, &ma->type_ref,
				       mb->type, &mb->type_ref);
	}
	if (same < 0)
		return same;
	if (!same || (strcmp(ma->type, mb->type) && !same_size))
		*kind = CHANGE_MEMBER_TYPE_CHANGED;
	else if (!same_size)
		*kind = CHANGE_MEMBER_SIZE_CHANGED;
	else if (bit_start(ma) != bit_start(mb))
		*kind = CHANGE_MEMBER_OFFSET_CHANGED;
	else
		return 0;
	return 1;
}

static int compare_member(struct type_pair *tp, size_t ia, size_t ib)
{
	enum change_kind kind;
	int changed = member_change(tp, ia, ib, &kind);

	if (changed <= 0)
		return changed;
	return add_member_change(tp, kind, tp->a->name, &tp->fa.v[ia],
				 describe_member(&tp->fa.v[ia].m),
				 describe_member(&tp->fb.v[ib].m));
}

/* An unnamed-in-new old member: renamed in place, or removed. */
static int member_gone(struct type_pair *tp, size_t ia)
{
	const struct type_member *ma = &tp->fa.v[ia].m;
	size_t ib;

	if (is_reserved_name(ma->name))
		return 0;	/* padding is nobody's interface */
	for (ib = 0; ib < tp->fb.nr; ib++) {
		const struct type_member *mb = &tp->fb.v[ib].m;
		int same;

		if (tp->used_b[ib] || bit_start(ma) != bit_start(mb) ||
		    bit_end(ma) != bit_end(mb))
			continue;
		same = types_ref_equiv(tp->old, tp->new, ma->type, &ma->type_ref,
				       mb->type, &mb->type_ref);
		if (same < 0)
			return same;
		if (!same)
			continue;
		tp->used_b[ib] = true;
		return add_member_change(tp, CHANGE_MEMBER_RENAMED, tp->a->name,
					 &tp->fa.v[ia],
					 xasprintf("%s", tp->fa.v[ia].path),
					 xasprintf("%s", tp->fb.v[ib].path));
	}
	return add_member_change(tp, CHANGE_MEMBER_REMOVED, tp->a->name,
				 &tp->fa.v[ia], describe_member(ma), NULL);
}

/* A new member that is not an old one: in reserved space, or added. */
static int member_new(struct type_pair *tp, size_t ib)
{
	const struct type_member *mb = &tp->fb.v[ib].m;
	enum change_kind kind = CHANGE_MEMBER_ADDED;
	size_t ia;

	for (ia = 0; ia < tp->fa.nr; ia++)
		if (is_reserved_name(tp->fa.v[ia].m.name) &&
		    within(mb, &tp->fa.v[ia].m))
			kind = CHANGE_MEMBER_RESERVED_USED;
	return add_member_change(tp, kind, tp->b->name, &tp->fb.v[ib], NULL,
				 describe_member(mb));
}

static int compare_members(struct type_pair *tp)
{
	size_t ia, ib;
	int32_t *match = calloc(tp->fa.nr + 1, sizeof(*match));
	int err = 0;

	tp->used_b = calloc(tp->fb.nr + 1, sizeof(bool));
	if (!match || !tp->used_b)
		err = -ENOMEM;
	for (ia = 0; !err && ia < tp->fa.nr; ia++) {
		match[ia] = counterpart(&tp->fa, ia, &tp->fb);
		if (match[ia] >= 0)
			tp->used_b[match[ia]] = true;
	}
	for (ia = 0; !err && ia < tp->fa.nr; ia++)
		err = match[ia] >= 0 ? compare_member(tp, ia, match[ia]) :
		      member_gone(tp, ia);
	for (ib = 0; !err && ib < tp->fb.nr; ib++)
		if (!tp->used_b[ib])
			err = member_new(tp, ib);
	free(match);
	free(tp->used_b);
	tp->used_b = NULL;
	return err;
}

/*
 * Whether a syscall argument is a size: "size", "usize" (the names
 * copy_struct_from_user() callers use) or the pointer argument's own
 * name with "_len" or "_size" ("rseq", "rseq_len").
 */
static bool is_size_arg(const char *name, const char *of)
{
	size_t n = of ? strlen(of) : 0;

	if (!name)
		return false;
	if (!strcmp(name, "size") || !strcmp(name, "usize"))
		return true;
	return n && !strncmp(name, of, n) &&
	       (!strcmp(name + n, "_len") || !strcmp(name + n, "_size"));
}

/* Is the argument spelt @type, resolved @ref, a pointer to type @name? */
static int is_pointer_to(const struct snapshot *s, const char *type,
			 const struct type_ref *ref, const char *name)
{
	struct type_ref r = { .base = -1 };
	const char *text;
	int yes;

	if (type_ref__resolve(s, type, ref, &r, &text))
		return -ENOMEM;
	yes = r.base >= 0 && r.declarator && !strcmp(r.declarator, "*") &&
	      !strcmp(s->types.v[r.base].name, name);
	type_ref__release(&r);
	return yes;
}

static bool is_void_pointer(const char *type)
{
	return !strcmp(type_spelling__unqualified(type), "void *");
}

/*
 * Does a syscall of @s take a pointer to the type @name with the size the
 * caller passes?  Then the kernel copies what it knows of the size given
 * (copy_struct_from_user()), and the type may grow at its end.  A syscall
 * that also takes a "void *" is not counted: its size is the buffer's.
 */
static int passed_with_size(const struct snapshot *s, const char *name)
{
	size_t i, k, j;

	for (i = 0; i < s->syscalls.nr; i++) {
		const struct syscall *sc = &s->syscalls.v[i];
		bool untyped = false;

		for (k = 0; k < sc->nr_args; k++)
			untyped |= is_void_pointer(sc->args[k].type);
		for (k = 0; !untyped && k < sc->nr_args; k++) {
			int yes = is_pointer_to(s, sc->args[k].type,
						&sc->args[k].type_ref, name);

			if (yes < 0)
				return yes;
			for (j = k + 1; yes && j < sc->nr_args; j++)
				if (is_size_arg(sc->args[j].name, sc->args[k].name) &&
				    !strchr(sc->args[j].type, '*'))
					return 1;
		}
	}
	return 0;
}

/*
 * Is the type of @tp extensible: passed with its size, or carrying its
 * own "size" member near its start (perf_event_attr.size,
 * sched_attr.size)?
 */
static int is_extensible(struct type_pair *tp)
{
	size_t i;
	int yes;

	for (i = 0; i < tp->fa.nr; i++)
		if (!strcmp(tp->fa.v[i].path, "size") && !tp->fa.v[i].m.bitfield &&
		    tp->fa.v[i].m.offset < 16)
			return 1;
	yes = passed_with_size(tp->old, tp->a->name);
	return yes ? yes : passed_with_size(tp->new, tp->b->name);
}

/*
 * Did the type of @tp grow at its end and keep every old member as it
 * was (the same path, place, size and type; padding may be given away)?
 */
static int grew_at_end(struct type_pair *tp)
{
	enum change_kind kind;
	size_t ia;
	int32_t ib;
	int changed;

	if (tp->b->size <= tp->a->size)
		return 0;
	for (ia = 0; ia < tp->fa.nr; ia++) {
		if (is_reserved_name(tp->fa.v[ia].m.name))
			continue;
		ib = counterpart(&tp->fa, ia, &tp->fb);
		if (ib < 0)
			return 0;
		changed = member_change(tp, ia, ib, &kind);
		if (changed)
			return changed < 0 ? changed : 0;
	}
	return 1;
}

static int add_enum_change(struct type_pair *tp, enum change_kind kind,
			   const char *name, const struct enumerator *ea,
			   const struct enumerator *eb)
{
	char *subject = xasprintf("%s.%s", tp->a->name, name);
	char *was = ea ? xasprintf("%lld", (long long)ea->value) : NULL;
	char *now = eb ? xasprintf("%lld", (long long)eb->value) : NULL;
	int err = -ENOMEM;

	if (subject && (!ea || was) && (!eb || now))
		err = diff_add(tp->d, kind, subject, was, now, tp->i, tp->j);
	free(subject);
	free(was);
	free(now);
	return err;
}

static const struct enumerator *find_enumerator(const struct type_def *t,
						const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_enumerators; i++)
		if (!strcmp(t->enumerators[i].name, name))
			return &t->enumerators[i];
	return NULL;
}

static int compare_enumerators(struct type_pair *tp)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < tp->a->nr_enumerators; i++) {
		const struct enumerator *ea = &tp->a->enumerators[i];
		const struct enumerator *eb = find_enumerator(tp->b, ea->name);

		if (!eb)
			err = add_enum_change(tp, CHANGE_ENUMERATOR_REMOVED,
					      ea->name, ea, NULL);
		else if (ea->value != eb->value)
			err = add_enum_change(tp, is_enum_limit(ea->name) ?
					      CHANGE_ENUMERATOR_LIMIT_CHANGED :
					      CHANGE_ENUMERATOR_VALUE_CHANGED,
					      ea->name, ea, eb);
	}
	for (i = 0; !err && i < tp->b->nr_enumerators; i++) {
		const struct enumerator *eb = &tp->b->enumerators[i];

		if (!find_enumerator(tp->a, eb->name))
			err = add_enum_change(tp, CHANGE_ENUMERATOR_ADDED,
					      eb->name, NULL, eb);
	}
	return err;
}

static char *describe_type(const struct type_def *t)
{
	if (t->kind == TYPE_TYPEDEF)
		return xasprintf("typedef %s", t->target ? t->target : "?");
	if (t->incomplete)
		return xasprintf("%s, incomplete", type_kind__name(t->kind));
	return xasprintf("%s, %llu bytes", type_kind__name(t->kind),
			 (unsigned long long)t->size);
}

static int add_type_change(struct type_pair *tp, enum change_kind kind,
			   char *was, char *now)
{
	int err = was && now ? diff_add(tp->d, kind, tp->a->name, was, now,
					tp->i, tp->j) : -ENOMEM;

	free(was);
	free(now);
	return err;
}

/*
 * Two structs or unions, flattened: a size change, or an extensible type
 * grown at its end with its old members kept (type-extended), then what
 * happened to each member.
 */
static int compare_aggregates(struct type_pair *tp)
{
	enum change_kind kind = CHANGE_TYPE_SIZE_CHANGED;
	int err, yes;

	err = flatten(tp->old, tp->a, "", 0, 0, &tp->fa);
	if (!err)
		err = flatten(tp->new, tp->b, "", 0, 0, &tp->fb);
	if (!err && tp->a->size != tp->b->size) {
		yes = grew_at_end(tp);
		if (yes > 0)
			yes = is_extensible(tp);
		if (yes > 0)
			kind = CHANGE_TYPE_EXTENDED;
		err = yes < 0 ? yes :
		      add_type_change(tp, kind, describe_type(tp->a),
				      describe_type(tp->b));
	}
	if (!err)
		err = compare_members(tp);
	flat_release(&tp->fa);
	flat_release(&tp->fb);
	return err;
}

static int compare_type(struct type_pair *tp)
{
	const struct type_def *a = tp->a, *b = tp->b;
	int same, err;

	if (a->kind != b->kind)
		return add_type_change(tp, CHANGE_TYPE_KIND_CHANGED,
				       describe_type(a), describe_type(b));
	if (a->incomplete || b->incomplete)
		return 0;	/* no layout on one side to compare */
	if (a->kind == TYPE_TYPEDEF) {
		if (!a->target || !b->target || !strcmp(a->target, b->target))
			return 0;
		same = types_ref_equiv(tp->old, tp->new, a->target, &a->target_ref,
				       b->target, &b->target_ref);
		if (same)
			return same < 0 ? same : 0;
		return add_type_change(tp, CHANGE_TYPEDEF_CHANGED,
				       describe_type(a), describe_type(b));
	}
	if (a->kind == TYPE_STRUCT || a->kind == TYPE_UNION)
		return compare_aggregates(tp);
	if (a->size != b->size) {
		err = add_type_change(tp, CHANGE_TYPE_SIZE_CHANGED,
				      describe_type(a), describe_type(b));
		if (err)
			return err;
	}
	if (a->kind == TYPE_ENUM)
		return compare_enumerators(tp);
	return 0;
}

static int type_alone(struct diff *d, const struct type_def *t, int32_t i,
		      bool removed)
{
	char *what;
	int err;

	if (is_anonymous(t))
		return 0;
	what = describe_type(t);
	if (!what)
		return -ENOMEM;
	err = removed ? diff_add(d, CHANGE_TYPE_REMOVED, t->name, what, NULL, i, -1) :
	      diff_add(d, CHANGE_TYPE_ADDED, t->name, NULL, what, -1, i);
	free(what);
	return err;
}

/* A merge of both sides in name order. */
int diff_types(const struct snapshot *old, const struct snapshot *new,
	       struct diff *d)
{
	size_t i = 0, j = 0;
	int err = 0;

	while (!err && (i < old->types.nr || j < new->types.nr)) {
		int c = i == old->types.nr ? 1 : j == new->types.nr ? -1 :
			strcmp(old->types.v[i].name, new->types.v[j].name);
		struct type_pair tp = { .old = old, .new = new, .d = d };

		if (c < 0) {
			err = type_alone(d, &old->types.v[i], i, true);
			i++;
		} else if (c > 0) {
			err = type_alone(d, &new->types.v[j], j, false);
			j++;
		} else {
			tp.a = &old->types.v[i];
			tp.b = &new->types.v[j];
			tp.i = i++;
			tp.j = j++;
			/* compared through the named type that holds it */
			if (!is_member_placed(tp.a) || !is_member_placed(tp.b))
				err = compare_type(&tp);
		}
	}
	return err;
}
