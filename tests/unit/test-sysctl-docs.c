// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the parser of the sysctl documents
 * (collectors/abidocs/sysctl.c).  The texts are cut from 6.1's and
 * 6.12's admin-guide/sysctl/ and networking/ip-sysctl.rst.
 */
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

static struct snapshot *parse(const char *file, const char *text, size_t len,
			      struct abidocs_stats *st)
{
	struct snapshot *s = snapshot__new();

	memset(st, 0, sizeof(*st));
	st->check_pattern = what_pattern__check;
	warnings[0] = '\0';
	kabi_set_print(capture);
	assert_int_equal(abidocs__parse_sysctl(file, text, len, s, st), 0);
	return s;
}

/* The entry documenting @path, or NULL. */
static const struct doc_entry *find(const struct snapshot *s, const char *path)
{
	size_t i, j;

	for (i = 0; i < s->docs.nr; i++)
		for (j = 0; j < s->docs.v[i].nr_what; j++)
			if (!strcmp(s->docs.v[i].what[j], path))
				return &s->docs.v[i];
	return NULL;
}

static void assert_entry(const struct snapshot *s, const char *path,
			 unsigned int line, enum abi_level level)
{
	const struct doc_entry *d = find(s, path);

	if (!d)
		fail_msg("no entry documents %s", path);
	assert_int_equal(d->line, line);
	assert_int_equal(d->level, level);
	assert_int_equal(d->source, DOC_SOURCE_SYSCTL);
}

static const char guide[] =
	"===================================\n"		/* 1 */
	"Documentation for /proc/sys/kernel/\n"
	"===================================\n"
	"\n"
	"acct\n"					/* 5 */
	"====\n"
	"\n"
	"::\n"
	"\n"
	"    highwater lowwater frequency\n"		/* 10 */
	"\n"
	"bootloader_type (x86 only)\n"
	"==========================\n"
	"\n"
	"osrelease, ostype & version\n"			/* 15 */
	"===========================\n"
	"\n"
	"msgmax, msgmnb, and msgmni\n"
	"==========================\n"
	"\n"						/* 20 */
	"auto_msgmni\n"
	"===========\n"
	"\n"
	"This variable is obsolete and may be removed.\n"
	"\n"						/* 25 */
	"random\n"
	"======\n"
	"\n"
	"This is a directory, with the following entries:\n"
	"\n"						/* 30 */
	"* ``boot_id``: a UUID generated the first time;\n"
	"\n"
	"* ``uuid``: a UUID generated every time this is retrieved;\n"
	"\n"
	"acct\n"					/* 35 */
	"====\n"
	"\n"
	"x86/ia32 emulation\n"
	"==================\n"
	"\n"						/* 40 */
	"4. Appletalk\n"
	"------------\n"
	"\n"
	"aarp-tick-time\n"
	"--------------\n"				/* 45 */
	"\n"
	"3. /proc/sys/fs/mqueue - POSIX message queues filesystem\n"
	"========================================================\n"
	"\n"
	"``/proc/sys/fs/mqueue/msg_max`` is a read/write file for\n"	/* 50 */
	"setting the maximum number of messages in a queue.\n";

static void test_guide(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("admin-guide/sysctl/kernel.rst", guide,
				   strlen(guide), &st);
	const struct doc_entry *d;

	assert_entry(s, "/proc/sys/kernel/acct", 5, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/kernel/bootloader_type", 12, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/kernel/ostype", 15, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/kernel/msgmni", 18, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/kernel/auto_msgmni", 21, LEVEL_OBSOLETE);
	assert_entry(s, "/proc/sys/kernel/random", 26, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/kernel/random/boot_id", 31, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/kernel/random/uuid", 33, LEVEL_SYSCTL);
	/* "4. Appletalk" is the directory of the title's and its name */
	assert_entry(s, "/proc/sys/kernel/appletalk/aarp-tick-time", 44,
		     LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/fs/mqueue/msg_max", 50, LEVEL_SYSCTL);
	assert_null(find(s, "/proc/sys/kernel/x86"));
	assert_null(find(s, "/proc/sys/kernel/only"));
	assert_null(find(s, "/proc/sys/kernel/and"));
	assert_null(find(s, "/proc/sys/kernel/&"));

	d = find(s, "/proc/sys/kernel/ostype");
	assert_int_equal(d->nr_what, 3);
	assert_string_equal(d->what[0], "/proc/sys/kernel/osrelease");
	assert_string_equal(d->what[2], "/proc/sys/kernel/version");
	assert_string_equal(d->file, "admin-guide/sysctl/kernel.rst");
	/* the text up to the next entry, blank lines at its end left out */
	d = find(s, "/proc/sys/kernel/acct");
	assert_string_equal(d->description,
			    "acct\n====\n\n::\n\n    highwater lowwater frequency");

	/* a word of letters, digits, '_', '-' and '.' is a name */
	assert_entry(s, "/proc/sys/kernel/emulation", 38, LEVEL_SYSCTL);
	assert_string_equal(warnings,
		"Documentation/admin-guide/sysctl/kernel.rst:38: warning: heading word \"x86/ia32\" is not the name of a sysctl\n"
		"Documentation/admin-guide/sysctl/kernel.rst:35: warning: \"/proc/sys/kernel/acct\" is also documented at line 5\n");
	assert_int_equal(st.warnings, 2);
	assert_int_equal(st.entries, s->docs.nr);
	snapshot__free(s);
}

static const char net[] =
	"=========\n"					/* 1 */
	"IP Sysctl\n"
	"=========\n"
	"\n"
	"/proc/sys/net/ipv4/* Variables\n"		/* 5 */
	"==============================\n"
	"\n"
	"ip_forward - BOOLEAN\n"
	"\t- 0 - disabled (default)\n"
	"\n"						/* 10 */
	"\tForward Packets between interfaces.\n"
	"\n"
	"route/max_size - INTEGER\n"
	"\tFrom linux kernel 3.6 onwards, this is deprecated for ipv4\n"
	"\n"						/* 15 */
	"neigh/default/gc_thresh1 - INTEGER\n"
	"\tMinimum number of entries to keep.\n"
	"\n"
	"TCP variables\n"
	"=============\n"				/* 20 */
	"\n"
	"tcp_rmem, tcp_wmem - vector of 3 INTEGERs: min, default, max\n"
	"\tSizes.\n"
	"\n"
	"``conf/interface/*``\n"			/* 25 */
	"\tchanges special settings per interface\n"
	"\n"
	"log_martians - BOOLEAN\n"
	"\tLog packets with impossible addresses to kernel log.\n"
	"Alexey Kuznetsov.\n"				/* 30 */
	"\n"
	"``proc/sys/net/sctp/*`` Variables:\n"
	"==================================\n"
	"\n"
	"addip_enable - BOOLEAN\n"			/* 35 */
	"\tEnable or disable extension of ADD-IP.\n";

static void test_items(void **state)
{
	struct abidocs_stats st;
	struct snapshot *s = parse("networking/ip-sysctl.rst", net,
				   strlen(net), &st);
	const struct doc_entry *d;

	assert_int_equal(s->docs.nr, 6);
	assert_entry(s, "/proc/sys/net/ipv4/.../ip_forward", 8, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/net/ipv4/route/max_size", 13, LEVEL_OBSOLETE);
	assert_entry(s, "/proc/sys/net/ipv4/neigh/default/gc_thresh1", 16,
		     LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/net/ipv4/.../tcp_wmem", 22, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/net/ipv4/.../log_martians", 28, LEVEL_SYSCTL);
	assert_entry(s, "/proc/sys/net/sctp/.../addip_enable", 35, LEVEL_SYSCTL);
	d = find(s, "/proc/sys/net/ipv4/.../ip_forward");
	assert_string_equal(d->description,
			    "ip_forward - BOOLEAN\n\t- 0 - disabled (default)\n\n"
			    "\tForward Packets between interfaces.");
	/* a line of text at the start of a line ends an item */
	d = find(s, "/proc/sys/net/ipv4/.../log_martians");
	assert_string_equal(d->description,
			    "log_martians - BOOLEAN\n"
			    "\tLog packets with impossible addresses to kernel log.");
	assert_int_equal(st.warnings, 0);
	snapshot__free(s);
}

/* No directory yet, bytes that are no text: warnings, never a crash. */
static void test_garbage(void **state)
{
	static const char text[] = "acct\n====\n\n\0\0\0\n===\nx\x01y\n---\n";
	struct abidocs_stats st;
	struct snapshot *s = parse("admin-guide/sysctl/vm.rst", text,
				   sizeof(text) - 1, &st);

	assert_int_equal(s->docs.nr, 0);
	assert_string_equal(warnings,
		"Documentation/admin-guide/sysctl/vm.rst:1: warning: acct: no /proc/sys directory named above it, skipped\n"
		"Documentation/admin-guide/sysctl/vm.rst:6: warning: heading word \"x\\x01y\" is not the name of a sysctl\n");
	snapshot__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guide),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_garbage),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
