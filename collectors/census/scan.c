// SPDX-License-Identifier: GPL-2.0-only
/*
 * One image of the census, read in two passes.  The first walks the
 * variables of every unit of its DWARF (only the units' own children:
 * attributes are defined at file scope) and records each attribute object
 * by the address of its struct attribute, and notes the groups, classes,
 * buses, hwmon chips and parameters.  The second follows their pointers
 * through the image's data: a group's attrs to the objects it lists (its
 * name, and whether is_visible decides their modes), a class's or a bus's
 * groups to the path of their attributes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/array.h"
#include "collectors/dwarf/source-tree.h"
#include "collect.h"

/* A NULL-terminated array of pointers longer than this is corrupt. */
#define POINTERS_MAX	4096

/* The file hwmon's __templates is defined in. */
#define HWMON_CORE	"drivers/hwmon/hwmon.c"

/* A structure the second pass reads: a group, a class, a bus... */
struct noted {
	enum census_struct what;
	uint64_t addr;
	char *symbol;
	char *file;
};

/* Open addressing: the address of an object's attribute to its record. */
struct object_map {
	uint64_t *addr;
	uint32_t *index;
	size_t size, used;
};

struct scan {
	struct census *c;
	const struct image *im;
	const char *module;
	struct source_tree tree;
	struct object_map objects;
	struct noted *noted;
	size_t nr_noted;
	uint64_t templates, templates_size;	/* hwmon's, when this is its core */
	uint64_t nr_templates;
};

static size_t slot_of(const struct object_map *m, uint64_t addr)
{
	size_t i = (addr * 0x9e3779b97f4a7c15ULL) >> 20;

	for (i &= m->size - 1; m->addr[i] && m->addr[i] != addr;
	     i = (i + 1) & (m->size - 1))
		;
	return i;
}

static int map_grow(struct object_map *m)
{
	struct object_map bigger = { .size = m->size ? 2 * m->size : 1024 };
	size_t i;

	bigger.addr = calloc(bigger.size, sizeof(*bigger.addr));
	bigger.index = calloc(bigger.size, sizeof(*bigger.index));
	if (!bigger.addr || !bigger.index) {
		free(bigger.addr);
		free(bigger.index);
		return -ENOMEM;
	}
	for (i = 0; i < m->size; i++) {
		if (m->addr[i]) {
			size_t j = slot_of(&bigger, m->addr[i]);

			bigger.addr[j] = m->addr[i];
			bigger.index[j] = m->index[i];
		}
	}
	bigger.used = m->used;
	free(m->addr);
	free(m->index);
	*m = bigger;
	return 0;
}

static int map_add(struct object_map *m, uint64_t addr, uint32_t index)
{
	size_t i;

	if (2 * (m->used + 1) > m->size && map_grow(m))
		return -ENOMEM;
	i = slot_of(m, addr);
	if (!m->addr[i])
		m->used++;
	m->addr[i] = addr;
	m->index[i] = index;
	return 0;
}

static long map_find(const struct object_map *m, uint64_t addr)
{
	size_t i;

	if (!m->size || !addr)
		return -1;
	i = slot_of(m, addr);
	return m->addr[i] ? (long)m->index[i] : -1;
}

static uint64_t var_address(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(var, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_addr)
		return 0;
	return ops[0].number;
}

static char *element_symbol(const char *symbol, const struct var_class *vc,
			    uint64_t i)
{
	char *out;

	if (vc->count == 1)
		return strdup(symbol);
	if (asprintf(&out, "%s[%llu]", symbol, (unsigned long long)i) < 0)
		return NULL;
	return out;
}

static int add_object(struct scan *sc, const char *symbol, const char *file,
		      const struct var_class *vc, uint64_t i, uint64_t addr)
{
	const struct census_layout *l = &sc->c->layouts[CS_ATTRIBUTE];
	const char *name = image__string(sc->im, layout__ptr(sc->im, l, ATTR_NAME, addr));
	struct census_attr a = {
		.module = (char *)sc->module, .file = (char *)file,
		.name = (char *)name, .kind = vc->kind,
	};
	bool added;

	/* an array's slots filled at run time, or its terminator */
	if (!name || !*name)
		return 0;
	a.mode = layout__u32(sc->im, l, ATTR_MODE, addr, 2) & 07777;
	/*
	 * An object of mode 0 is, but for a rare marker file, a template
	 * whose mode the code sets before registering it (nvmem's "eeprom").
	 */
	a.mode_at_run_time = !a.mode;
	a.symbol = element_symbol(symbol, vc, i);
	if (asprintf(&a.type, "struct %s", vc->type ? vc->type : "?") < 0)
		a.type = NULL;
	added = a.symbol && a.type && census_add_attr(sc->c, &a);
	free(a.symbol);
	free(a.type);
	if (!added)
		return -ENOMEM;
	return map_add(&sc->objects, addr, sc->c->s->census.nr - 1);
}

static int note(struct scan *sc, enum census_struct what, uint64_t addr,
		const char *symbol, const char *file)
{
	struct noted *n = ARRAY_APPEND_ITEM(sc->noted, sc->nr_noted);

	if (!n)
		return -ENOMEM;
	n->what = what;
	n->addr = addr;
	n->symbol = strdup(symbol);
	n->file = file ? strdup(file) : NULL;
	return n->symbol && (!file || n->file) ? 0 : -ENOMEM;
}

static void hwmon_core_table(struct scan *sc, Dwarf_Die *var, const char *symbol,
			     const char *file, uint64_t addr)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;

	if (!file || strcmp(file, HWMON_CORE))
		return;
	if (!strcmp(symbol, "__templates")) {
		sc->templates = addr;
		if (dwarf_attr(var, DW_AT_type, &attr) &&
		    dwarf_formref_die(&attr, &type) && dwarf_tag(&type) == DW_TAG_array_type)
			sc->nr_templates = dwarf_array_count(&type);
	} else if (!strcmp(symbol, "__templates_size")) {
		sc->templates_size = addr;
	}
}

static int visit_variable(struct scan *sc, Dwarf_Die *var)
{
	const char *symbol = dwarf_diename(var);
	uint64_t addr = var_address(var), i;
	struct var_class vc;
	char *file = NULL;
	int err = 0;

	if (!symbol || !addr)
		return 0;
	if (!var_class__of(var, sc->c->layouts, &vc) &&
	    strncmp(symbol, "__templates", strlen("__templates")))
		return 0;
	if (source_tree__decl_file(&sc->tree, var, &file))
		return -ENOMEM;
	if (!strncmp(symbol, "__templates", strlen("__templates")))
		hwmon_core_table(sc, var, symbol, file, addr);
	else if (vc.what == CS_ATTRIBUTE)
		for (i = 0; !err && i < vc.count; i++)
			err = add_object(sc, symbol, file, &vc, i, addr + i * vc.stride);
	else
		for (i = 0; !err && i < vc.count; i++)
			err = note(sc, vc.what, addr + i * vc.stride, symbol, file);
	free(file);
	return err;
}

static int walk_units(struct scan *sc, Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t header;
	int err = 0;

	while (!err && !dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL)) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(dw, off + header, &cu) && !dwarf_child(&cu, &die)) {
			do {
				if (dwarf_tag(&die) == DW_TAG_variable)
					err = visit_variable(sc, &die);
				else if (dwarf_tag(&die) == DW_TAG_structure_type)
					layouts__learn(&die, sc->c->layouts);
			} while (!err && !dwarf_siblingof(&die, &die));
		}
		off = next;
	}
	return err;
}

/* What a group gives the attributes it lists. */
struct listing {
	const char *group;	/* the group's name, for marking */
	bool run_time;		/* its is_visible decides their modes */
	const char *dir;	/* for placing: where its attributes are */
};

static int mark(struct census_attr *a, const struct listing *l)
{
	a->grouped = true;
	a->mode_at_run_time |= l->run_time;
	if (l->group && !a->group) {
		a->group = strdup(l->group);
		if (!a->group)
			return -ENOMEM;
	}
	return 0;
}

static int place(struct census_attr *a, const struct listing *l)
{
	if (!a->path && asprintf(&a->path, "%s/%s", l->dir, a->name) < 0) {
		a->path = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Call @fn for each attribute object of the NULL-terminated list at @list. */
static int for_each_listed(struct scan *sc, uint64_t list,
			   int (*fn)(struct census_attr *, const struct listing *),
			   const struct listing *l)
{
	uint64_t i;
	int err = 0;

	for (i = 0; !err && list && i < POINTERS_MAX; i++) {
		uint64_t p = image__u64(sc->im, list + 8 * i);
		long k;

		if (!p)
			break;
		k = map_find(&sc->objects, p);
		if (k >= 0)
			err = fn(&sc->c->s->census.v[k], l);
	}
	return err;
}

static int mark_group(struct scan *sc, uint64_t g)
{
	const struct census_layout *layout = &sc->c->layouts[CS_GROUP];
	struct listing l = {
		.group = image__string(sc->im, layout__ptr(sc->im, layout, GROUP_NAME, g)),
		.run_time = layout__ptr(sc->im, layout, GROUP_IS_VISIBLE, g),
	};
	int err = for_each_listed(sc, layout__ptr(sc->im, layout, GROUP_ATTRS, g),
				  mark, &l);

	l.run_time = layout__ptr(sc->im, layout, GROUP_IS_BIN_VISIBLE, g);
	if (!err)
		err = for_each_listed(sc, layout__ptr(sc->im, layout, GROUP_BIN_ATTRS, g),
				      mark, &l);
	return err;
}

/* The attributes of each group of the NULL-terminated array @groups go under @dir. */
static int place_groups(struct scan *sc, uint64_t groups, const char *dir)
{
	const struct census_layout *l = &sc->c->layouts[CS_GROUP];
	uint64_t i, g;
	int err = 0;

	for (i = 0; !err && groups && i < POINTERS_MAX &&
		    (g = image__u64(sc->im, groups + 8 * i)); i++) {
		const char *name = image__string(sc->im, layout__ptr(sc->im, l, GROUP_NAME, g));
		char *sub = NULL;

		struct listing where;

		if (name && asprintf(&sub, "%s/%s", dir, name) < 0)
			return -ENOMEM;
		where.dir = sub ? sub : dir;
		err = for_each_listed(sc, layout__ptr(sc->im, l, GROUP_ATTRS, g),
				      place, &where);
		if (!err)
			err = for_each_listed(sc, layout__ptr(sc->im, l, GROUP_BIN_ATTRS, g),
					      place, &where);
		free(sub);
	}
	return err;
}

static int place_owner(struct scan *sc, const struct noted *n)
{
	static const struct {
		enum census_struct what;
		int member;
		const char *dir, *below;	/* around the owner's name */
	} rules[] = {
		{ CS_CLASS, CLASS_GROUPS, "/sys/class/", "" },
		{ CS_CLASS, CLASS_DEV_GROUPS, "/sys/class/", "/*" },
		{ CS_BUS, BUS_GROUPS, "/sys/bus/", "" },
		{ CS_BUS, BUS_DEV_GROUPS, "/sys/bus/", "/devices/*" },
		{ CS_BUS, BUS_DRV_GROUPS, "/sys/bus/", "/drivers/*" },
	};
	const struct census_layout *l = &sc->c->layouts[n->what];
	const char *name = image__string(sc->im, layout__ptr(sc->im, l, 0, n->addr));
	size_t i;
	int err = 0;

	for (i = 0; name && !err && i < sizeof(rules) / sizeof(*rules); i++) {
		char *dir;

		if (rules[i].what != n->what)
			continue;
		if (asprintf(&dir, "%s%s%s", rules[i].dir, name, rules[i].below) < 0)
			return -ENOMEM;
		err = place_groups(sc, layout__ptr(sc->im, l, rules[i].member, n->addr), dir);
		free(dir);
	}
	return err;
}

static int add_channels(struct scan *sc, const struct noted *n)
{
	const struct census_layout *chip = &sc->c->layouts[CS_CHIP_INFO];
	const struct census_layout *ch = &sc->c->layouts[CS_CHANNEL_INFO];
	uint64_t info = layout__ptr(sc->im, chip, CHIP_INFO, n->addr), i, j, ci;
	struct census *c = sc->c;

	for (i = 0; info && i < POINTERS_MAX && (ci = image__u64(sc->im, info + 8 * i)); i++) {
		uint32_t type = layout__u32(sc->im, ch, CHANNEL_TYPE, ci, 4);
		uint64_t config = layout__ptr(sc->im, ch, CHANNEL_CONFIG, ci);
		const unsigned char *p;

		for (j = 0; config && j < POINTERS_MAX &&
			    (p = image__bytes(sc->im, config + 4 * j, 4)) &&
			    (p[0] | p[1] | p[2] | p[3]); j++) {
			struct hwmon_channel *hc = ARRAY_APPEND_ITEM(c->channels, c->nr_channels);

			if (!hc)
				return -ENOMEM;
			hc->type = type;
			hc->channel = j;
			hc->flags = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
			hc->module = strdup(sc->module);
			hc->file = n->file ? strdup(n->file) : NULL;
			hc->symbol = strdup(n->symbol);
			if (!hc->module || (n->file && !hc->file) || !hc->symbol)
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * "printk.time" of vmlinux: /sys/module/printk/parameters/time, if it has
 * a mode.  A module's parameters have no prefix (MODULE_PARAM_PREFIX is
 * empty in a module): "verbose" of fix_drv.ko is
 * /sys/module/fix_drv/parameters/verbose.  vmlinux's without a dot, the
 * core_param()s, have no file.
 */
static int add_param(struct scan *sc, const struct noted *n)
{
	const struct census_layout *l = &sc->c->layouts[CS_PARAM];
	const char *name = image__string(sc->im, layout__ptr(sc->im, l, PARAM_NAME, n->addr));
	unsigned int perm = layout__u32(sc->im, l, PARAM_PERM, n->addr, 2);
	const char *dot = name ? strchr(name, '.') : NULL;
	const char *owner = dot ? name : sc->module;
	size_t len = dot ? (size_t)(dot - name) : strlen(owner);
	struct census_attr a = {
		.module = (char *)sc->module, .file = n->file, .symbol = n->symbol,
		.kind = CENSUS_PARAM, .type = (char *)"struct kernel_param",
		.mode = perm & 07777,
	};
	bool added;

	if (!name || !perm || (!dot && !sc->im->relocatable))
		return 0;
	a.name = dot ? (char *)dot + 1 : (char *)name;
	if (asprintf(&a.path, "/sys/module/%.*s/parameters/%s",
		     (int)len, owner, a.name) < 0)
		return -ENOMEM;
	added = census_add_attr(sc->c, &a);
	free(a.path);
	return added ? 0 : -ENOMEM;
}

static int hwmon_templates(struct scan *sc)
{
	uint64_t t, j, n;
	char **slot;

	for (t = 0; sc->templates && t < sc->nr_templates && t < HWMON_TYPES_MAX; t++) {
		uint64_t names = image__u64(sc->im, sc->templates + 8 * t);
		const unsigned char *size = image__bytes(sc->im, sc->templates_size + 4 * t, 4);

		/* __templates_size[] is of int */
		n = size ? size[0] | size[1] << 8 | size[2] << 16 : 0;
		for (j = 0; names && j < n && j < HWMON_ATTRS_MAX; j++) {
			const char *s = image__string(sc->im, image__u64(sc->im, names + 8 * j));

			slot = &sc->c->hwmon_templates[t][j];
			if (!s || *slot)
				continue;
			*slot = strdup(s);
			if (!*slot)
				return -ENOMEM;
		}
	}
	return 0;
}

static int second_pass(struct scan *sc)
{
	size_t i;
	int err = hwmon_templates(sc);

	for (i = 0; !err && i < sc->nr_noted; i++) {
		const struct noted *n = &sc->noted[i];

		switch (n->what) {
		case CS_GROUP:
			err = mark_group(sc, n->addr);
			break;
		case CS_CLASS:
		case CS_BUS:
			err = place_owner(sc, n);
			break;
		case CS_CHIP_INFO:
			err = add_channels(sc, n);
			break;
		case CS_PARAM:
			err = add_param(sc, n);
			break;
		default:
			break;
		}
	}
	return err;
}

int scan_image(struct census *c, const struct image *im, Dwarf *dw,
	       const char *module)
{
	struct scan sc = { .c = c, .im = im, .module = module };
	size_t i;
	int err = 0;

	if (!strcmp(module, "vmlinux"))
		err = source_tree__find(&sc.tree, dw, "init/main.c");
	if (!err)
		err = walk_units(&sc, dw);
	if (!err)
		err = second_pass(&sc);
	for (i = 0; i < sc.nr_noted; i++) {
		free(sc.noted[i].symbol);
		free(sc.noted[i].file);
	}
	free(sc.noted);
	free(sc.objects.addr);
	free(sc.objects.index);
	source_tree__release(&sc.tree);
	return err;
}
