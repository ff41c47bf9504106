// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for bytes.c (UTF-8, quoting) and jstr.c (bytes in JSON). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/bytes.h"
#include "model/jstr.h"

static size_t len_of(const char *s)
{
	return utf8_char_len((const unsigned char *)s, strlen(s));
}

static void test_utf8_char_len(void **state)
{
	assert_int_equal(len_of("a"), 1);
	assert_int_equal(len_of("\xc3\xa9"), 2);		/* é */
	assert_int_equal(len_of("\xe2\x82\xac"), 3);		/* € */
	assert_int_equal(len_of("\xf0\x9d\x84\x9e"), 4);	/* 𝄞 */
	assert_int_equal(len_of("\x80"), 0);		/* continuation */
	assert_int_equal(len_of("\xc3"), 0);		/* truncated */
	assert_int_equal(len_of("\xc0\xaf"), 0);		/* overlong '/' */
	assert_int_equal(len_of("\xe0\x80\xaf"), 0);	/* overlong '/' */
	assert_int_equal(len_of("\xed\xa0\x80"), 0);	/* surrogate */
	assert_int_equal(len_of("\xf4\x90\x80\x80"), 0);	/* > U+10FFFF */
	assert_int_equal(len_of("\xff"), 0);
	assert_int_equal(utf8_char_len((const unsigned char *)"", 0), 0);
}

static void test_quote_buf(void **state)
{
	char buf[32];

	assert_string_equal(quote_buf(buf, sizeof(buf), "/sys/a b"),
			    "\"/sys/a b\"");
	assert_string_equal(quote_buf(buf, sizeof(buf), "a\nb\t\"\\\x7f\xff"),
			    "\"a\\nb\\t\\\"\\\\\\x7f\\xff\"");
	assert_string_equal(quote_buf(buf, sizeof(buf), "caf\xc3\xa9"),
			    "\"caf\xc3\xa9\"");
	/* too long: cut, marked, still terminated and quoted */
	assert_string_equal(quote_buf(buf, 12, "/sys/devices/system"),
			    "\"/sys/d...\"");
	assert_string_equal(quote_buf(buf, 8, "\xff\xff\xff"), "\"...\"");
}

static void test_quote_needed(void **state)
{
	assert_false(quote_needed("/sys/kernel/mm"));
	assert_false(quote_needed("ünïcødé"));
	assert_true(quote_needed("a\nb"));
	assert_true(quote_needed("caf\xe9"));
	assert_true(quote_needed("a\\b"));
}

/* fputs_quoted_also(@s, @also) into a malloc()ed string */
static char *quoted_also(const char *s, const char *also)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_not_equal(fputs_quoted_also(s, also, f), EOF);
	assert_int_equal(fclose(f), 0);
	return out;
}

static void test_fputs_quoted_also(void **state)
{
	char *long_in = malloc(10001), *want = malloc(10006), *out;

	out = quoted_also("/sys/a b", "#");
	assert_string_equal(out, "/sys/a b");
	free(out);
	out = quoted_also("/sys/a#1", "#");
	assert_string_equal(out, "\"/sys/a\\x231\"");
	free(out);
	out = quoted_also("a#\n\xff", NULL);
	assert_string_equal(out, "\"a#\\n\\xff\"");
	free(out);
	/* written whole, however long: no buffer to cut it */
	assert_non_null(long_in);
	assert_non_null(want);
	memset(long_in, 'x', 10000);
	long_in[9990] = '#';
	long_in[10000] = '\0';
	out = quoted_also(long_in, "#");
	snprintf(want, 10006, "\"%.9990s\\x23%s\"", long_in, long_in + 9991);
	assert_string_equal(out, want);
	free(out);
	free(want);
	free(long_in);
}

/* Encode @in, decode the result, expect @in back and @json in between. */
static void round_trip(const char *in, const char *json)
{
	json_t *str = jstr__new(in);
	char *out = NULL;

	assert_non_null(str);
	if (json)
		assert_string_equal(json_string_value(str), json);
	assert_int_equal(jstr__decode(str, &out), 0);
	assert_string_equal(out, in);
	free(out);
	json_decref(str);
}

static void test_jstr_examples(void **state)
{
	round_trip("eth0", "eth0");
	round_trip("a b\nc", "a b\nc");
	round_trip("caf\xe9", "caf\\xe9");
	round_trip("by\\x2dlabel", "by\\\\x2dlabel");
	round_trip("\xed\xa0\x80", "\\xed\\xa0\\x80");
	round_trip("\xf0\x9d\x84\x9e", "\xf0\x9d\x84\x9e");
	round_trip("", "");
}

/* Every byte value but NUL, alone and in company, survives. */
static void test_jstr_every_byte(void **state)
{
	char s[4];
	int b;

	for (b = 1; b < 256; b++) {
		s[0] = b;
		s[1] = '\0';
		round_trip(s, NULL);
		s[0] = 'x';
		s[1] = b;
		s[2] = '\\';
		s[3] = '\0';
		round_trip(s, NULL);
	}
}

static void test_jstr_random(void **state)
{
	unsigned int seed = 42;
	char s[64];
	int i, j;

	for (i = 0; i < 20000; i++) {
		int len = rand_r(&seed) % (sizeof(s) - 1);

		for (j = 0; j < len; j++)
			s[j] = 1 + rand_r(&seed) % 255;
		s[len] = '\0';
		round_trip(s, NULL);
	}
}

static void expect_decode_error(const char *text)
{
	json_t *str = json_string(text);
	char *out = NULL;

	assert_non_null(str);
	assert_int_equal(jstr__decode(str, &out), -EINVAL);
	assert_null(out);
	json_decref(str);
}

static void test_jstr_bad_escapes(void **state)
{
	char *out;

	expect_decode_error("a\\");
	expect_decode_error("a\\q");
	expect_decode_error("\\x");
	expect_decode_error("\\x4");
	expect_decode_error("\\xg0");
	expect_decode_error("\\x00");
	assert_int_equal(jstr__decode_buf("a\0b", 3, &out), -EINVAL);
	/* upper-case hex is read, and a plain byte escaped is still that byte */
	assert_int_equal(jstr__decode_buf("\\xE9\\x41", 8, &out), 0);
	assert_string_equal(out, "\xe9\x41");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_char_len),
		cmocka_unit_test(test_quote_buf),
		cmocka_unit_test(test_quote_needed),
		cmocka_unit_test(test_fputs_quoted_also),
		cmocka_unit_test(test_jstr_examples),
		cmocka_unit_test(test_jstr_every_byte),
		cmocka_unit_test(test_jstr_random),
		cmocka_unit_test(test_jstr_bad_escapes),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
