// SPDX-License-Identifier: GPL-2.0-only
/*
 * The census collector on the kernel in miniature of tests/fixtures/census
 * (its README says what each file holds): every attribute it finds, with
 * its module, file, symbol, kind, mode, group and path, each written as
 * one line and compared with the list the sources give; the names hwmon
 * makes of a hwmon_chip_info, and none without the core's templates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "collectors/census/census.h"
#include "lib/fileio.h"
#include "model/model.h"

#define FIXTURE(name)	SRCDIR "/tests/fixtures/census/" name
#define VMLINUX		FIXTURE("vmlinux")
#define OLD(ko)		FIXTURE("modules/old/" ko)

#define LINE_MAX	512

/* The census of the files @paths (NULL-terminated), sorted. */
static struct snapshot *take(const char *const *paths)
{
	struct snapshot *s = snapshot__new();
	struct census *c;

	assert_non_null(s);
	c = census__new(s);
	assert_non_null(c);
	for (; *paths; paths++) {
		char module[64], *buf;
		size_t len;

		assert_int_equal(read_file_or_report(*paths, CENSUS_FILE_MAX,
						     &buf, &len), 0);
		census_module_of(*paths, module, sizeof(module));
		assert_int_equal(census__add(c, module, (unsigned char *)buf,
					     len, *paths), 0);
	}
	assert_int_equal(census__finish(c), 0);
	census__free(c);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	return s;
}

/*
 * @a as "MODULE FILE SYMBOL NAME KIND TYPE MODE [r] [g:GROUP] [p:PATH]",
 * r when is_visible decides the mode, "-" for a group without a name.
 */
static void line_of(const struct census_attr *a, char *buf, size_t size)
{
	snprintf(buf, size, "%s %s %s %s %s %s %04o%s%s%s%s%s", a->module,
		 a->file ? a->file : "-", a->symbol, a->name,
		 census_kind__name(a->kind), a->type, a->mode,
		 a->mode_at_run_time ? " r" : "", a->grouped ? " g:" : "",
		 a->grouped ? (a->group ? a->group : "-") : "",
		 a->path ? " p:" : "", a->path ? a->path : "");
}

/* The census of @s is @lines (NULL-terminated), in this order. */
static void assert_census(const struct snapshot *s, const char *const *lines)
{
	char line[LINE_MAX];
	size_t i;

	for (i = 0; i < s->census.nr && lines[i]; i++) {
		line_of(&s->census.v[i], line, sizeof(line));
		assert_string_equal(line, lines[i]);
	}
	if (i < s->census.nr) {
		line_of(&s->census.v[i], line, sizeof(line));
		fail_msg("one attribute more than expected: %s", line);
	}
	if (lines[i])
		fail_msg("attribute missing: %s", lines[i]);
}

/* The attributes of vmlinux, whatever the modules. */
#define VMLINUX_LINES							\
	"vmlinux drivers/base/platform.c bus_attr_drivers_autoprobe "	\
		"drivers_autoprobe bus struct bus_attribute 0644 g:- "	\
		"p:/sys/bus/platform/drivers_autoprobe",		\
	"vmlinux drivers/base/platform.c dev_attr_driver_override "	\
		"driver_override device struct device_attribute 0644 g:- " \
		"p:/sys/bus/platform/devices/*/driver_override",	\
	"vmlinux drivers/base/platform.c dev_attr_modalias modalias "	\
		"device struct device_attribute 0444 g:- "		\
		"p:/sys/bus/platform/devices/*/modalias",		\
	"vmlinux drivers/hwmon/hwmon.c dev_attr_name name device "	\
		"struct device_attribute 0444 r g:- p:/sys/class/hwmon/*/name", \
	"vmlinux kernel/printk/printk.c __param_time time param "	\
		"struct kernel_param 0644 p:/sys/module/printk/parameters/time"

/* The attributes of modules/old/fix-drv.ko. */
#define FIX_DRV_LINES							\
	"fix_drv drivers/misc/fix-drv.c __param_verbose verbose param "	\
		"struct kernel_param 0644 p:/sys/module/fix_drv/parameters/verbose", \
	"fix_drv drivers/misc/fix-drv.c dev_attr_calibrate calibrate "	\
		"device struct device_attribute 0644 g:-",		\
	"fix_drv drivers/misc/fix-drv.c dev_attr_power_mode power_mode " \
		"device struct device_attribute 0644 r g:power_ctl",	\
	"fix_drv drivers/misc/fix-drv.c dev_attr_threshold threshold "	\
		"device struct device_attribute 0644 g:-",		\
	"fix_drv drivers/misc/fix-drv.c driver_attr_debug debug driver " \
		"struct driver_attribute 0644 g:-"

/*
 * The old versions: objects of each kind, grouped or not, a group's name,
 * is_visible, the paths of a class's and a bus's groups, parameters, the
 * elements of sensor arrays by index; modules named by their files.
 */
static void test_old(void **state)
{
	static const char *const paths[] = {
		VMLINUX, OLD("fix-drv.ko"), OLD("fixtemp.ko"), NULL,
	};
	static const char *const lines[] = {
		FIX_DRV_LINES,
		"fixtemp drivers/hwmon/fixtemp.c sda_in_input in0_input "
			"sensor struct sensor_device_attribute 0444 g:-",
		"fixtemp drivers/hwmon/fixtemp.c sda_temp_input[0] temp1_input "
			"sensor struct sensor_device_attribute 0444 g:-",
		"fixtemp drivers/hwmon/fixtemp.c sda_temp_input[1] temp2_input "
			"sensor struct sensor_device_attribute 0444 g:-",
		"fixtemp drivers/hwmon/fixtemp.c sda_temp_max temp1_max "
			"sensor struct sensor_device_attribute 0644 g:-",
		VMLINUX_LINES,
		NULL,
	};
	struct snapshot *s = take(paths);

	assert_census(s, lines);
	assert_int_equal(s->nr_census_modules, 3);
	assert_string_equal(s->census_modules[0], "fix_drv");
	assert_string_equal(s->census_modules[1], "fixtemp");
	assert_string_equal(s->census_modules[2], "vmlinux");
	snapshot__free(s);
}

/*
 * fixtemp converted to a hwmon_chip_info: its names made from vmlinux's
 * templates (in0 counts from 0, temp1 from 1), under the hwmon class,
 * their modes the core's to decide; without temp2 in modules/dropped.
 */
static void test_hwmon_info(void **state)
{
	static const char *const paths[] = {
		VMLINUX, FIXTURE("modules/info/fixtemp.ko"), NULL,
	};
	static const char *const dropped_paths[] = {
		VMLINUX, FIXTURE("modules/dropped/fixtemp.ko"), NULL,
	};
#define HWMON_LINE(name)						\
	"fixtemp drivers/hwmon/fixtemp.c fixtemp_chip_info " name " hwmon " \
		"struct hwmon_chip_info 0000 r p:/sys/class/hwmon/hwmon*/" name
	static const char *const lines[] = {
		HWMON_LINE("in0_input"),
		HWMON_LINE("temp1_input"),
		HWMON_LINE("temp1_max"),
		HWMON_LINE("temp2_input"),
		VMLINUX_LINES,
		NULL,
	};
	static const char *const dropped[] = {
		HWMON_LINE("in0_input"),
		HWMON_LINE("temp1_input"),
		HWMON_LINE("temp1_max"),
		VMLINUX_LINES,
		NULL,
	};
#undef HWMON_LINE
	struct snapshot *s = take(paths);

	assert_census(s, lines);
	snapshot__free(s);
	s = take(dropped_paths);
	assert_census(s, dropped);
	snapshot__free(s);
}

/* Without the core's templates, a hwmon_chip_info names nothing. */
static void test_hwmon_without_core(void **state)
{
	static const char *const paths[] = {
		FIXTURE("modules/info/fixtemp.ko"), NULL,
	};
	static const char *const lines[] = { NULL };
	struct snapshot *s = take(paths);

	assert_census(s, lines);
	assert_int_equal(s->nr_census_modules, 1);
	assert_string_equal(s->census_modules[0], "fixtemp");
	snapshot__free(s);
}

/* What each version of fix-drv changes, and nothing else. */
static void test_versions(void **state)
{
	static const char *const removed_paths[] = {
		FIXTURE("modules/removed/fix-drv.ko"), NULL,
	};
	static const char *const visible_paths[] = {
		FIXTURE("modules/visible/fix-drv.ko"), NULL,
	};
	static const char *const removed[] = {
		"fix_drv drivers/misc/fix-drv.c __param_verbose verbose param "
			"struct kernel_param 0644 "
			"p:/sys/module/fix_drv/parameters/verbose",
		"fix_drv drivers/misc/fix-drv.c dev_attr_power_mode power_mode "
			"device struct device_attribute 0644 r g:power_ctl",
		"fix_drv drivers/misc/fix-drv.c dev_attr_threshold threshold "
			"device struct device_attribute 0644 g:-",
		"fix_drv drivers/misc/fix-drv.c driver_attr_debug debug driver "
			"struct driver_attribute 0644 g:-",
		NULL,
	};
	struct snapshot *s = take(removed_paths);

	assert_census(s, removed);
	snapshot__free(s);
	s = take(visible_paths);
	assert_int_equal(s->census.nr, 5);
	assert_string_equal(s->census.v[2].name, "power_mode");
	assert_int_equal(s->census.v[2].mode, 0444);
	assert_true(s->census.v[2].mode_at_run_time);
	snapshot__free(s);
}

/* The kernel's spelling of a module's name: "-" is "_", no extension. */
static void test_module_names(void **state)
{
	char buf[64];

	census_module_of("modules/old/fix-drv.ko", buf, sizeof(buf));
	assert_string_equal(buf, "fix_drv");
	census_module_of("boot/vmlinux-6.1.0-census", buf, sizeof(buf));
	assert_string_equal(buf, "vmlinux");
	assert_true(census_file_wanted(OLD("fixtemp.ko")));
	assert_false(census_file_wanted(FIXTURE("build.sh")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old),
		cmocka_unit_test(test_hwmon_info),
		cmocka_unit_test(test_hwmon_without_core),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_module_names),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
