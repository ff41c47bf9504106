// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for notify/maintainers.c on tests/fixtures/maintainers/
 * MAINTAINERS, whose sections each exercise one of get_maintainer.pl's
 * rules: a trailing slash, '*' that does not cross a '/', a bracket, a
 * directory named without its slash, X:, N:, the ranking and THE REST.
 * Then the errors, odd lines, and every truncation of the fixture.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/fileio.h"
#include "lib/print.h"
#include "notify/maintainers.h"

#define FIXTURE SRCDIR "/tests/fixtures/maintainers/MAINTAINERS"

static struct maintainers fixture;
static char tmp_path[] = "/tmp/kabidiff-test-maintainers.XXXXXX";
static char last_message[1024];
static int messages;

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	messages++;
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
}

/* maintainers__load() of @path; how many messages, and the last one */
static int load(struct maintainers *m, const char *path)
{
	kabi_print_fn_t old = kabi_set_print(capture);
	int err;

	messages = 0;
	last_message[0] = '\0';
	err = maintainers__load(m, path);
	kabi_set_print(old);
	return err;
}

/* maintainers__load() of a file holding @len bytes of @text */
static int load_text(struct maintainers *m, const char *text, size_t len)
{
	FILE *f = fopen(tmp_path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return load(m, tmp_path);
}

/* "TITLE RANK, ..." of what maintainers__match() says of @path in @m */
static const char *matches_in(const struct maintainers *m, const char *path)
{
	static char buf[1024];
	struct maintainers_match *v;
	size_t nr, i, n = 0;

	assert_int_equal(maintainers__match(m, path, &v, &nr), 0);
	buf[0] = '\0';
	for (i = 0; i < nr; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s %d",
			      i ? ", " : "", v[i].section->title, v[i].rank);
	free(v);
	return buf;
}

static const char *matches(const char *path)
{
	return matches_in(&fixture, path);
}

/* "ADDRESS ..." of what maintainers__lists() says of @path */
static const char *lists_of(const char *path, bool catch_all)
{
	static char buf[1024];
	const struct maintainers_list **v;
	size_t nr, i, n = 0;

	assert_int_equal(maintainers__lists(&fixture, path, catch_all, &v, &nr), 0);
	buf[0] = '\0';
	for (i = 0; i < nr; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
			      i ? " " : "", v[i]->address);
	free(v);
	return buf;
}

/* get_maintainer.pl's answer: THE REST's lists when no owner has one */
static const char *lists(const char *path)
{
	return lists_of(path, true);
}

static const struct maintainers_section *section(const char *title)
{
	size_t i;

	for (i = 0; i < fixture.nr_sections; i++)
		if (!strcmp(fixture.sections[i].title, title))
			return &fixture.sections[i];
	fail_msg("no section %s", title);
	return NULL;
}

static int setup(void **state)
{
	int fd = mkstemp(tmp_path);

	if (fd < 0)
		return -1;
	close(fd);
	return load(&fixture, FIXTURE);
}

static int teardown(void **state)
{
	maintainers__release(&fixture);
	unlink(tmp_path);
	return 0;
}

/* The preamble is no section; each field lands where it belongs. */
static void test_sections_and_fields(void **state)
{
	const struct maintainers_section *s = &fixture.sections[0];

	assert_int_equal(fixture.nr_sections, 11);
	assert_string_equal(s->title, "ALPHA FRAMEWORK");
	assert_int_equal(s->line, 14);
	assert_int_equal(s->nr_maintainers, 2);
	assert_string_equal(s->maintainers[0], "Ann Alpha <ann@example.org>");
	assert_string_equal(s->maintainers[1],
			    "\"Bob B. Beta\" <bob@example.org>");
	assert_string_equal(s->status, "Maintained");
	assert_int_equal(s->nr_lists, 3);
	assert_string_equal(s->lists[0].address, "alpha@lists.example.org");
	assert_null(s->lists[0].note);
	assert_string_equal(s->lists[1].address,
			    "alpha-announce@lists.example.org");
	assert_string_equal(s->lists[1].note,
			    "(moderated for non-subscribers)");
	assert_false(s->lists[1].subscribers_only);
	assert_true(s->lists[2].subscribers_only);
	assert_int_equal(s->nr_files, 2);
	assert_string_equal(s->files[0], "drivers/alpha/");
	assert_string_equal(s->files[1], "include/linux/alpha.h");
	assert_int_equal(s->nr_excludes, 1);
	assert_string_equal(s->excludes[0], "drivers/alpha/legacy/");
	assert_int_equal(s->nr_regexes, 0);

	s = section("TEGRA");
	assert_int_equal(s->nr_regexes, 2);
	assert_string_equal(s->regexes[1], "tegra(");
	assert_false(s->catch_all);
	s = &fixture.sections[fixture.nr_sections - 1];
	assert_string_equal(s->title, "THE REST");
	assert_true(s->catch_all);
}

/* The N: that PCRE2 refuses is reported, once, and left out. */
static void test_bad_regex_is_reported(void **state)
{
	struct maintainers m;

	assert_int_equal(load(&m, FIXTURE), 0);
	assert_int_equal(messages, 1);
	assert_non_null(strstr(last_message, FIXTURE ":78: N: 'tegra(' is not a regular expression ("));
	assert_non_null(strstr(last_message, "): ignored"));
	maintainers__release(&m);
	/* the other N: of the section still holds */
	assert_string_equal(matches("drivers/soc/tegra/pmc.c"), "TEGRA 0");
}

/*
 * N: is Perl's syntax, searched within limits: "a{1,32767}" (40 s and
 * 8 GB in regcomp()) is a pattern like any other; "(a*)*\\1b", which
 * backtracks for ever on a path of a's with a 'b' after a 'c' (regexec()
 * took 24 s on 200 of them), gives up with a warning, and is not tried
 * again: "b" then owns no section by it.
 */
static void test_regex_limits(void **state)
{
	static const char text[] =
		"BIG\n"
		"N:\ta{1,32767}\n"
		"BACK\n"
		"N:\t(a*)*\\1b\n"
		"PERL\n"
		"N:\t^ \\d+ (?=/) / [.]c  # Perl's /x: blanks and comments\n"
		"TOO BIG\n"
		"N:\ta{1,65536}\n";
	static const char path[] =
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac/b.c";
	kabi_print_fn_t old;
	struct maintainers m;
	char want[1024];

	assert_int_equal(load_text(&m, text, sizeof(text) - 1), 0);
	assert_int_equal(messages, 1);
	snprintf(want, sizeof(want), "%s:8: N: 'a{1,65536}' is not a regular expression (number too big in {} quantifier at offset 9): ignored",
		 tmp_path);
	assert_string_equal(last_message, want);

	old = kabi_set_print(capture);
	messages = 0;
	assert_string_equal(matches_in(&m, "fs/a.c"), "BIG 0");
	assert_string_equal(matches_in(&m, "b"), "BACK 0");
	assert_string_equal(matches_in(&m, "42/x.c"), "");
	assert_string_equal(matches_in(&m, "42/.c"), "PERL 0");
	assert_int_equal(messages, 0);
	assert_string_equal(matches_in(&m, path), "BIG 0");
	assert_int_equal(messages, 1);
	snprintf(want, sizeof(want), "%s:4: N: '(a*)*\\1b' gave up on '%s' (match limit exceeded): ignored from here on",
		 tmp_path, path);
	assert_string_equal(last_message, want);
	/* from here on, BACK's N: matches nothing, and says nothing more */
	assert_string_equal(matches_in(&m, path), "BIG 0");
	assert_string_equal(matches_in(&m, "b"), "");
	assert_int_equal(messages, 1);
	kabi_set_print(old);
	maintainers__release(&m);
}

static void test_trailing_slash_takes_all_below(void **state)
{
	assert_string_equal(matches("drivers/alpha/core.c"),
			    "ALPHA FRAMEWORK 2");
	assert_string_equal(matches("drivers/alpha/sub/deep/x.c"),
			    "ALPHA FRAMEWORK 2");
	assert_string_equal(matches("drivers/alphabet.c"), "THE REST -1");
}

/* The deeper pattern first; equal ranks in file order. */
static void test_most_specific_first(void **state)
{
	assert_string_equal(matches("drivers/alpha/gadget.c"),
			    "ALPHA GADGET DRIVER 3, ALPHA GADGET HELPERS 3, ALPHA FRAMEWORK 2");
	assert_string_equal(matches("drivers/alpha/gadget-usb.c"),
			    "ALPHA GADGET HELPERS 3, ALPHA FRAMEWORK 2");
	/* an F: and an N: of two sections: the N: ranks 0 */
	assert_string_equal(matches("drivers/alpha/tegra.c"),
			    "ALPHA FRAMEWORK 2, TEGRA 0");
}

static void test_exclude_takes_the_section_off(void **state)
{
	assert_string_equal(matches("drivers/alpha/legacy/old.c"),
			    "ALPHA LEGACY 3");
	assert_string_equal(matches("drivers/alpha/legacy/sub/x.c"),
			    "ALPHA LEGACY 3");
}

/* "drivers/net/" "*": the files in drivers/net, not below. */
static void test_star_does_not_cross_a_slash(void **state)
{
	assert_string_equal(matches("drivers/net/loopback.c"),
			    "NET DRIVERS 3, ANY TOP-LEVEL NET -1");
	assert_string_equal(matches("drivers/net/wireless/ath.c"),
			    "THE REST -1");
	assert_string_equal(matches("fs/net/x.c"), "ANY TOP-LEVEL NET -1");
	assert_string_equal(matches("a/b/net/x.c"), "THE REST -1");
	assert_string_equal(matches("drivers/net/phy/phylink.c"),
			    "NET DRIVERS 4");
	assert_string_equal(matches("drivers/net/phy/phylink.h"),
			    "NET DRIVERS 4");
	assert_string_equal(matches("drivers/net/phy/phylink.o"),
			    "THE REST -1");
}

/* As in the script, a pattern takes the names it begins. */
static void test_pattern_is_a_prefix_of_the_name(void **state)
{
	assert_string_equal(matches("include/linux/alpha.h"),
			    "ALPHA FRAMEWORK 3");
	assert_string_equal(matches("include/linux/alpha.hpp"),
			    "ALPHA FRAMEWORK 3");
	assert_string_equal(matches("include/linux/alpha/x.h"),
			    "THE REST -1");
}

/* A path below "F: drivers/widget" proves it a directory. */
static void test_directory_without_its_slash(void **state)
{
	assert_string_equal(matches("drivers/widget/core.c"), "WIDGET 2");
	assert_string_equal(matches("drivers/widget/a/b.c"), "WIDGET 2");
	assert_string_equal(matches("drivers/widget.c"), "WIDGET 2");
	assert_string_equal(matches("drivers/widgetry/x.c"), "THE REST -1");
}

static void test_regex_is_searched_in_the_path(void **state)
{
	assert_string_equal(matches("drivers/soc/tegra/pmc.c"), "TEGRA 0");
	assert_string_equal(matches("arch/arm/mach-tegra.c"), "TEGRA 0");
	assert_string_equal(matches("drivers/integrator.c"), "THE REST -1");
}

/* THE REST owns what nothing else does, and only that. */
static void test_the_rest_is_the_last_resort(void **state)
{
	assert_string_equal(matches("README"), "THE REST -1");
	assert_string_equal(matches("kernel/fork.c"), "THE REST -1");
	assert_string_equal(matches("./kernel/fork.c"), "THE REST -1");
	assert_string_equal(matches("./drivers/alpha/core.c"),
			    "ALPHA FRAMEWORK 2");
	assert_string_equal(matches("lib/helper.c"), "LIB HELPER 2");
}

static void test_lists(void **state)
{
	/* both sections of the first rank, each address once */
	assert_string_equal(lists("drivers/alpha/gadget.c"),
			    "gadget@lists.example.org alpha@lists.example.org helpers@lists.example.org");
	/* a moderated list is one, a subscribers-only one is not */
	assert_string_equal(lists("drivers/alpha/core.c"),
			    "alpha@lists.example.org alpha-announce@lists.example.org");
	/* ALPHA QUIET has no list: the next rank's */
	assert_string_equal(lists("drivers/alpha/quiet.c"),
			    "alpha@lists.example.org alpha-announce@lists.example.org");
	/* no owner has a list: THE REST's */
	assert_string_equal(lists("lib/helper.c"),
			    "linux-kernel@vger.kernel.org");
	assert_string_equal(lists("README"), "linux-kernel@vger.kernel.org");
	assert_string_equal(lists("drivers/net/loopback.c"),
			    "netdev@lists.example.org");
	/* without the catch-all: no list where only THE REST has one */
	assert_string_equal(lists_of("lib/helper.c", false), "");
	assert_string_equal(lists_of("README", false), "");
	assert_string_equal(lists_of("drivers/alpha/quiet.c", false),
			    "alpha@lists.example.org alpha-announce@lists.example.org");
}

static void test_errors(void **state)
{
	static const char preamble[] = "List of maintainers\n\n"
				       "\tM: *Mail* patches to: FullName\n";
	struct maintainers m;

	assert_int_equal(load(&m, SRCDIR "/tests/fixtures/maintainers/nope"),
			 -ENOENT);
	assert_string_equal(last_message, SRCDIR "/tests/fixtures/maintainers/nope: No such file or directory");
	assert_null(m.sections);
	maintainers__release(&m);

	assert_int_equal(load(&m, SRCDIR "/tests/fixtures/maintainers"),
			 -EISDIR);
	assert_int_equal(load_text(&m, "", 0), -EINVAL);
	assert_int_equal(load_text(&m, preamble, sizeof(preamble) - 1),
			 -EINVAL);
	assert_int_equal(messages, 1);
	assert_string_equal(last_message + strlen(tmp_path),
			    ": not a MAINTAINERS file");
	maintainers__release(&m);
}

/* What a kernel tree's file might hold, tolerated. */
static void test_odd_lines(void **state)
{
	static const char text[] =
		"F:\tbefore/any/title/\n"	/* no section to go to */
		"FIRST\r\n"
		"L:\tfirst@example.org\r\n"
		"F:\tfirst/\r\n"
		"a wrapped\n"
		"SECOND   \n"			/* the last line is the title */
		"F:     spaced/   \n"		/* blanks, not a tab */
		"L:\n"				/* no value */
		"F:\t\n"
		"L:\t<>\n"			/* no address */
		"  # an indented comment\n"
		"L:\tSome Team <team@example.org>\n"
		"f:\tlower/\n"			/* not a field: a title */
		"N:\tlower\n"
		"THIRD\n"
		"M:\tNul \0Byte <nul@example.org>\n"
		"S:\tfirst status\n"
		"S:\tsecond status\n"
		"F:\tlast/file";		/* no newline at the end */
	struct maintainers m;
	const struct maintainers_section *s;

	assert_int_equal(load_text(&m, text, sizeof(text) - 1), 0);
	assert_int_equal(messages, 0);
	assert_int_equal(m.nr_sections, 4);
	s = &m.sections[0];
	assert_string_equal(s->title, "FIRST");
	assert_string_equal(s->lists[0].address, "first@example.org");
	assert_string_equal(s->files[0], "first/");
	s = &m.sections[1];
	assert_string_equal(s->title, "SECOND");
	assert_int_equal(s->line, 6);
	assert_int_equal(s->nr_files, 1);
	assert_string_equal(s->files[0], "spaced/");
	assert_int_equal(s->nr_lists, 1);
	assert_string_equal(s->lists[0].address, "team@example.org");
	assert_string_equal(s->lists[0].note, "Some Team");
	s = &m.sections[2];
	assert_string_equal(s->title, "f:\tlower/");
	assert_string_equal(s->regexes[0], "lower");
	s = &m.sections[3];
	assert_string_equal(s->maintainers[0], "Nul");
	assert_string_equal(s->status, "first status");
	assert_string_equal(s->files[0], "last/file");
	maintainers__release(&m);
	maintainers__release(&m);	/* a second time: nothing */
}

/*
 * Every prefix of the fixture loads or is "not a MAINTAINERS file", never
 * worse, and looks up without error; a longer prefix never has fewer
 * sections.  (Run under ASan too, as all unit tests are.)
 */
static void test_every_truncation(void **state)
{
	static const char *const paths[] = {
		"drivers/alpha/gadget.c", "drivers/net/phy/phy.c", "README",
		"drivers/soc/tegra/pmc.c", "drivers/widget/x.c",
	};
	const struct maintainers_list **l;
	struct maintainers_match *v;
	size_t len, cut, before = 0, nr, i;
	char *text;
	struct maintainers m;

	assert_int_equal(read_file(FIXTURE, SMALL_FILE_MAX, &text, &len), 0);
	for (cut = 0; cut <= len; cut++) {
		int err = load_text(&m, text, cut);

		if (err) {
			assert_int_equal(err, -EINVAL);
			assert_int_equal(before, 0);
			continue;
		}
		assert_true(m.nr_sections >= before);
		before = m.nr_sections;
		for (i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
			assert_int_equal(maintainers__match(&m, paths[i], &v, &nr), 0);
			free(v);
			assert_int_equal(maintainers__lists(&m, paths[i], true, &l, &nr), 0);
			free(l);
		}
		maintainers__release(&m);
	}
	assert_int_equal(before, fixture.nr_sections);
	free(text);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_and_fields),
		cmocka_unit_test(test_bad_regex_is_reported),
		cmocka_unit_test(test_regex_limits),
		cmocka_unit_test(test_trailing_slash_takes_all_below),
		cmocka_unit_test(test_most_specific_first),
		cmocka_unit_test(test_exclude_takes_the_section_off),
		cmocka_unit_test(test_star_does_not_cross_a_slash),
		cmocka_unit_test(test_pattern_is_a_prefix_of_the_name),
		cmocka_unit_test(test_directory_without_its_slash),
		cmocka_unit_test(test_regex_is_searched_in_the_path),
		cmocka_unit_test(test_the_rest_is_the_last_resort),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_odd_lines),
		cmocka_unit_test(test_every_truncation),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
