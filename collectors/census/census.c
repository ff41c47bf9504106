// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "lib/print.h"
#include "census.h"
#include "collect.h"

/* Where the hwmon core puts the attributes it makes: its class's devices. */
#define HWMON_DIR	"/sys/class/hwmon/hwmon*"

struct census *census__new(struct snapshot *s)
{
	struct census *c = calloc(1, sizeof(*c));

	if (c) {
		c->s = s;
		s->census.collected = true;
	}
	return c;
}

void census__free(struct census *c)
{
	size_t i, j;

	if (!c)
		return;
	for (i = 0; i < HWMON_TYPES_MAX; i++)
		for (j = 0; j < HWMON_ATTRS_MAX; j++)
			free(c->hwmon_templates[i][j]);
	for (i = 0; i < c->nr_channels; i++) {
		free(c->channels[i].module);
		free(c->channels[i].file);
		free(c->channels[i].symbol);
	}
	free(c->channels);
	free(c);
}

void census_module_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	for (i = 0; i < n && i + 1 < size; i++)
		buf[i] = base[i] == '-' ? '_' : base[i];
	if (size)
		buf[i] = '\0';
}

int census__add(struct census *c, const char *module, unsigned char *buf,
		size_t size, const char *origin)
{
	struct image im;
	Dwarf *dw;
	int err = image__open(&im, buf, size, origin);

	if (!err)
		err = snapshot__add_census_module(c->s, module);
	if (!err) {
		dw = dwarf_begin_elf(im.elf, DWARF_C_READ, NULL);
		if (dw) {
			err = scan_image(c, &im, dw, module);
			dwarf_end(dw);
		} else {
			pr_debug("%s: no DWARF, so no attributes", origin);
		}
	}
	image__release(&im);
	return err;
}

/*
 * The name the hwmon core gives attribute @attr of @type's channel
 * @channel: its template, with the channel's number for the "%d", which
 * counts from 0 for voltages and intrusions and from 1 for the rest
 * (hwmon_attr_base()).  A template is the image's data, so it is never
 * used as a format: one with another conversion gives no name (NULL in
 * *@out).  Returns 0 or -ENOMEM.
 */
static int hwmon_name(const char *template, uint32_t channel, char **out)
{
	const char *d = strstr(template, "%d");
	unsigned int base = 1;

	*out = NULL;
	if (!d) {
		/* another conversion: a template this code does not know */
		if (strchr(template, '%'))
			return 0;
		*out = strdup(template);
		return *out ? 0 : -ENOMEM;
	}
	if (strchr(d + 2, '%') || memchr(template, '%', d - template))
		return 0;
	if ((d - template == 2 && !strncmp(template, "in", 2)) ||
	    (d - template == 9 && !strncmp(template, "intrusion", 9)))
		base = 0;
	if (asprintf(out, "%.*s%u%s", (int)(d - template), template,
		     channel + base, d + 2) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int add_hwmon(struct census *c, const struct hwmon_channel *hc,
		     const char *template)
{
	struct census_attr a = {
		.module = hc->module, .file = hc->file, .symbol = hc->symbol,
		.kind = CENSUS_HWMON, .type = (char *)"struct hwmon_chip_info",
		.mode_at_run_time = true,
	};
	int err;

	err = hwmon_name(template, hc->channel, &a.name);
	if (err || !a.name)
		return err;
	if (asprintf(&a.path, HWMON_DIR "/%s", a.name) < 0)
		a.path = NULL;
	err = a.path && census_add_attr(c, &a) ? 0 : -ENOMEM;
	free(a.name);
	free(a.path);
	return err;
}

/*
 * Two objects of one key are one attribute seen twice: a static one of a
 * header, in each unit that includes it.  Keep the first, with what the
 * others add.
 */
static void drop_duplicates(struct snapshot *s)
{
	struct census_attr *v = s->census.v;
	size_t i, kept = 0;

	/* qsort() of NULL, which a census without attributes has, is undefined */
	if (!s->census.nr)
		return;
	qsort(v, s->census.nr, sizeof(*v), census_attr__cmp);
	for (i = 0; i < s->census.nr; i++) {
		if (kept && !census_attr__cmp(&v[kept - 1], &v[i])) {
			v[kept - 1].grouped |= v[i].grouped;
			v[kept - 1].mode_at_run_time |= v[i].mode_at_run_time;
			if (!v[kept - 1].path) {
				v[kept - 1].path = v[i].path;
				v[i].path = NULL;
			}
			census_attr__clear(&v[i]);
			continue;
		}
		v[kept++] = v[i];
	}
	s->census.nr = kept;
}

int census__finish(struct census *c)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < c->nr_channels; i++) {
		const struct hwmon_channel *hc = &c->channels[i];
		uint32_t bit;

		for (bit = 0; !err && bit < HWMON_ATTRS_MAX; bit++) {
			const char *t = hc->type < HWMON_TYPES_MAX ?
					c->hwmon_templates[hc->type][bit] : NULL;

			if (t && (hc->flags & (1U << bit)))
				err = add_hwmon(c, hc, t);
		}
	}
	if (!err)
		drop_duplicates(c->s);
	return err;
}
