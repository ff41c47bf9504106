// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the documentation part of the diff (diff/docs.c) and the
 * normal form of What: patterns it pairs entries by (match/what-normal.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff/parts.h"
#include "lib/compiler.h"
#include "match/what-normal.h"

static struct doc_entry *doc(struct snapshot *s, enum abi_level level,
			     const char *file, const char *date,
			     const char *description, const char *what)
{
	struct doc_entry *d = snapshot__add_doc(s);

	d->level = level;
	d->file = strdup(file);
	d->line = 1;
	d->date = date ? strdup(date) : NULL;
	d->description = description ? strdup(description) : NULL;
	assert_int_equal(doc_entry__add_what(d, what), 0);
	return d;
}

static int32_t entry_of(const struct snapshot *s, const char *file)
{
	size_t i;

	for (i = 0; i < s->docs.nr; i++)
		if (!strcmp(s->docs.v[i].file, file))
			return i;
	fail_msg("no entry in %s", file);
	return -1;
}

static void run(struct snapshot *a, struct snapshot *b,
		const struct doc_matches *m, struct diff *d)
{
	static const struct doc_matches none;

	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	assert_int_equal(diff_docs(a, b, m ? m : &none, d), 0);
}

static void done(struct snapshot *a, struct snapshot *b, struct diff *d)
{
	diff__release(d);
	snapshot__free(a);
	snapshot__free(b);
}

static void test_normalize(void **state)
{
	static const char *const same[][2] = {
		{ "/sys/bus/iio/devices/iio:deviceX/in_tempX_input",
		  "/sys/bus/iio/devices/iio:device<N>/in_temp<x>_input" },
		{ "/sys/block/sd[a-z]/size", "/sys/block/sd*/size" },
		{ "/sys/class/net/<iface>/mtu", "/sys/class/net/<dev>/mtu" },
		{ "/sys/devices/cpu[0-9]+/online", "/sys/devices/cpuZ/online" },
		/* a run of wildcards is one */
		{ "/sys/class/x/<a><b>*/f", "/sys/class/x/<name>/f" },
		{ "/sys/bus/iio/devices/triggerX/name = \"foo\"",
		  "/sys/bus/iio/devices/trigger<n>/name" },
	};
	static const char *const apart[][2] = {
		/* literal text is kept: another class, another interface */
		{ "/sys/class/habanalabs/hl<n>/status",
		  "/sys/class/accel/accel<n>/device/status" },
		/* X next to a capital is a letter, as the matcher reads it */
		{ "/sys/bus/usb/XHCI/x", "/sys/bus/usb/<n>HCI/x" },
		/* N is no placeholder in the grammar */
		{ "/sys/class/timecard/ocpN/x", "/sys/class/timecard/ocp<n>/x" },
		/* a directory is not what is in it */
		{ "/sys/class/uwb_rc/uwb<N>/", "/sys/class/uwb_rc/uwb<N>" },
		{ "/sys/devices/.../power", "/sys/devices/*/power" },
	};
	size_t i, len;
	char *x, *y;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(same); i++) {
		x = what_pattern__normalize(same[i][0]);
		y = what_pattern__normalize(same[i][1]);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	for (i = 0; i < ARRAY_SIZE(apart); i++) {
		x = what_pattern__normalize(apart[i][0]);
		y = what_pattern__normalize(apart[i][1]);
		assert_string_not_equal(x, y);
		free(x);
		free(y);
	}
	x = what_pattern__normalize("/sys/devices/cpuX/cpufreq/{a,b}");
	assert_string_equal(x, "/sys/devices/cpu<*>/cpufreq/{a,b}");
	free(x);
	x = what_pattern__normalize("/sys/class/uwb_rc/uwb<N>/");
	assert_string_equal(what_pattern__attribute(x, &len), "uwb<*>/");
	assert_int_equal(len, strlen("uwb<*>"));
	free(x);
}

static void test_covers(void **state)
{
	(void)state;
	assert_int_equal(what_pattern__covers(
		"/sys/.../iio:deviceX/in_shunt_resistor",
		"/sys/bus/iio/devices/iio:deviceX/in_shunt_resistor"), 1);
	assert_int_equal(what_pattern__covers(
		"/sys/.../iio:deviceX/in_shunt_resistorY",
		"/sys/bus/iio/devices/iio:deviceX/in_shunt_resistor"), 0);
	assert_int_equal(what_pattern__covers(
		"/sys/fs/xfs/<disk>/log/reserve_grant_head_bytes",
		"/sys/fs/xfs/<disk>/log/reserve_grant_head"), 0);
	/* a pattern that does not parse covers nothing */
	assert_int_equal(what_pattern__covers("/sys/<x", "/sys/<x"), 0);
}

/* A wildcard renamed, in place or in another file, is no change. */
static void test_wildcard_renamed(void **state)
{
	struct snapshot *a = snapshot__new(), *b = snapshot__new();
	struct diff d = { 0 };

	(void)state;
	doc(a, LEVEL_TESTING, "testing/sysfs-bus-iio", "2009", "Temperature.",
	    "/sys/bus/iio/devices/iio:deviceX/in_tempX_input");
	doc(a, LEVEL_TESTING, "testing/sysfs-block", "2010", "Disk size.",
	    "/sys/block/sd[a-z]/size");
	doc(b, LEVEL_TESTING, "testing/sysfs-bus-iio", "2024",
	    "Temperature, rewritten.",
	    "/sys/bus/iio/devices/iio:deviceX/in_tempY_input");
	doc(b, LEVEL_TESTING, "testing/sysfs-block-new", "2024", "Sizes.",
	    "/sys/block/sd*/size");
	run(a, b, NULL, &d);
	assert_int_equal(d.nr, 0);
	done(a, b, &d);
}

/* The same description at another What: in another file is doc-moved. */
static void test_moved(void **state)
{
	struct snapshot *a = snapshot__new(), *b = snapshot__new();
	struct diff d = { 0 };

	(void)state;
	doc(a, LEVEL_TESTING, "testing/sysfs-devices-hisi_ptt", "May 2022",
	    "This directory  contains\n\tfiles to tune the PCIe link.",
	    "/sys/devices/hisi_ptt<sicl_id>_<core_id>/tune");
	doc(b, LEVEL_TESTING, "testing/sysfs-bus-event_source-devices-hisi_ptt",
	    "May 2022",
	    "This directory contains files to tune\nthe PCIe link.",
	    "/sys/bus/event_source/devices/hisi_ptt<sicl_id>_<core_id>/tune");
	run(a, b, NULL, &d);
	assert_int_equal(d.nr, 1);
	assert_int_equal(d.v[0].kind, CHANGE_DOC_MOVED);
	assert_string_equal(d.v[0].subject,
			    "/sys/devices/hisi_ptt<sicl_id>_<core_id>/tune");
	assert_string_equal(d.v[0].old,
			    "/sys/devices/hisi_ptt<sicl_id>_<core_id>/tune "
			    "(testing/sysfs-devices-hisi_ptt#1)");
	assert_string_equal(d.v[0].new,
			    "/sys/bus/event_source/devices/"
			    "hisi_ptt<sicl_id>_<core_id>/tune "
			    "(testing/sysfs-bus-event_source-devices-hisi_ptt#1, "
			    "same description)");
	assert_int_equal(d.v[0].old_ref, 0);
	assert_int_equal(d.v[0].new_ref, 0);
	done(a, b, &d);
}

/*
 * The same file and Date: is the entry edited in place; a new Date: and
 * description in the same file is another interface of the same name.  A
 * move to obsolete/ is judged as the move of level it is.
 */
static void test_moved_or_not(void **state)
{
	struct snapshot *a = snapshot__new(), *b = snapshot__new();
	struct diff d = { 0 };

	(void)state;
	doc(a, LEVEL_TESTING, "testing/sysfs-driver-habanalabs", "Jan 2019",
	    "Status of the card.", "/sys/class/habanalabs/hl<n>/status");
	doc(a, LEVEL_TESTING, "testing/sysfs-timecard", "September 2021",
	    "Links to the TTY.", "/sys/class/timecard/ocpN/ttyMAC");
	doc(a, LEVEL_TESTING, "testing/sysfs-foo", "2020", "Foo's knob.",
	    "/sys/class/foo/<x>/knob");
	doc(b, LEVEL_TESTING, "testing/sysfs-driver-habanalabs", "Jan 2019",
	    "Status of the card:\n * operational",
	    "/sys/class/accel/accel<n>/device/status");
	doc(b, LEVEL_TESTING, "testing/sysfs-timecard", "August 2024",
	    "(RO) The name of the TTY.", "/sys/class/timecard/ocpN/tty/ttyMAC");
	doc(b, LEVEL_OBSOLETE, "obsolete/sysfs-foo", "2020", "Foo's knob.",
	    "/sys/class/foo_old/<x>/knob");
	run(a, b, NULL, &d);
	assert_int_equal(d.nr, 4);
	assert_int_equal(d.v[0].kind, CHANGE_DOC_MOVED);
	assert_string_equal(d.v[0].subject,
			    "/sys/class/habanalabs/hl<n>/status");
	assert_non_null(strstr(d.v[0].new, ", same file and date)"));
	assert_int_equal(d.v[1].kind, CHANGE_DOC_OBSOLETED);
	assert_string_equal(d.v[1].subject, "/sys/class/foo/<x>/knob");
	assert_int_equal(d.v[2].kind, CHANGE_DOC_DROPPED);
	assert_string_equal(d.v[2].subject, "/sys/class/timecard/ocpN/ttyMAC");
	assert_int_equal(d.v[3].kind, CHANGE_DOC_ADDED);
	assert_string_equal(d.v[3].subject,
			    "/sys/class/timecard/ocpN/tty/ttyMAC");
	done(a, b, &d);
}

/* Several entries merged into one that covers their paths. */
static void test_merged(void **state)
{
	struct snapshot *a = snapshot__new(), *b = snapshot__new();
	struct diff d = { 0 };
	struct doc_entry *e;

	(void)state;
	doc(a, LEVEL_TESTING, "testing/sysfs-bus-iio-adc-max9611", "2017",
	    "The shunt resistor.",
	    "/sys/bus/iio/devices/iio:deviceX/in_power_shunt_resistor");
	doc(a, LEVEL_TESTING, "testing/sysfs-bus-iio-ina2xx-adc", "2015",
	    "The value of the shunt resistor.",
	    "/sys/bus/iio/devices/iio:deviceX/in_shunt_resistor");
	e = doc(b, LEVEL_TESTING, "testing/sysfs-bus-iio", NULL,
		"The value of current sense resistor in Ohms.",
		"/sys/.../iio:deviceX/in_shunt_resistor");
	assert_int_equal(doc_entry__add_what(e,
		"/sys/.../iio:deviceX/in_power_shunt_resistor"), 0);
	run(a, b, NULL, &d);
	assert_int_equal(d.nr, 2);
	assert_int_equal(d.v[0].kind, CHANGE_DOC_MOVED);
	assert_int_equal(d.v[1].kind, CHANGE_DOC_MOVED);
	assert_string_equal(d.v[0].new,
			    "/sys/.../iio:deviceX/in_power_shunt_resistor "
			    "(testing/sysfs-bus-iio#1, its What: matches the "
			    "old one)");
	done(a, b, &d);
}

/* An attribute that NEW spells with alternatives moved into them. */
static void test_moved_into_braces(void **state)
{
	struct snapshot *a = snapshot__new(), *b = snapshot__new();
	struct diff d = { 0 };

	(void)state;
	doc(a, LEVEL_TESTING, "testing/sysfs-bus-cxl", "May, 2022",
	    "Write a string to create a pmem region.",
	    "/sys/bus/cxl/devices/decoderX.Y/create_pmem_region");
	doc(b, LEVEL_TESTING, "testing/sysfs-bus-cxl", "May, 2023",
	    "Write a string to create a region of either kind.",
	    "/sys/bus/cxl/devices/decoderX.Y/create_{pmem,ram}_region");
	doc(b, LEVEL_TESTING, "testing/sysfs-bus-other", NULL,
	    "Something else.", "/sys/bus/cxl/devices/decoderX.Y/{a,b}");
	run(a, b, NULL, &d);
	assert_int_equal(d.nr, 2);
	assert_int_equal(d.v[0].kind, CHANGE_DOC_MOVED);
	assert_string_equal(d.v[0].new,
			    "/sys/bus/cxl/devices/decoderX.Y/create_{pmem,ram}_region "
			    "(testing/sysfs-bus-cxl#1, its What: matches the "
			    "old one)");
	assert_int_equal(d.v[1].kind, CHANGE_DOC_ADDED);
	done(a, b, &d);
}

/*
 * An entry gone while NEW still has its nodes is a documentation problem;
 * one whose nodes went with it, or that had none, is dropped.
 */
static void test_dropped(void **state)
{
	struct snapshot *a = snapshot__new(), *b = snapshot__new();
	int32_t old_entry[2], new_entry[2];
	struct doc_matches m = { old_entry, new_entry };
	struct diff d = { 0 };

	(void)state;
	doc(a, LEVEL_TESTING, "testing/sysfs-live", "2020", "Still there.",
	    "/sys/kernel/live");
	doc(a, LEVEL_STABLE, "stable/sysfs-block", "2017", "Throttling.",
	    "/sys/block/<disk>/queue/throttle_sample_time");
	doc(a, LEVEL_TESTING, "testing/sysfs-uwb", "2008", "A radio.",
	    "/sys/class/uwb_rc/uwb<N>/beacon");
	b->docs.collected = true;
	snapshot__add_sysfs_node(a)->path =
		strdup("/sys/block/sda/queue/throttle_sample_time");
	snapshot__add_sysfs_node(a)->path = strdup("/sys/kernel/live");
	snapshot__add_sysfs_node(b)->path = strdup("/sys/kernel/live");
	snapshot__add_sysfs_node(b)->path = strdup("/sys/kernel/other");
	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	/* as docmatch__run() finds OLD's entries for each side's nodes */
	old_entry[0] = entry_of(a, "stable/sysfs-block");
	old_entry[1] = entry_of(a, "testing/sysfs-live");
	new_entry[0] = entry_of(a, "testing/sysfs-live");
	new_entry[1] = -1;
	assert_int_equal(diff_docs(a, b, &m, &d), 0);
	assert_int_equal(d.nr, 3);
	assert_int_equal(d.v[0].kind, CHANGE_DOC_DROPPED);
	assert_string_equal(d.v[0].subject,
			    "/sys/block/<disk>/queue/throttle_sample_time");
	assert_int_equal(d.v[1].kind, CHANGE_DOC_DROPPED_LIVE);
	assert_string_equal(d.v[1].subject, "/sys/kernel/live");
	assert_string_equal(d.v[1].old, "testing/sysfs-live#1");
	assert_null(d.v[1].new);
	/* no nodes on either side: the hardware is absent, not the docs */
	assert_int_equal(d.v[2].kind, CHANGE_DOC_DROPPED);
	assert_string_equal(d.v[2].subject, "/sys/class/uwb_rc/uwb<N>/beacon");
	diff__release(&d);

	/* without the sysfs part no entry can be seen live */
	m.old_entry = m.new_entry = NULL;
	assert_int_equal(diff_docs(a, b, &m, &d), 0);
	assert_int_equal(d.nr, 3);
	assert_int_equal(d.v[1].kind, CHANGE_DOC_DROPPED);
	done(a, b, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_covers),
		cmocka_unit_test(test_wildcard_renamed),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_moved_or_not),
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_moved_into_braces),
		cmocka_unit_test(test_dropped),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
