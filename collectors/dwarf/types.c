// SPDX-License-Identifier: GPL-2.0-only
/*
 * DWARF types: their C spelling, their layout, and the closure of the types
 * that syscall arguments reach.
 *
 * A type is spelt as C declares it ("const char *", "int (*)(void *)",
 * "char[16]"); naming it queues the named types it is made of (structs,
 * unions, enums, typedefs, base types), and the closure records each queued
 * type once, by name: its size, its members (whose types are named, and so
 * queued, in turn), its enumerators, the target of a typedef.  Pointers,
 * qualifiers and arrays are not types of their own in the snapshot: they
 * are part of the spelling.  A type only declared here is recorded as
 * incomplete and not followed; if a definition turns up later under the
 * same name, it completes the record.  The file of the definition that
 * gave the layout is the type's (source-tree.h): the first met, in the
 * order of the queue, which the syscalls (or vDSO symbols) and their
 * members give, so the same vmlinux always gives the same file.
 *
 * A vDSO image is compiled apart from the kernel, vdso32 and vdsox32 for
 * ILP32 ABIs where a long is 4 bytes, so the types its prototypes reach
 * are named with the image's prefix ("vdso32:struct old_timespec32",
 * "vdso32:long int"): they never pair with the kernel's types, nor with
 * another image's.  The kernel's own have no prefix.
 *
 * Anonymous structs, unions and enums get a name from where they are first
 * met, "KIND (PLACE)", so that two builds name them alike as long as the
 * place keeps its name, whatever else the enclosing type gains or loses:
 *
 *   struct (typedef kernel_cap_t)	behind a typedef
 *   struct (union bpf_attr.link_create)	the type of a named member
 *   union (union bpf_attr.link_create.{target_fd})
 *					an unnamed member, after the first
 *					member name it holds (C makes that
 *					name unique in the enclosing scope)
 *   union (struct foo.{at 8})		an unnamed member without names
 *
 * The PLACE of a named type is its name, of an anonymous one what its
 * parentheses hold, so places nest: "union (union bpf_attr.{map_fd}.{value})";
 * the prefix comes once, in front: "vdso64:struct (typedef foo_t)".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/array.h"
#include "types.h"

/* A name -> value map for the closure: the types recorded, by name. */
struct name_slot {
	char *name;
	size_t value;
};

struct name_map {
	struct name_slot *v;
	size_t size;		/* a power of two */
	size_t nr;
};

/* Anonymous types met so far: DIE offset -> the name they were given. */
struct anon_name {
	Dwarf_Off off;
	char *name;
};

struct type_closure {
	struct snapshot *s;
	const char *prefix;		/* of every name: "" or "vdso32:" */
	size_t prefix_len;
	const struct source_tree *tree;
	struct name_map recorded;	/* type name -> index in s->types */
	struct anon_name *anon;
	size_t nr_anon, alloc_anon;
	Dwarf_Die *queue;
	size_t nr_queue, alloc_queue, next;
};

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct name_slot *name_slot(const struct name_map *m, const char *name)
{
	size_t i = name_hash(name) & (m->size - 1);

	while (m->v[i].name && strcmp(m->v[i].name, name))
		i = (i + 1) & (m->size - 1);
	return &m->v[i];
}

static int name_map_grow(struct name_map *m)
{
	struct name_map bigger = { .size = m->size ? m->size * 2 : 256 };
	size_t i;

	bigger.v = calloc(bigger.size, sizeof(*bigger.v));
	if (!bigger.v)
		return -ENOMEM;
	for (i = 0; i < m->size; i++)
		if (m->v[i].name)
			*name_slot(&bigger, m->v[i].name) = m->v[i];
	bigger.nr = m->nr;
	free(m->v);
	*m = bigger;
	return 0;
}

/* The slot for @name, added with @value if new; NULL (ENOMEM). */
static struct name_slot *name_map_add(struct name_map *m, const char *name,
				      size_t value, bool *added)
{
	struct name_slot *slot;

	if (2 * (m->nr + 1) > m->size && name_map_grow(m))
		return NULL;
	slot = name_slot(m, name);
	*added = !slot->name;
	if (*added) {
		slot->name = strdup(name);
		if (!slot->name)
			return NULL;
		slot->value = value;
		m->nr++;
	}
	return slot;
}

struct type_closure *type_closure__new(struct snapshot *s, const char *prefix,
				       const struct source_tree *tree)
{
	struct type_closure *tc = calloc(1, sizeof(*tc));

	if (!tc)
		return NULL;
	tc->s = s;
	tc->prefix = prefix;
	tc->prefix_len = strlen(prefix);
	tc->tree = tree;
	s->types.collected = true;
	return tc;
}

void type_closure__free(struct type_closure *tc)
{
	size_t i;

	if (!tc)
		return;
	for (i = 0; i < tc->recorded.size; i++)
		free(tc->recorded.v[i].name);
	for (i = 0; i < tc->nr_anon; i++)
		free(tc->anon[i].name);
	free(tc->recorded.v);
	free(tc->anon);
	free(tc->queue);
	free(tc);
}

/* A growing string for the spellings. */
struct spell {
	char *buf;
	size_t len, alloc;
	int depth;		/* of spell_type() calls: damaged DWARF can loop */
	int err;
};

/* Real declarators nest a few levels; a type made of itself does not end. */
#define MAX_SPELL_DEPTH	64

static void put(struct spell *sp, const char *s)
{
	size_t n = strlen(s);

	if (sp->err)
		return;
	if (sp->len + n + 1 > sp->alloc) {
		size_t alloc = (sp->len + n + 1) * 2;
		char *buf = realloc(sp->buf, alloc);

		if (!buf) {
			sp->err = -ENOMEM;
			return;
		}
		sp->buf = buf;
		sp->alloc = alloc;
	}
	memcpy(sp->buf + sp->len, s, n + 1);
	sp->len += n;
}

/* The type @die refers to, into @type; false for none ("void"). */
static bool type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	       dwarf_formref_die(&attr, type);
}

static const char *kind_word(int tag)
{
	switch (tag) {
	case DW_TAG_structure_type:
		return "struct";
	case DW_TAG_union_type:
		return "union";
	case DW_TAG_enumeration_type:
		return "enum";
	default:
		return NULL;
	}
}

static const char *anon_name(const struct type_closure *tc, Dwarf_Die *die)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	size_t i;

	for (i = tc->nr_anon; i-- > 0; )
		if (tc->anon[i].off == off)
			return tc->anon[i].name;
	return NULL;
}

/* Give the anonymous type @die the name "KIND (@where)", unless it has one. */
static int name_anon(struct type_closure *tc, Dwarf_Die *die,
		     const char *where)
{
	const char *word = kind_word(dwarf_tag(die));
	struct anon_name *a;
	size_t len;

	if (!word || dwarf_diename(die) || anon_name(tc, die))
		return 0;
	a = ARRAY_APPEND(tc->anon, tc->nr_anon, tc->alloc_anon);
	if (!a)
		return -ENOMEM;
	len = tc->prefix_len + strlen(word) + strlen(where) + 4;
	a->name = malloc(len);
	if (!a->name) {
		tc->nr_anon--;
		return -ENOMEM;
	}
	snprintf(a->name, len, "%s%s (%s)", tc->prefix, word, where);
	a->off = dwarf_dieoffset(die);
	return 0;
}

/*
 * The snapshot's name of a named (or named anonymous) type; NULL if none,
 * or with *@err set to -ENOMEM when naming an anonymous one ran out.
 */
static const char *type_key(struct type_closure *tc, Dwarf_Die *die,
			    char *buf, size_t size, int *err)
{
	const char *name = dwarf_diename(die), *word = kind_word(dwarf_tag(die));

	if (!name) {
		if (!word)
			return NULL;
		if (name_anon(tc, die, "anonymous")) {
			*err = -ENOMEM;
			return NULL;
		}
		return anon_name(tc, die);
	}
	if (!word && !tc->prefix_len)
		return name;
	snprintf(buf, size, "%s%s%s%s", tc->prefix, word ?: "", word ? " " : "",
		 name);
	return buf;
}

static void queue(struct type_closure *tc, Dwarf_Die *die, struct spell *sp)
{
	Dwarf_Die *slot = ARRAY_APPEND(tc->queue, tc->nr_queue, tc->alloc_queue);

	if (!slot)
		sp->err = -ENOMEM;
	else
		*slot = *die;
}

static void spell_type(struct type_closure *tc, Dwarf_Die *die,
		       struct spell *sp);

/* "void", or the spelling of what @die refers to */
static void spell_target(struct type_closure *tc, Dwarf_Die *die,
			 struct spell *sp)
{
	Dwarf_Die target;

	if (type_of(die, &target))
		spell_type(tc, &target, sp);
	else
		put(sp, "void");
}

static void spell_dims(Dwarf_Die *array, struct spell *sp)
{
	Dwarf_Die sub;
	char dim[32];

	if (dwarf_child(array, &sub))
		return;
	do {
		Dwarf_Attribute attr;
		Dwarf_Word n;

		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		if (dwarf_attr(&sub, DW_AT_count, &attr) && !dwarf_formudata(&attr, &n))
			snprintf(dim, sizeof(dim), "[%llu]", (unsigned long long)n);
		else if (dwarf_attr(&sub, DW_AT_upper_bound, &attr) &&
			 !dwarf_formudata(&attr, &n))
			snprintf(dim, sizeof(dim), "[%llu]", (unsigned long long)n + 1);
		else
			snprintf(dim, sizeof(dim), "[]");
		put(sp, dim);
	} while (!dwarf_siblingof(&sub, &sub));
}

/* "RET MID(PARAMS)" for the subroutine type @fn. */
static void spell_function(struct type_closure *tc, Dwarf_Die *fn,
			   const char *mid, struct spell *sp)
{
	const char *sep = "";
	Dwarf_Die param;

	spell_target(tc, fn, sp);
	put(sp, " ");
	put(sp, mid);
	put(sp, "(");
	if (!dwarf_child(fn, &param)) {
		do {
			if (dwarf_tag(&param) == DW_TAG_formal_parameter) {
				put(sp, sep);
				spell_target(tc, &param, sp);
				sep = ", ";
			} else if (dwarf_tag(&param) == DW_TAG_unspecified_parameters) {
				put(sp, sep);
				put(sp, "...");
			}
		} while (!dwarf_siblingof(&param, &param));
	}
	put(sp, sep[0] ? ")" : "void)");
}

static void spell_qualified(struct type_closure *tc, Dwarf_Die *die,
			    const char *qual, struct spell *sp)
{
	Dwarf_Die target;

	/* "char * const" but "const char" */
	if (type_of(die, &target) && dwarf_tag(&target) == DW_TAG_pointer_type) {
		spell_type(tc, &target, sp);
		put(sp, " ");
		put(sp, qual);
		return;
	}
	put(sp, qual);
	put(sp, " ");
	spell_target(tc, die, sp);
}

static void spell_pointer(struct type_closure *tc, Dwarf_Die *die,
			  struct spell *sp)
{
	Dwarf_Die target;

	if (!type_of(die, &target)) {
		put(sp, "void *");
		return;
	}
	if (dwarf_tag(&target) == DW_TAG_subroutine_type) {
		spell_function(tc, &target, "(*)", sp);
		return;
	}
	spell_type(tc, &target, sp);
	put(sp, sp->len && sp->buf[sp->len - 1] == '*' ? "*" : " *");
}

static void spell_named_or_declarator(struct type_closure *tc, Dwarf_Die *die,
				      struct spell *sp);

static void spell_type(struct type_closure *tc, Dwarf_Die *die,
		       struct spell *sp)
{
	if (sp->depth == MAX_SPELL_DEPTH) {
		put(sp, "<type loop>");
		return;
	}
	sp->depth++;
	spell_named_or_declarator(tc, die, sp);
	sp->depth--;
}

static void spell_named_or_declarator(struct type_closure *tc, Dwarf_Die *die,
				      struct spell *sp)
{
	char buf[512], tag[32];
	const char *key;

	switch (dwarf_tag(die)) {
	case DW_TAG_pointer_type:
		spell_pointer(tc, die, sp);
		return;
	case DW_TAG_const_type:
		spell_qualified(tc, die, "const", sp);
		return;
	case DW_TAG_volatile_type:
		spell_qualified(tc, die, "volatile", sp);
		return;
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		spell_target(tc, die, sp);
		return;
	case DW_TAG_array_type:
		spell_target(tc, die, sp);
		spell_dims(die, sp);
		return;
	case DW_TAG_subroutine_type:
		spell_function(tc, die, "", sp);
		return;
	case DW_TAG_base_type:
	case DW_TAG_typedef:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		key = type_key(tc, die, buf, sizeof(buf), &sp->err);
		if (key) {
			put(sp, key);
			queue(tc, die, sp);
			return;
		}
		break;
	}
	snprintf(tag, sizeof(tag), "<DWARF tag %#x>", dwarf_tag(die));
	put(sp, tag);
}

char *type_closure__name(struct type_closure *tc, Dwarf_Die *die)
{
	struct spell sp = { 0 };

	spell_target(tc, die, &sp);
	if (sp.err) {
		free(sp.buf);
		errno = ENOMEM;
		return NULL;
	}
	return sp.buf;
}

static uint64_t udata(Dwarf_Die *die, unsigned int name, uint64_t dflt)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (dwarf_attr_integrate(die, name, &attr) && !dwarf_formudata(&attr, &v))
		return v;
	return dflt;
}

/* The size of the type of member (or typedef) @die in bytes; 0 if none. */
static uint64_t target_size(Dwarf_Die *die)
{
	Dwarf_Die target;
	Dwarf_Word size;

	if (!type_of(die, &target) || dwarf_aggregate_size(&target, &size))
		return 0;
	return size;
}

static uint32_t fixed_size(const struct ilp32_model *model, const char *name)
{
	size_t i;

	for (i = 0; name && i < model->nr_fixed; i++)
		if (!strcmp(model->fixed[i].name, name))
			return model->fixed[i].size;
	return 0;
}

static bool is_long(const char *base_name)
{
	return base_name && strstr(base_name, "long") &&
	       !strstr(base_name, "long long");
}

uint32_t dwarf_ilp32_size(Dwarf_Die *die, const struct ilp32_model *model)
{
	Dwarf_Die type, next;
	Dwarf_Word size;
	uint32_t fixed;
	int hops;

	if (!type_of(die, &type))
		return 0;
	for (hops = 0; hops < MAX_TYPEDEF_HOPS; hops++) {
		const char *name = dwarf_diename(&type);

		switch (dwarf_tag(&type)) {
		case DW_TAG_pointer_type:
			return 4;
		case DW_TAG_typedef:
			fixed = fixed_size(model, name);
			if (fixed)
				return fixed;
			/* fall through */
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
			if (!type_of(&type, &next))
				return 0;
			type = next;
			continue;
		case DW_TAG_base_type:
			if (is_long(name))
				return 4;
			/* fall through */
		default:
			return dwarf_aggregate_size(&type, &size) ? 0 : size;
		}
	}
	return 0;
}

/* The first member name in struct or union @die, through unnamed members. */
static const char *first_name(Dwarf_Die *die, int depth)
{
	const char *name;
	Dwarf_Die child, target;

	if (depth == MAX_SPELL_DEPTH || dwarf_child(die, &child))
		return NULL;
	do {
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		name = dwarf_diename(&child);
		if (name)
			return name;
		if (!type_of(&child, &target) || !kind_word(dwarf_tag(&target)))
			continue;
		name = first_name(&target, depth + 1);
		if (name)
			return name;
	} while (!dwarf_siblingof(&child, &child));
	return NULL;
}

/*
 * "union bpf_attr" for itself, "union bpf_attr.link_create" for "struct (...)",
 * without the prefix of @tc.
 */
static void place_of(const struct type_closure *tc, const char *owner,
		     const char **place, int *len)
{
	const char *name = owner + tc->prefix_len, *open = strstr(name, " (");
	size_t n = strlen(name);

	if (open && n && name[n - 1] == ')') {
		*place = open + 2;
		*len = (int)(name + n - 1 - *place);
	} else {
		*place = name;
		*len = (int)n;
	}
}

static int add_member(struct type_closure *tc, struct type_def *t,
		      Dwarf_Die *die, const char *owner)
{
	struct type_member *m = type__add_member(t);
	const char *name = dwarf_diename(die), *place, *first;
	Dwarf_Die target;
	char where[600];
	int len;

	if (!m)
		return -ENOMEM;
	/* an anonymous member type takes its name from here */
	if (type_of(die, &target) && kind_word(dwarf_tag(&target)) &&
	    !dwarf_diename(&target)) {
		place_of(tc, owner, &place, &len);
		first = name ? NULL : first_name(&target, 0);
		if (name)
			snprintf(where, sizeof(where), "%.*s.%s", len, place, name);
		else if (first)
			snprintf(where, sizeof(where), "%.*s.{%s}", len, place, first);
		else
			snprintf(where, sizeof(where), "%.*s.{at %llu}", len, place,
				 (unsigned long long)udata(die, DW_AT_data_member_location, 0));
		if (name_anon(tc, &target, where))
			return -ENOMEM;
	}
	m->type = type_closure__name(tc, die);
	m->name = name ? strdup(name) : NULL;
	if (!m->type || (name && !m->name))
		return -ENOMEM;
	m->size = target_size(die);
	m->offset = udata(die, DW_AT_data_member_location, 0);
	if (dwarf_hasattr(die, DW_AT_bit_size)) {
		m->bitfield = true;
		m->bit_size = udata(die, DW_AT_bit_size, 0);
		m->bit_offset = udata(die, DW_AT_data_bit_offset, m->offset * 8);
		m->offset = m->bit_offset / 8;
	}
	return 0;
}

static int add_enumerator(struct type_def *t, Dwarf_Die *die)
{
	struct enumerator *e = type__add_enumerator(t);
	Dwarf_Attribute attr;
	Dwarf_Sword v = 0;

	if (!e)
		return -ENOMEM;
	if (dwarf_attr(die, DW_AT_const_value, &attr))
		dwarf_formsdata(&attr, &v);
	e->value = v;
	e->name = strdup(dwarf_diename(die) ?: "");
	return e->name ? 0 : -ENOMEM;
}

/* Members or enumerators, in declaration order. */
static int add_children(struct type_closure *tc, size_t index, Dwarf_Die *die)
{
	Dwarf_Die child;
	int err = 0;

	if (dwarf_child(die, &child))
		return 0;
	do {
		/* the record may move as the closure adds types: re-fetch it */
		struct type_def *t = &tc->s->types.v[index];

		if (dwarf_tag(&child) == DW_TAG_member)
			err = add_member(tc, t, &child, t->name);
		else if (dwarf_tag(&child) == DW_TAG_enumerator)
			err = add_enumerator(t, &child);
	} while (!err && !dwarf_siblingof(&child, &child));
	return err;
}

static const enum type_kind kinds[] = {
	[DW_TAG_structure_type]		= TYPE_STRUCT,
	[DW_TAG_union_type]		= TYPE_UNION,
	[DW_TAG_enumeration_type]	= TYPE_ENUM,
	[DW_TAG_typedef]		= TYPE_TYPEDEF,
	[DW_TAG_base_type]		= TYPE_BASE,
};

/* Record @die under @name, or complete a declaration recorded before. */
static int record(struct type_closure *tc, Dwarf_Die *die, const char *name)
{
	bool declared = dwarf_hasattr(die, DW_AT_declaration), added;
	struct name_slot *slot;
	struct type_def *t;
	size_t index;
	char *target;
	int err;

	slot = name_map_add(&tc->recorded, name, tc->s->types.nr, &added);
	if (!slot)
		return -ENOMEM;
	index = slot->value;
	if (added) {
		t = snapshot__add_type(tc->s);
		if (!t)
			return -ENOMEM;
		t->name = strdup(name);
		if (!t->name)
			return -ENOMEM;
		t->kind = kinds[dwarf_tag(die)];
		t->incomplete = true;
	}
	t = &tc->s->types.v[index];
	if (declared || !t->incomplete)
		return 0;	/* nothing to add, or already complete */
	t->incomplete = false;
	err = source_tree__decl_file(tc->tree, die, &t->file);
	if (err)
		return err;
	if (t->kind == TYPE_TYPEDEF) {
		target = type_closure__name(tc, die);
		t = &tc->s->types.v[index];
		t->target = target;
		t->size = target_size(die);
		return target ? 0 : -ENOMEM;
	}
	t->size = udata(die, DW_AT_byte_size, 0);
	return add_children(tc, index, die);
}

int type_closure__run(struct type_closure *tc)
{
	char buf[512];
	int err = 0;

	while (!err && tc->next < tc->nr_queue) {
		Dwarf_Die die = tc->queue[tc->next++], target;
		const char *name = type_key(tc, &die, buf, sizeof(buf), &err);

		if (!name)
			continue;	/* unnamed, or err is set */
		/* an anonymous struct behind a typedef is named after it */
		if (dwarf_tag(&die) == DW_TAG_typedef && type_of(&die, &target)) {
			char where[600];

			snprintf(where, sizeof(where), "typedef %s",
				 name + tc->prefix_len);
			err = name_anon(tc, &target, where);
			if (err)
				break;
		}
		err = record(tc, &die, name);
	}
	return err;
}
