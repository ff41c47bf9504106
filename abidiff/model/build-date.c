// SPDX-License-Identifier: GPL-2.0-only
/*
 * The date a kernel was built, read from its UTS_VERSION: the date that
 * the removal dates its documentation announces are judged against.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "model.h"

static bool is_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int date__parse(const char *text, int *months)
{
	static const int days[12] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	int i, year, month, day;

	/* a NUL before the tenth character fails its test */
	for (i = 0; i < BUILD_DATE_SIZE - 1; i++)
		if (i == 4 || i == 7 ? text[i] != '-' :
		    !isdigit((unsigned char)text[i]))
			return -EINVAL;
	if (text[BUILD_DATE_SIZE - 1])
		return -EINVAL;
	year = strtol(text, NULL, 10);
	month = strtol(text + 5, NULL, 10);
	day = strtol(text + 8, NULL, 10);
	if (!year || month < 1 || month > 12 || day < 1 ||
	    day > days[month - 1] || (month == 2 && day == 29 && !is_leap(year)))
		return -EINVAL;
	if (months)
		*months = year * 12 + month - 1;
	return 0;
}

/* @year, @month and @day into @out when they make a date; 0 or -EINVAL. */
static int format_date(int year, int month, int day,
		       char out[BUILD_DATE_SIZE])
{
	char text[BUILD_DATE_SIZE];

	if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 ||
	    day > 31)
		return -EINVAL;
	snprintf(text, sizeof(text), "%04d-%02d-%02d", year, month, day);
	if (date__parse(text, NULL))
		return -EINVAL;
	memcpy(out, text, sizeof(text));
	return 0;
}

/*
 * "(2025-01-02)": Debian's KBUILD_BUILD_TIMESTAMP ends with the date of
 * its changelog entry; any timestamp spelt the ISO way has it too.  The
 * last such date that is no part of a longer word.
 */
static int iso_date(const char *version, char out[BUILD_DATE_SIZE])
{
	size_t len = strlen(version), i;
	char text[BUILD_DATE_SIZE];
	int err = -ENOENT;

	for (i = 0; i + BUILD_DATE_SIZE - 1 <= len; i++) {
		const char *p = version + i;

		if ((i && isalnum((unsigned char)p[-1])) ||
		    isalnum((unsigned char)p[BUILD_DATE_SIZE - 1]))
			continue;
		memcpy(text, p, BUILD_DATE_SIZE - 1);
		text[BUILD_DATE_SIZE - 1] = '\0';
		if (!date__parse(text, NULL)) {
			memcpy(out, text, sizeof(text));
			err = 0;
		}
	}
	return err;
}

struct word {
	const char *p;
	size_t len;
};

/* The words of @s between blanks and commas, the first @max of them. */
static size_t split_words(const char *s, struct word *w, size_t max)
{
	size_t n = 0;

	while (n < max) {
		s += strspn(s, " \t,");
		if (!*s)
			break;
		w[n].p = s;
		w[n].len = strcspn(s, " \t,");
		s += w[n++].len;
	}
	return n;
}

/* "Jan" is 1, ..., "Dec" 12, as date(1) writes them in the C locale; or 0. */
static int month_of(const struct word *w)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int m;

	for (m = 0; w->len == 3 && m < 12; m++)
		if (!memcmp(w->p, months + 3 * m, 3))
			return m + 1;
	return 0;
}

/* @w as a number of @min to @max digits, or -1. */
static int number_of(const struct word *w, size_t min, size_t max)
{
	size_t i;

	if (w->len < min || w->len > max)
		return -1;
	for (i = 0; i < w->len; i++)
		if (!isdigit((unsigned char)w->p[i]))
			return -1;
	return strtol(w->p, NULL, 10);
}

/*
 * A timestamp in words: kbuild's UTS_VERSION ends with date(1)'s
 * "Thu Jan  2 12:00:00 UTC 2025", the day after the month; one made with
 * date -R (Arch Linux's) reads "Sat, 18 Jan 2025 02:26:57 +0000", the day
 * before it.  The year is the first four-digit word after the month.  The
 * last month that makes a date with them.
 */
static int written_date(const char *version, char out[BUILD_DATE_SIZE])
{
	struct word w[64];
	size_t n = split_words(version, w, ARRAY_SIZE(w)), i, k;
	int err = -ENOENT;

	for (i = 0; i < n; i++) {
		int month = month_of(&w[i]), day = -1, year = -1;

		if (!month)
			continue;
		if (i + 1 < n)
			day = number_of(&w[i + 1], 1, 2);
		if (day < 0 && i > 0)
			day = number_of(&w[i - 1], 1, 2);
		for (k = i + 1; year < 0 && k < n; k++)
			year = number_of(&w[k], 4, 4);
		if (!format_date(year, month, day, out))
			err = 0;
	}
	return err;
}

int build_date__from_version(const char *version, char out[BUILD_DATE_SIZE])
{
	if (!iso_date(version, out))
		return 0;
	return written_date(version, out);
}
