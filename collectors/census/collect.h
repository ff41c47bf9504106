/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the census collector share: the kernel structures it
 * reads out of an image's data, their layouts as the image's DWARF gives
 * them, and the state of one census across the files of a kernel.
 */
#ifndef KABIDIFF_CENSUS_COLLECT_H
#define KABIDIFF_CENSUS_COLLECT_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdw.h>

#include "model/model.h"
#include "image.h"

/* The structures whose members the census reads. */
enum census_struct {
	CS_ATTRIBUTE,		/* struct attribute */
	CS_GROUP,		/* struct attribute_group */
	CS_CLASS,		/* struct class */
	CS_BUS,			/* struct bus_type */
	CS_CHIP_INFO,		/* struct hwmon_chip_info */
	CS_CHANNEL_INFO,	/* struct hwmon_channel_info */
	CS_PARAM,		/* struct kernel_param */
	CS_COUNT,
	CS_NONE = CS_COUNT,
};

#define LAYOUT_MEMBERS	5

/* Where the members that struct_members[] names lie in a structure. */
struct census_layout {
	bool known;
	uint64_t offset[LAYOUT_MEMBERS];
	bool has[LAYOUT_MEMBERS];
};

/* The members of each structure, by index into census_layout.offset. */
enum {
	ATTR_NAME = 0, ATTR_MODE,
	GROUP_NAME = 0, GROUP_IS_VISIBLE, GROUP_IS_BIN_VISIBLE, GROUP_ATTRS,
	GROUP_BIN_ATTRS,
	CLASS_NAME = 0, CLASS_GROUPS, CLASS_DEV_GROUPS,
	BUS_NAME = 0, BUS_GROUPS, BUS_DEV_GROUPS, BUS_DRV_GROUPS,
	CHIP_INFO = 0,
	CHANNEL_TYPE = 0, CHANNEL_CONFIG,
	PARAM_NAME = 0, PARAM_PERM,
};

/*
 * What a variable's type makes of it: an attribute object (@kind, with
 * @type the name of its structure), or one of the structures above
 * (@what), alone or @count of them in an array of @stride bytes apart.
 */
struct var_class {
	enum census_struct what;	/* CS_ATTRIBUTE for attributes */
	enum census_kind kind;
	const char *type;		/* "device_attribute" */
	uint64_t count, stride;
};

/*
 * var_class__of() - classify the variable @var by its type, learning the
 * layouts of the structures it meets into @layouts.  Returns false for a
 * variable of no interest.
 */
bool var_class__of(Dwarf_Die *var, struct census_layout *layouts,
		   struct var_class *vc);

/*
 * layouts__learn() - the layout of the structure @st, if it is one the
 * census reads and is defined: some (hwmon_channel_info) are never the
 * type of a variable, only of compound literals.
 */
void layouts__learn(Dwarf_Die *st, struct census_layout *layouts);

/* dwarf_array_count() - the elements of the array type @array; 0: not known. */
uint64_t dwarf_array_count(Dwarf_Die *array);

/* Reading an image's data by a layout: 0 when it is not there. */
uint64_t layout__ptr(const struct image *im, const struct census_layout *l,
		     int member, uint64_t object);
uint32_t layout__u32(const struct image *im, const struct census_layout *l,
		     int member, uint64_t object, size_t width);

/* hwmon's sensor types and attributes: enum hwmon_sensor_types, and bits */
#define HWMON_TYPES_MAX		32
#define HWMON_ATTRS_MAX		32

/* One channel of a driver's hwmon_chip_info, decoded by census__finish(). */
struct hwmon_channel {
	char *module, *file, *symbol;
	uint32_t type;		/* enum hwmon_sensor_types */
	uint32_t channel;	/* from 0, in the order of the config array */
	uint32_t flags;		/* its HWMON_*_ bits */
};

struct census {
	struct snapshot *s;
	struct census_layout layouts[CS_COUNT];
	/* hwmon's __templates: the name of each attribute of each type */
	char *hwmon_templates[HWMON_TYPES_MAX][HWMON_ATTRS_MAX];
	struct hwmon_channel *channels;
	size_t nr_channels;
};

/*
 * census_add_attr() - a new attribute of @c, @from with its strings
 * copied (those of @from are borrowed).  Returns it, or NULL (ENOMEM).
 */
struct census_attr *census_add_attr(struct census *c,
				    const struct census_attr *from);

/*
 * scan_image() - the attribute objects, groups, classes, buses, hwmon
 * chips and parameters of the image @im, module @module, into @c.
 * Returns 0 or -ENOMEM.
 */
int scan_image(struct census *c, const struct image *im, Dwarf *dw,
	       const char *module);

#endif /* KABIDIFF_CENSUS_COLLECT_H */
