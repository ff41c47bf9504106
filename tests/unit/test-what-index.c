// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for what-index.c: every wildcard form, anchoring, the index. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match/what-index.h"

static void count_match(uint32_t id, bool dir_only, void *ctx)
{
	uint64_t *mask = ctx;

	*mask |= 1ull << id;
}

/* The ids (as a bitmask) of the patterns in @idx that match @path. */
static uint64_t matches(const struct what_index *idx, const char *path)
{
	uint64_t mask = 0;

	assert_int_equal(what_index__match(idx, path, count_match, &mask), 0);
	return mask;
}

/* Does @pattern, alone in an index, match @path? */
static bool one(const char *pattern, const char *path)
{
	struct what_index *idx = what_index__new();
	const char *why = NULL;
	uint64_t m;

	assert_non_null(idx);
	if (what_index__add(idx, pattern, 0, &why))
		fail_msg("%s: %s", pattern, why);
	m = matches(idx, path);
	what_index__free(idx);
	return m != 0;
}

static void test_literal_and_anchoring(void **state)
{
	assert_true(one("/sys/kernel/uevent_seqnum", "/sys/kernel/uevent_seqnum"));
	assert_false(one("/sys/kernel/uevent_seqnum", "/sys/kernel"));
	assert_false(one("/sys/kernel", "/sys/kernel/uevent_seqnum"));
	assert_false(one("/sys/kernel/uevent", "/sys/kernel/uevent_seqnum"));
	assert_false(one("/sys/kernel/uevent_seqnum", "/sys/kernel/uevent"));
	assert_true(one("/sys/kernel//mm/", "/sys/kernel/mm"));
	/* IIO's "name = value" form documents the name */
	assert_true(one("/sys/bus/iio/devices/triggerX/name = \"adxl372-devX-peak\"",
			"/sys/bus/iio/devices/trigger0/name"));
	/* a blank inside <...> is part of the name */
	assert_true(one("/sys/bus/usb/devices/<config num>/x",
			"/sys/bus/usb/devices/1-1:1.0/x"));
}

static void test_angle_brackets(void **state)
{
	assert_true(one("/sys/class/net/<iface>/mtu", "/sys/class/net/eth0/mtu"));
	assert_false(one("/sys/class/net/<iface>/mtu", "/sys/class/net/mtu"));
	assert_false(one("/sys/class/net/<iface>/mtu", "/sys/class/net/a/b/mtu"));
	assert_true(one("/sys/bus/pci/devices/<dev>/resource<N>",
			"/sys/bus/pci/devices/0000:00:01.0/resource2"));
	assert_false(one("/sys/bus/pci/devices/<dev>/resource<N>",
			 "/sys/bus/pci/devices/0000:00:01.0/resource"));
}

static void test_placeholders(void **state)
{
	assert_true(one("/sys/devices/system/cpu/cpuX/online",
			"/sys/devices/system/cpu/cpu12/online"));
	assert_false(one("/sys/devices/system/cpu/cpuX/online",
			 "/sys/devices/system/cpu/cpu/online"));
	assert_true(one("/sys/bus/iio/devices/iio:deviceX/in_voltageY_raw",
			"/sys/bus/iio/devices/iio:device0/in_voltage3_raw"));
	assert_true(one("/sys/class/hwmon/hwmonX/tempZ_input",
			"/sys/class/hwmon/hwmon1/temp2_input"));
	/* a capital next to it makes X a letter */
	assert_true(one("/sys/firmware/acpi/tables/XSDT",
			"/sys/firmware/acpi/tables/XSDT"));
	assert_false(one("/sys/firmware/acpi/tables/XSDT",
			 "/sys/firmware/acpi/tables/1SDT"));
	assert_false(one("/sys/bus/usb/XHCI", "/sys/bus/usb/aHCI"));
}

static void test_classes(void **state)
{
	assert_true(one("/sys/block/sd[a-z]", "/sys/block/sdb"));
	assert_false(one("/sys/block/sd[a-z]", "/sys/block/sdB"));
	assert_false(one("/sys/block/sd[a-z]", "/sys/block/sdab"));
	assert_true(one("/sys/x/gpe[0-9a-fA-F][0-9a-f]", "/sys/x/gpeA3"));
	assert_true(one("/sys/x/port[0-9]+", "/sys/x/port123"));
	assert_false(one("/sys/x/port[0-9]+", "/sys/x/port"));
	assert_false(one("/sys/x/port[0-9]+", "/sys/x/port1a"));
	assert_true(one("/sys/x/[^0-9]y", "/sys/x/ay"));
	assert_false(one("/sys/x/[^0-9]y", "/sys/x/5y"));
	assert_false(one("/sys/x/[^0-9]", "/sys/x/"));
}

static void test_star(void **state)
{
	assert_true(one("/sys/x/*", "/sys/x/anything"));
	assert_false(one("/sys/x/*", "/sys/x/a/b"));
	assert_true(one("/sys/x/foo*", "/sys/x/foo"));
	assert_true(one("/sys/x/foo*bar", "/sys/x/foo_and_bar"));
	assert_false(one("/sys/x/foo*bar", "/sys/x/foo_and_baz"));
	assert_true(one("/sys/x/*a*a*a*a*a*a*b", "/sys/x/aaaaaaaaaaaaaaaaaaaab"));
	assert_false(one("/sys/x/*a*a*a*a*a*a*b", "/sys/x/aaaaaaaaaaaaaaaaaaaaa"));
}

static void test_braces(void **state)
{
	assert_true(one("/sys/power/{state,disk}", "/sys/power/disk"));
	assert_false(one("/sys/power/{state,disk}", "/sys/power/mem"));
	assert_true(one("/sys/x/{a/b,c}/d", "/sys/x/a/b/d"));
	assert_true(one("/sys/x/{a/b,c}/d", "/sys/x/c/d"));
	assert_true(one("/sys/x/in{0,1}_{min,max}", "/sys/x/in1_max"));
	assert_true(one("/sys/x/{cpuX,nodeY}/z", "/sys/x/node3/z"));
	/* nested, as sysfs-driver-toshiba_acpi writes them */
	assert_true(one("/sys/x/TOS{1900,620{0,7,8}}:00", "/sys/x/TOS6207:00"));
	assert_true(one("/sys/x/TOS{1900,620{0,7,8}}:00", "/sys/x/TOS1900:00"));
	assert_false(one("/sys/x/TOS{1900,620{0,7,8}}:00", "/sys/x/TOS6201:00"));
}

static void test_globstar(void **state)
{
	const char *p = "/sys/devices/.../power/wakeup";

	assert_true(one(p, "/sys/devices/power/wakeup"));
	assert_true(one(p, "/sys/devices/pci0000:00/0000:00:1f.0/power/wakeup"));
	assert_false(one(p, "/sys/devices/pci0000:00/power/wakeup/x"));
	assert_false(one(p, "/sys/class/power/wakeup"));
	assert_true(one("/sys/kernel/debug/...", "/sys/kernel/debug"));
	assert_true(one("/sys/kernel/debug/...", "/sys/kernel/debug/a/b/c"));
	assert_true(one("/sys/.../.../x", "/sys/a/x"));
}

/* "..." as zero components, at the end, several times, next to wildcards. */
static void test_globstar_forms(void **state)
{
	const char *p = "/sys/.../net/.../mtu";

	assert_true(one(p, "/sys/net/mtu"));
	assert_true(one(p, "/sys/devices/pci0/net/eth0/mtu"));
	assert_true(one(p, "/sys/net/net/net/mtu"));
	assert_false(one(p, "/sys/devices/net"));
	assert_false(one(p, "/sys/devices/mtu"));
	assert_false(one(p, "/sys/net/mtu/x"));
	assert_true(one("/sys/a/...", "/sys/a/b/c"));
	assert_false(one("/sys/a/...", "/sys/b/a"));
	assert_true(one("/.../x", "/x"));
	assert_true(one("/.../x", "/sys/x"));
	assert_true(one("/sys/<d>/.../x/.../<y>_en", "/sys/iio/x/s/in_en"));
	assert_false(one("/sys/<d>/.../x/.../<y>_en", "/sys/iio/s/in_en"));
	assert_true(one("/sys/.../.../.../x", "/sys/x"));
	assert_true(one("/sys/.../{a,b}/.../c", "/sys/q/b/c"));
}

static void expect_bad(const char *pattern, const char *reason)
{
	struct what_index *idx = what_index__new();
	const char *why = NULL;

	assert_int_equal(what_pattern__check(pattern, &why), -EINVAL);
	assert_string_equal(why, reason);
	assert_int_equal(what_index__add(idx, pattern, 0, &why), -EINVAL);
	/* nothing half-added: the index still matches nothing */
	assert_int_equal(matches(idx, "/sys/a"), 0);
	what_index__free(idx);
}

static void test_unparsable(void **state)
{
	char nested[128] = "/sys/";
	int i;

	/* 33 nested groups: one more than WHAT_MAX_BRACES */
	for (i = 0; i < 33; i++)
		nested[5 + i] = '{';
	nested[38] = 'a';
	for (i = 0; i < 33; i++)
		nested[39 + i] = '}';
	nested[72] = '\0';

	expect_bad("sys/kernel", "not an absolute path");
	expect_bad("", "not an absolute path");
	expect_bad("/sys/a b", "whitespace in pattern");
	expect_bad("/sys/<name", "unclosed '<'");
	expect_bad("/sys/name>", "unbalanced '<', '[' or '{'");
	expect_bad("/sys/[0-9", "unclosed '['");
	expect_bad("/sys/a]", "unbalanced '<', '[' or '{'");
	expect_bad("/sys/{a,b", "unclosed '{'");
	expect_bad("/sys/{a,b<}", "unclosed '<'");
	expect_bad("/sys/{a,{b,c}", "unclosed '{'");
	expect_bad("/sys/a}", "unbalanced '<', '[' or '{'");
	expect_bad("/sys/{a,,b}", "empty {...} alternative");
	expect_bad(nested, "too many {...} groups");
	expect_bad("/sys/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}",
		   "too many {...} alternatives");
	expect_bad("/sys/.../<device>/<UUID>/",
		   "no fixed name after the first component: it would match almost anything");
	expect_bad("/sys/*", "no fixed name after the first component: it would match almost anything");
	expect_bad("/dev/X", "no fixed name after the first component: it would match almost anything");
	assert_int_equal(what_pattern__check("/sys/.../iio:deviceX/in_X_raw", NULL), 0);
	assert_int_equal(what_pattern__check("/dev/fw[0-9]+", NULL), 0);
	assert_int_equal(what_pattern__check("/sys", NULL), 0);
}

/* Many patterns: each path finds exactly its own, through the one index. */
static void test_index(void **state)
{
	struct what_index *idx = what_index__new();
	char pattern[64], path[64];
	uint32_t i;

	for (i = 0; i < 40; i++) {
		snprintf(pattern, sizeof(pattern), "/sys/class/c%u/<dev>/attr%u",
			 i, i);
		assert_int_equal(what_index__add(idx, pattern, i, NULL), 0);
	}
	assert_int_equal(what_index__add(idx, "/sys/class/.../uevent", 40, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/class/c7/<dev>/attr7", 41, NULL), 0);
	for (i = 0; i < 40; i++) {
		uint64_t want = 1ull << i;

		if (i == 7)
			want |= 1ull << 41;
		snprintf(path, sizeof(path), "/sys/class/c%u/d%u/attr%u", i, i, i);
		assert_int_equal(matches(idx, path), want);
		snprintf(path, sizeof(path), "/sys/class/c%u/d/attr%u", i, i + 1);
		assert_int_equal(matches(idx, path), 0);
	}
	assert_int_equal(matches(idx, "/sys/class/c3/x/y/uevent"), 1ull << 40);
	what_index__free(idx);
}

/* Patterns that differ only in how they name a wildcard share its edge. */
static void test_spellings(void **state)
{
	struct what_index *idx = what_index__new();

	assert_int_equal(what_index__add(idx, "/sys/class/net/<iface>/mtu", 0, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/class/net/<dev>/mtu", 1, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/class/net/X/speed", 2, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/x/cpuX/online", 3, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/x/cpu<N>/online", 4, NULL), 0);
	/* compiles otherwise: one character, not one or more */
	assert_int_equal(what_index__add(idx, "/sys/x/cpu[0-9]/online", 5, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/x/cpu[0-9]+/.../y", 6, NULL), 0);
	assert_int_equal(matches(idx, "/sys/class/net/eth0/mtu"), 0x3);
	assert_int_equal(matches(idx, "/sys/class/net/eth0/speed"), 0x4);
	assert_int_equal(matches(idx, "/sys/x/cpu1/online"), 0x38);
	assert_int_equal(matches(idx, "/sys/x/cpu12/online"), 0x18);
	assert_int_equal(matches(idx, "/sys/x/cpuA/online"), 0x18);
	assert_int_equal(matches(idx, "/sys/x/cpu12/a/y"), 0x40);
	assert_int_equal(matches(idx, "/sys/x/cpu/online"), 0);
	what_index__free(idx);
}

/* How many ids the cursor's patterns end with, counted. */
static void count_ids(uint32_t id, bool dir_only, void *ctx)
{
	(*(size_t *)ctx)++;
}

/* Step @c from the root over the components of @path. */
static void walk(const struct what_index *idx, struct what_cursor *c,
		 const char *path)
{
	struct what_cursor tmp;
	const char *p, *end;

	what_cursor__init(&tmp);
	assert_int_equal(what_index__root(idx, c), 0);
	for (p = path + 1; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		assert_int_equal(what_index__step(idx, c, p, end - p, &tmp), 0);
		assert_int_equal(what_cursor__copy(c, &tmp), 0);
	}
	what_cursor__release(&tmp);
}

/*
 * 300 patterns spelling "<vI>/.../wakeup" each their own way are one path:
 * a cursor below holds as many nodes as for one of them, and all of them
 * still match.
 */
static void test_spellings_share_a_path(void **state)
{
	struct what_index *many = what_index__new(), *single = what_index__new();
	static const char *const paths[] = {
		"/sys/devices/platform", "/sys/devices/platform/dev0",
		"/sys/devices/platform/dev0/power/wakeup",
	};
	struct what_cursor a, b;
	char pattern[64];
	size_t i, count = 0;

	what_cursor__init(&a);
	what_cursor__init(&b);
	for (i = 0; i < 300; i++) {
		snprintf(pattern, sizeof(pattern), "/sys/devices/<v%zu>/.../wakeup", i);
		assert_int_equal(what_index__add(many, pattern, i, NULL), 0);
	}
	assert_int_equal(what_index__add(single, pattern, 0, NULL), 0);
	for (i = 0; i < 3; i++) {
		walk(many, &a, paths[i]);
		walk(single, &b, paths[i]);
		assert_int_equal(what_cursor__size(&a), what_cursor__size(&b));
	}
	what_cursor__entries(&a, count_ids, &count);
	assert_int_equal(count, 300);
	what_cursor__release(&a);
	what_cursor__release(&b);
	what_index__free(many);
	what_index__free(single);
}

/*
 * Patterns that overlap in every way: an index of all of them matches a
 * path with exactly the patterns that match it alone.
 */
static void test_index_is_its_patterns(void **state)
{
	static const char *const patterns[] = {
		"/sys/devices/.../power/wakeup", "/sys/devices/<d>/.../wakeup",
		"/sys/devices/X/.../wakeup", "/sys/devices/p*/.../wakeup",
		"/sys/devices/[a-p]latform/.../power/.../wakeup",
		"/sys/.../power/...", "/sys/.../power/control",
		"/sys/devices/.../<x>_en", "/sys/devices/.../in_<x>_en",
		"/sys/devices/.../in_Y_en", "/sys/devices/...",
		"/sys/devices/platform/.../.../wakeup", "/sys/devices/platform/dev0",
		"/sys/.../dev0/", "/sys/.../{power,net}/{wakeup,mtu}",
		"/sys/devices/platform/dev<N>/power/wakeup",
		"/.../wakeup", "/sys/devices/.../net/.../mtu",
		"/sys/devices/p*/.../<x>_en", "/sys/devices/<d>/.../<y>_en",
		"/sys/devices/*m/.../<y>_en",
	};
	static const char *const paths[] = {
		"/sys/devices/platform/dev0/power/wakeup",
		"/sys/devices/platform/dev0/power/control",
		"/sys/devices/platform/dev0/power/power/wakeup",
		"/sys/devices/platform/dev0/power",
		"/sys/devices/platform/dev0", "/sys/devices/platform",
		"/sys/devices/platform/dev0/in_a_en", "/sys/devices/platform/in_en",
		"/sys/devices/wakeup", "/sys/devices/x/wakeup", "/wakeup",
		"/sys/devices/platform/net/eth0/mtu", "/sys/devices/net/mtu",
		"/sys/class/net/eth0/mtu", "/sys/power/state",
		"/sys/devices/platform/dev0/net/power/wakeup",
		"/sys/devices/platform/x/y_en", "/sys/devices/platform/_en",
	};
	struct what_index *idx = what_index__new();
	size_t i, j;

	for (i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
		assert_int_equal(what_index__add(idx, patterns[i], i, NULL), 0);
	for (j = 0; j < sizeof(paths) / sizeof(*paths); j++) {
		uint64_t want = 0;

		for (i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
			want |= (uint64_t)one(patterns[i], paths[j]) << i;
		if (matches(idx, paths[j]) != want)
			fail_msg("%s: %#llx, alone %#llx", paths[j],
				 (unsigned long long)matches(idx, paths[j]),
				 (unsigned long long)want);
	}
	what_index__free(idx);
}

/*
 * 200 patterns with "..." nodes all alive at once, the wildcards before
 * them all different, half of them with a wildcard after: each one still
 * matches where it should.
 */
static void test_many_globstars(void **state)
{
	struct what_index *idx = what_index__new();
	struct what_cursor c;
	char pattern[64];
	size_t i, count = 0, want = 0;

	what_cursor__init(&c);
	for (i = 0; i < 200; i++) {
		char lo = 'a' + i % 20, hi = 'k' + i / 20;

		snprintf(pattern, sizeof(pattern), "/sys/devices/[%c-%c]latform/.../%s",
			 lo, hi, i % 2 ? "wake<x>" : "wakeup");
		assert_int_equal(what_index__add(idx, pattern, i, NULL), 0);
		want += lo <= 'p' && 'p' <= hi;
	}
	walk(idx, &c, "/sys/devices/platform/dev0/power");
	/* the one "..." node of each pattern that took "platform", no more */
	assert_int_equal(what_cursor__size(&c), want);
	walk(idx, &c, "/sys/devices/platform/dev0/power/wakeup");
	what_cursor__entries(&c, count_ids, &count);
	assert_int_equal(count, want);
	what_cursor__release(&c);
	what_index__free(idx);
}

/*
 * Cursors share what "..." keeps alive: each can be released first, and
 * two that reached the same nodes by other ways are the same.
 */
static void test_cursor_sharing(void **state)
{
	struct what_index *idx = what_index__new();
	struct what_cursor a, b, c, d;
	uint64_t mask = 0;

	what_cursor__init(&a);
	what_cursor__init(&b);
	what_cursor__init(&c);
	what_cursor__init(&d);
	assert_int_equal(what_index__add(idx, "/sys/.../a/...", 1, NULL), 0);
	assert_int_equal(what_index__add(idx, "/sys/.../x", 2, NULL), 0);
	walk(idx, &a, "/sys/a");
	assert_int_equal(what_index__step(idx, &a, "q", 1, &b), 0);
	what_cursor__release(&a);
	assert_int_equal(what_index__step(idx, &b, "x", 1, &c), 0);
	what_cursor__release(&b);
	what_cursor__entries(&c, count_match, &mask);
	assert_int_equal(mask, 0x6);
	/* /sys/a and /sys/b/a reach the same nodes, in frames of their own */
	walk(idx, &a, "/sys/a");
	walk(idx, &b, "/sys/b/a");
	walk(idx, &d, "/sys/b");
	assert_true(what_cursor__same(&a, &b));
	assert_true(what_cursor__same(&b, &a));
	assert_int_equal(what_cursor__hash(&a), what_cursor__hash(&b));
	assert_false(what_cursor__same(&a, &d));
	assert_false(what_cursor__same(&c, &d));
	assert_int_equal(what_cursor__copy(&d, &a), 0);
	assert_true(what_cursor__same(&a, &d));
	what_cursor__release(&a);
	what_cursor__release(&b);
	what_cursor__release(&c);
	what_cursor__release(&d);
	what_index__free(idx);
}

static void test_cursor(void **state)
{
	struct what_index *idx = what_index__new();
	struct what_cursor a, b;
	uint64_t mask = 0;

	what_cursor__init(&a);
	what_cursor__init(&b);
	assert_int_equal(what_index__add(idx, "/sys/kernel/mm/<x>", 3, NULL), 0);
	assert_int_equal(what_index__root(idx, &a), 0);
	assert_int_equal(what_index__step(idx, &a, "sys", 3, &b), 0);
	assert_int_equal(what_index__step(idx, &b, "kernel", 6, &a), 0);
	assert_int_equal(what_index__step(idx, &a, "mmx", 2, &b), 0);
	assert_int_equal(what_index__step(idx, &b, "thp", 3, &a), 0);
	what_cursor__entries(&a, count_match, &mask);
	assert_int_equal(mask, 1ull << 3);
	assert_int_equal(what_index__step(idx, &a, "deeper", 6, &b), 0);
	assert_true(what_cursor__empty(&b));
	what_cursor__release(&a);
	what_cursor__release(&b);
	what_index__free(idx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_literal_and_anchoring),
		cmocka_unit_test(test_angle_brackets),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_braces),
		cmocka_unit_test(test_globstar),
		cmocka_unit_test(test_globstar_forms),
		cmocka_unit_test(test_unparsable),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_spellings_share_a_path),
		cmocka_unit_test(test_index_is_its_patterns),
		cmocka_unit_test(test_many_globstars),
		cmocka_unit_test(test_cursor_sharing),
		cmocka_unit_test(test_cursor),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
