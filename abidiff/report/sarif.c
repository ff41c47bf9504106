// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SARIF report (OASIS SARIF 2.1.0), for code-scanning annotations: one
 * run of the tool kabidiff whose rules are the change kinds, one result per
 * finding, of level error (break), warning (warn) or note (note), located
 * at the Documentation/ABI entry that judged it when there is one, and
 * always named by its subject as a logical location.  A waived finding
 * carries an external suppression with the waiver's reason.
 *
 * Strings are byte strings spelt as in the JSON report (model/jstr.h); a
 * URI is the doc file's path with every byte but the unreserved ones and
 * '/' percent-encoded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/bytes.h"
#include "model/jstr.h"
#include "report.h"

#define SARIF_SCHEMA \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

static const char * const sarif_level[VERDICT_COUNT] = {
	[VERDICT_BREAK] = "error", [VERDICT_WARN] = "warning",
	[VERDICT_NOTE] = "note",
};

/* SARIF's logicalLocation.kind for a part's subjects. */
static const char *logical_kind(const struct change *c)
{
	switch (change_kind__part(c->kind)) {
	case PART_SYSCALLS:
	case PART_VDSO:
		return "function";
	case PART_TYPES:
		return strchr(c->subject, '.') ? "member" : "type";
	default:
		return "resource";
	}
}

/* The path of @d's file from the tree's top, percent-encoded; NULL (ENOMEM). */
static char *doc_uri(const struct doc_entry *d)
{
	const char *prefix = doc_entry__dir(d), *file = d->file;
	size_t len = strlen(file), n = strlen(prefix);
	char *uri = malloc(n + 3 * len + 1);
	const unsigned char *p;

	if (!uri)
		return NULL;
	memcpy(uri, prefix, n);
	for (p = (const unsigned char *)file; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			uri[n++] = *p;
		else
			n += snprintf(uri + n, 4, "%%%02X", *p);
	}
	uri[n] = '\0';
	return uri;
}

static json_t *rules_json(void)
{
	json_t *arr = json_array();
	int kind;

	for (kind = 0; arr && kind < CHANGE_KIND_COUNT; kind++) {
		char text[128];

		snprintf(text, sizeof(text), "%s: a change of class %s in the %s part",
			 change_kind__name(kind),
			 change_class__name(change_kind__class(kind)),
			 change_part__name(change_kind__part(kind)));
		if (json_array_append_new(arr, json_pack("{s:s, s:{s:s}, s:{s:s, s:s}}",
							 "id", change_kind__name(kind),
							 "shortDescription", "text", text,
							 "properties",
							 "part", change_part__name(change_kind__part(kind)),
							 "class", change_class__name(change_kind__class(kind))))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* A string, or JSON null for an absent one. */
static json_t *jstr_or_null(const char *s)
{
	return s ? jstr__new(s) : json_null();
}

static json_t *location_json(const struct finding *f)
{
	const struct change *c = f->change;
	json_t *loc, *phys;
	char *uri;

	loc = json_pack("{s:[{s:o, s:s}]}", "logicalLocations",
			"fullyQualifiedName", jstr__new(c->subject),
			"kind", logical_kind(c));
	if (!loc || !f->doc)
		return loc;
	uri = doc_uri(f->doc);
	phys = uri ? json_pack("{s:{s:s}, s:{s:i}}", "artifactLocation", "uri", uri,
			       "region", "startLine", f->doc->line ? f->doc->line : 1) :
		     NULL;
	free(uri);
	if (json_object_set_new(loc, "physicalLocation", phys)) {
		json_decref(loc);
		return NULL;
	}
	return loc;
}

static json_t *result_json(const struct judgement *j, const struct finding *f)
{
	const struct change *c = f->change;
	char *text;
	json_t *res;

	text = xasprintf("%s: %s of the %s interface %s: %s -> %s%s",
			 verdict__name(f->verdict), change_kind__name(c->kind),
			 abi_level__name(f->level), c->subject,
			 c->old ? c->old : "(absent)", c->new ? c->new : "(absent)",
			 f->removal_ahead ?
			 " (removed before its announced date)" : "");
	if (!text)
		return NULL;
	res = json_pack("{s:s, s:i, s:s, s:{s:o}, s:[o], s:{s:s, s:s, s:o, s:o, s:o, s:o}}",
			"ruleId", change_kind__name(c->kind),
			"ruleIndex", (int)c->kind,
			"level", sarif_level[f->verdict],
			"message", "text", jstr__new(text),
			"locations", location_json(f),
			"properties",
			"verdict", verdict__name(f->verdict),
			"abiLevel", abi_level__name(f->level),
			"old", jstr_or_null(c->old), "new", jstr_or_null(c->new),
			"contact", jstr_or_null(f->doc ? f->doc->contact : NULL),
			"users", jstr_or_null(f->doc ? f->doc->users : NULL));
	free(text);
	if (res && f->waiver &&
	    json_object_set_new(res, "suppressions",
				json_pack("[{s:s, s:o, s:{s:o, s:i}}]",
					  "kind", "external",
					  "justification", jstr__new(f->waiver->reason),
					  "properties",
					  "file", jstr__new(j->waivers->file),
					  "line", (int)f->waiver->line))) {
		json_decref(res);
		return NULL;
	}
	return res;
}

/* The run's properties: both kernels, the parts, the counts, the filter. */
static json_t *run_properties(const struct judgement *j,
			      const struct report_filter *filter)
{
	char a[1024], b[1024], parts[128], rules[1024], narrowed[256];

	return json_pack("{s:o, s:o, s:s, s:o, s:{s:I, s:I, s:I, s:I}, s:o}",
			 "old", jstr__new(report_side_details(a, sizeof(a), j->old, j->old_name)),
			 "new", jstr__new(report_side_details(b, sizeof(b), j->new, j->new_name)),
			 "compared", report_parts(parts, sizeof(parts), j->diff),
			 "rules", jstr__new(report_rules(rules, sizeof(rules), j)),
			 "summary",
			 "break", (json_int_t)j->count[VERDICT_BREAK],
			 "warn", (json_int_t)j->count[VERDICT_WARN],
			 "note", (json_int_t)j->count[VERDICT_NOTE],
			 "waived", (json_int_t)j->waived,
			 "filter", report_filter__narrows(filter) ?
			 json_string(report_filter__describe(narrowed, sizeof(narrowed),
							     filter)) :
			 json_null());
}

int show_report_sarif(const struct judgement *j,
		      const struct report_filter *filter, FILE *out)
{
	json_t *results = json_array(), *root;
	size_t i;
	int err;

	for (i = 0; results && i < j->nr; i++) {
		if (json_array_append_new(results, result_json(j, &j->v[i]))) {
			json_decref(results);
			results = NULL;
		}
	}
	if (!results)
		return -ENOMEM;
	root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:o, s:o}]}",
			 "$schema", SARIF_SCHEMA, "version", "2.1.0",
			 "runs", "tool", "driver", "name", "kabidiff",
			 "version", KABIDIFF_VERSION,
			 "rules", rules_json(),
			 "results", results,
			 "properties", run_properties(j, filter));
	err = !root || json_dumpf(root, out, JSON_INDENT(2)) ||
	      fputc('\n', out) == EOF;
	json_decref(root);
	return err ? -EIO : 0;
}
