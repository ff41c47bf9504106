// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for the Documentation/ABI parser (collectors/abidocs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collectors/abidocs/abidocs.h"
#include "lib/print.h"
#include "match/what-index.h"

static char warnings[4096];

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(warnings);

	vsnprintf(warnings + len, sizeof(warnings) - len, fmt, ap);
	len = strlen(warnings);
	snprintf(warnings + len, sizeof(warnings) - len, "\n");
}

/* Parse @text as testing/@file into a new snapshot. */
static struct snapshot *parse(const char *file, const char *text,
			      struct abidocs_stats *st)
{
	struct snapshot *s = snapshot__new();

	memset(st, 0, sizeof(*st));
	st->check_pattern = what_pattern__check;
	warnings[0] = '\0';
	kabi_set_print(capture);
	assert_int_equal(abidocs__parse(file, LEVEL_TESTING, text, strlen(text),
					s, st), 0);
	return s;
}

static void test_entry_fields(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("sysfs-class-net",
		"This file documents the net class.\n"
		"\n"
		"What:\t\t/sys/class/net/<iface>/mtu\n"
		"What:\t\t/sys/class/net/<iface>/flags\n"
		"\t\t/sys/class/net/<iface>/ifalias\n"
		"Date:\t\tApril 2005\n"
		"KernelVersion:\t2.6.12\n"
		"Contact:\tnetdev@vger.kernel.org\n"
		"Description:\n"
		"\t\tThe MTU.\n"
		"\n"
		"\t\t  Indented more.\n"
		"Values:\t\tnot a known tag, so text\n"
		"\n"
		"Users:\t\tiproute2\n"
		"\t\tNetworkManager\n"
		"\n"
		"What:\t\t/sys/class/net/<iface>/ifindex\r\n"
		"Description:\tOne line.\r\n", &st);
	const struct doc_entry *d = &s->docs.v[0];

	assert_int_equal(s->docs.nr, 2);
	assert_int_equal(st.entries, 2);
	assert_int_equal(st.warnings, 0);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(d->level, LEVEL_TESTING);
	assert_string_equal(d->file, "sysfs-class-net");
	assert_int_equal(d->line, 3);
	assert_int_equal(d->nr_what, 3);
	assert_string_equal(d->what[2], "/sys/class/net/<iface>/ifalias");
	assert_string_equal(d->date, "April 2005");
	assert_string_equal(d->kernel_version, "2.6.12");
	assert_string_equal(d->contact, "netdev@vger.kernel.org");
	assert_string_equal(d->description,
			    "The MTU.\n\n  Indented more.\nValues:\t\tnot a known tag, so text");
	assert_string_equal(d->users, "iproute2\nNetworkManager");
	d = &s->docs.v[1];
	assert_int_equal(d->line, 18);
	assert_string_equal(d->what[0], "/sys/class/net/<iface>/ifindex");
	assert_string_equal(d->description, "One line.");
	assert_null(d->date);
	snapshot__free(s);
}

static void test_malformed(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("sysfs-bad",
		"Date:\t\tMarch 2020\n"
		"\n"
		"What:\t\t/sys/a\n"
		"Date:\t\tMarch 2020\n"
		"\n"
		"What:\t\t/sys/b<oops\n"
		"Description:\tx\n"
		"\n"
		"Where:\t\t/sys/c,\n"
		"what:\t\t/sys/d\n"
		"\t\tformerly /sys/e\n"
		"Description:\tx\n"
		"Description:\ty\n", &st);

	assert_int_equal(s->docs.nr, 3);
	assert_int_equal(st.malformed, 3);
	assert_string_equal(warnings,
		"Documentation/ABI/sysfs-bad:1: error: Date: before any What:\n"
		"Documentation/ABI/sysfs-bad:3: error: What: without Description:\n"
		"Documentation/ABI/sysfs-bad:6: error: unparsable What: pattern \"/sys/b<oops\": unclosed '<'\n"
		"Documentation/ABI/sysfs-bad:9: warning: Where: is an old spelling, read as What:\n"
		"Documentation/ABI/sysfs-bad:9: warning: What: ends in ',', read without it\n"
		"Documentation/ABI/sysfs-bad:10: warning: what: should be spelled What:\n"
		"Documentation/ABI/sysfs-bad:11: warning: text under What: that is not a path, skipped\n"
		"Documentation/ABI/sysfs-bad:13: warning: Description: given twice in one entry\n");
	assert_int_equal(st.warnings, 8);
	/* Where: and what: lines join one entry */
	assert_int_equal(s->docs.v[2].nr_what, 2);
	assert_string_equal(s->docs.v[2].what[0], "/sys/c");
	assert_string_equal(s->docs.v[2].description, "x\ny");
	snapshot__free(s);
}

/* Named interfaces ("devfs") are kept but are not patterns to check. */
static void test_not_a_path(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("devfs",
		"What:\t\tdevfs\nDate:\t\tJuly 2005\nDescription:\tGone.\n", &st);

	assert_int_equal(st.warnings, 0);
	assert_string_equal(s->docs.v[0].what[0], "devfs");
	snapshot__free(s);
}

static void test_duplicates_across_files(void **state)
{
	struct abidocs_stats st = { 0 };
	struct snapshot *s = snapshot__new();
	const char *a = "What: /sys/x\nDescription: a\n";
	const char *b = "\nWhat: /sys/y\nWhat: /sys/x\nDescription: b\n";

	warnings[0] = '\0';
	kabi_set_print(capture);
	assert_int_equal(abidocs__parse("stable/a", LEVEL_STABLE, a, strlen(a),
					s, &st), 0);
	assert_int_equal(abidocs__parse("testing/b", LEVEL_TESTING, b,
					strlen(b), s, &st), 0);
	/* the same pattern twice in one file is no duplicate across files */
	assert_int_equal(abidocs__parse("stable/a", LEVEL_STABLE, a, strlen(a),
					s, &st), 0);
	assert_int_equal(abidocs__check_duplicates(s, &st), 0);
	assert_string_equal(warnings,
		"Documentation/ABI/testing/b:2: warning: What: \"/sys/x\" is also documented at Documentation/ABI/stable/a:1\n");
	snapshot__free(s);
}

/* An empty What: names nothing: malformed, and no entry without a pattern. */
static void test_empty_what(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("empty", "What:\nDescription: x\n\nWhat:", &st);

	assert_int_equal(s->docs.nr, 0);
	assert_int_equal(st.entries, 2);
	assert_int_equal(st.malformed, 2);
	assert_string_equal(warnings,
		"Documentation/ABI/empty:1: error: What: without a pattern\n"
		"Documentation/ABI/empty:4: error: What: without a pattern\n");
	snapshot__free(s);
}

/*
 * A UTF-8 byte order mark at the start of a file is skipped, without a
 * warning: the first What: is an entry, at line 1.  Nowhere else is it.
 */
static void test_byte_order_mark(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("bom",
		"\xef\xbb\xbfWhat:\t/sys/kernel/first\nDescription: one\n", &st);

	assert_int_equal(s->docs.nr, 1);
	assert_string_equal(s->docs.v[0].what[0], "/sys/kernel/first");
	assert_int_equal(s->docs.v[0].line, 1);
	assert_int_equal(st.warnings, 0);
	assert_string_equal(warnings, "");
	snapshot__free(s);

	/* a second one is text: a preamble, no entry */
	s = parse("bom2", "\xef\xbb\xbf\xef\xbb\xbfWhat:\t/sys/x\nDescription: x\n",
		  &st);
	assert_int_equal(s->docs.nr, 0);
	snapshot__free(s);

	/* a file that is only a byte order mark, or part of one */
	s = parse("bom3", "\xef\xbb\xbf", &st);
	assert_int_equal(s->docs.nr, 0);
	snapshot__free(s);
	s = parse("bom4", "\xef\xbb", &st);
	assert_int_equal(s->docs.nr, 0);
	snapshot__free(s);
}

/* Text that is not the format at all: no crash, nothing invented. */
static void test_garbage(void **state)
{
	static const char text[] = "What:\0\xff\n:\n\n\t\tWhat:\nDescription:";
	struct abidocs_stats st = { 0 };
	struct snapshot *s = snapshot__new();

	kabi_set_print(NULL);
	assert_int_equal(abidocs__parse("x", LEVEL_REMOVED, text,
					sizeof(text) - 1, s, &st), 0);
	assert_int_equal(s->docs.nr, 0);
	snapshot__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_fields),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_not_a_path),
		cmocka_unit_test(test_duplicates_across_files),
		cmocka_unit_test(test_empty_what),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_byte_order_mark),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
