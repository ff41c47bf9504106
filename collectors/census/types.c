// SPDX-License-Identifier: GPL-2.0-only
/*
 * The census finds attributes by their types, not their names: an
 * attribute object is a variable whose structure begins, directly or
 * through the first member of a first member, with struct attribute
 * (struct sensor_device_attribute_2 begins with struct device_attribute,
 * which begins with struct attribute), or an array of them.  Each kind
 * is the innermost well-known structure of that chain but one: a
 * driver's own struct foo_attr around a device_attribute is a device
 * attribute.
 */
#include <string.h>

#include <dwarf.h>

#include "collect.h"

/* Beyond this many first members, a structure is taken as no attribute. */
#define NESTING_MAX	8

static const struct {
	const char *tag;
	const char *members[LAYOUT_MEMBERS];
} structs[CS_COUNT] = {
	[CS_ATTRIBUTE]		= { "attribute", { "name", "mode" } },
	[CS_GROUP]		= { "attribute_group",
				    { "name", "is_visible", "is_bin_visible",
				      "attrs", "bin_attrs" } },
	[CS_CLASS]		= { "class",
				    { "name", "class_groups", "dev_groups" } },
	[CS_BUS]		= { "bus_type",
				    { "name", "bus_groups", "dev_groups",
				      "drv_groups" } },
	[CS_CHIP_INFO]		= { "hwmon_chip_info", { "info" } },
	[CS_CHANNEL_INFO]	= { "hwmon_channel_info", { "type", "config" } },
	[CS_PARAM]		= { "kernel_param", { "name", "perm" } },
};

static const struct {
	const char *tag;
	enum census_kind kind;
} kinds[] = {
	{ "device_attribute", CENSUS_DEVICE },
	{ "driver_attribute", CENSUS_DRIVER },
	{ "bus_attribute", CENSUS_BUS },
	{ "class_attribute", CENSUS_CLASS },
	{ "kobj_attribute", CENSUS_KOBJ },
	{ "module_attribute", CENSUS_MODULE },
	{ "sensor_device_attribute", CENSUS_SENSOR },
	{ "sensor_device_attribute_2", CENSUS_SENSOR },
	{ "iio_dev_attr", CENSUS_IIO },
	{ "iio_const_attr", CENSUS_IIO },
	{ "bin_attribute", CENSUS_BIN },
};

/* @die's type with qualifiers and typedefs looked through. */
static bool plain_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	int hops;

	if (!dwarf_attr(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, type))
		return false;
	for (hops = 0; hops < NESTING_MAX; hops++) {
		switch (dwarf_tag(type)) {
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_typedef:
			if (!dwarf_attr(type, DW_AT_type, &attr) ||
			    !dwarf_formref_die(&attr, type))
				return false;
			break;
		default:
			return true;
		}
	}
	return false;
}

static uint64_t member_offset(Dwarf_Die *member)
{
	Dwarf_Attribute attr;
	Dwarf_Word off = 0;

	if (dwarf_attr(member, DW_AT_data_member_location, &attr))
		dwarf_formudata(&attr, &off);
	return off;
}

static void learn_layout(Dwarf_Die *st, enum census_struct what,
			 struct census_layout *l)
{
	Dwarf_Die m;
	int i;

	if (l->known || dwarf_child(st, &m))
		return;
	do {
		const char *name = dwarf_diename(&m);

		for (i = 0; name && i < LAYOUT_MEMBERS; i++) {
			if (structs[what].members[i] &&
			    !strcmp(name, structs[what].members[i])) {
				l->offset[i] = member_offset(&m);
				l->has[i] = true;
			}
		}
	} while (!dwarf_siblingof(&m, &m));
	l->known = true;
}

static enum census_struct struct_of(const char *tag)
{
	int i;

	for (i = 0; tag && i < CS_COUNT; i++) {
		if (!strcmp(tag, structs[i].tag))
			return i;
	}
	return CS_NONE;
}

static bool kind_of(const char *tag, enum census_kind *kind)
{
	size_t i;

	for (i = 0; tag && i < sizeof(kinds) / sizeof(*kinds); i++) {
		if (!strcmp(tag, kinds[i].tag)) {
			*kind = kinds[i].kind;
			return true;
		}
	}
	return false;
}

/*
 * Whether the structure @st begins with struct attribute; if so, the kind
 * of its chain into *@kind.
 */
static bool begins_with_attribute(Dwarf_Die *st, struct census_layout *layouts,
				  enum census_kind *kind, int depth)
{
	const char *tag = dwarf_diename(st);
	Dwarf_Die first, type;

	if (tag && !strcmp(tag, structs[CS_ATTRIBUTE].tag)) {
		learn_layout(st, CS_ATTRIBUTE, &layouts[CS_ATTRIBUTE]);
		*kind = CENSUS_ATTRIBUTE;
		return true;
	}
	if (depth >= NESTING_MAX || dwarf_child(st, &first) ||
	    dwarf_tag(&first) != DW_TAG_member || member_offset(&first) ||
	    !plain_type(&first, &type) || dwarf_tag(&type) != DW_TAG_structure_type ||
	    !begins_with_attribute(&type, layouts, kind, depth + 1))
		return false;
	if (!kind_of(tag, kind) && *kind == CENSUS_ATTRIBUTE)
		*kind = CENSUS_OTHER;
	return true;
}

uint64_t dwarf_array_count(Dwarf_Die *array)
{
	Dwarf_Attribute attr;
	Dwarf_Word n = 0;
	Dwarf_Die sub;

	if (dwarf_child(array, &sub) || dwarf_tag(&sub) != DW_TAG_subrange_type)
		return 0;
	if (dwarf_attr(&sub, DW_AT_count, &attr) && !dwarf_formudata(&attr, &n))
		return n;
	if (dwarf_attr(&sub, DW_AT_upper_bound, &attr) && !dwarf_formudata(&attr, &n))
		return n + 1;
	return 0;
}

void layouts__learn(Dwarf_Die *st, struct census_layout *layouts)
{
	enum census_struct what = struct_of(dwarf_diename(st));

	if (what != CS_NONE && !dwarf_hasattr(st, DW_AT_declaration))
		learn_layout(st, what, &layouts[what]);
}

bool var_class__of(Dwarf_Die *var, struct census_layout *layouts,
		   struct var_class *vc)
{
	Dwarf_Die type;
	Dwarf_Word size;

	vc->count = 1;
	if (!plain_type(var, &type))
		return false;
	if (dwarf_tag(&type) == DW_TAG_array_type) {
		vc->count = dwarf_array_count(&type);
		if (!vc->count || !plain_type(&type, &type))
			return false;
	}
	if (dwarf_tag(&type) != DW_TAG_structure_type ||
	    dwarf_aggregate_size(&type, &size))
		return false;
	vc->stride = size;
	vc->type = dwarf_diename(&type);
	vc->what = struct_of(vc->type);
	if (vc->what != CS_NONE && vc->what != CS_ATTRIBUTE) {
		learn_layout(&type, vc->what, &layouts[vc->what]);
		return true;
	}
	if (!begins_with_attribute(&type, layouts, &vc->kind, 0))
		return false;
	vc->what = CS_ATTRIBUTE;
	return true;
}

uint64_t layout__ptr(const struct image *im, const struct census_layout *l,
		     int member, uint64_t object)
{
	if (!l->known || !l->has[member])
		return 0;
	return image__u64(im, object + l->offset[member]);
}

uint32_t layout__u32(const struct image *im, const struct census_layout *l,
		     int member, uint64_t object, size_t width)
{
	const unsigned char *p;
	uint32_t v = 0;

	if (!l->known || !l->has[member] || width > 4)
		return 0;
	p = image__bytes(im, object + l->offset[member], width);
	while (p && width--)
		v = v << 8 | p[width];
	return v;
}
