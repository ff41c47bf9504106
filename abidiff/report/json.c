// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report, specified by docs/report.schema.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "model/jstr.h"
#include "report.h"


/* A string, or JSON null for an absent one. */
static json_t *jstr_or_null(const char *s)
{
	return s ? jstr__new(s) : json_null();
}

static json_t *kernel_json(const struct snapshot *s, const char *name)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", jstr_or_null(name),
			 "release", jstr_or_null(s->kernel.release),
			 "version", jstr_or_null(s->kernel.version),
			 "build_id", jstr_or_null(s->kernel.build_id),
			 "git", jstr_or_null(s->kernel.git),
			 "machine", jstr_or_null(s->machine.profile));
}

static json_t *doc_json(const struct doc_entry *d)
{
	if (!d)
		return json_null();
	return json_pack("{s:s, s:o, s:i, s:o, s:o, s:o}",
			 "source", doc_source__name(d->source),
			 "file", jstr__new(d->file),
			 "line", d->line,
			 "what", jstr_or_null(d->nr_what ? d->what[0] : NULL),
			 "contact", jstr_or_null(d->contact),
			 "users", jstr_or_null(d->users));
}

static json_t *waiver_json(const struct judgement *j, const struct waiver *w)
{
	if (!w)
		return json_null();
	return json_pack("{s:o, s:i, s:o}", "file", jstr__new(j->waivers->file),
			 "line", w->line, "reason", jstr__new(w->reason));
}

/* A group's instances, all of them; NULL (ENOMEM). */
static json_t *instances_json(const struct change *c)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < c->nr_instances; i++) {
		if (json_array_append_new(arr, jstr__new(c->instances[i]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* Whom to tell about a finding: [{"address", "why"}...]; NULL (ENOMEM). */
static json_t *notify_json(const struct finding_notices *to)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < to->nr; i++) {
		if (json_array_append_new(arr, json_pack("{s:o, s:o}",
							 "address", jstr__new(to->v[i].address),
							 "why", jstr__new(to->v[i].why)))) {
			json_decref(arr);
			arr = NULL;
		}
	}
	return arr;
}

/* Finding @f of @j, @to whom to tell about it. */
static json_t *finding_json(const struct judgement *j, const struct finding *f,
			    const struct finding_notices *to)
{
	const struct change *c = f->change;
	json_t *obj;

	obj = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
			 "verdict", verdict__name(f->verdict),
			 "level", abi_level__name(f->level),
			 "kind", change_kind__name(c->kind),
			 "class", change_class__name(change_kind__class(c->kind)),
			 "subject", jstr__new(c->subject),
			 "old", jstr_or_null(c->old), "new", jstr_or_null(c->new),
			 "doc", doc_json(f->doc),
			 "declared_in", jstr_or_null(to->declared_in),
			 "notify", notify_json(to),
			 "removal_ahead", f->removal_ahead,
			 "waiver", waiver_json(j, f->waiver));
	/* only on a change about several nodes, see report.schema.json */
	if (obj && c->nr_instances &&
	    json_object_set_new(obj, "instances", instances_json(c))) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *unused_waivers_json(const struct judgement *j)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && j->waivers && i < j->waivers->nr; i++) {
		const struct waiver *w = &j->waivers->v[i];

		if (!w->matched &&
		    json_array_append_new(arr, json_pack("{s:o, s:i, s:o}",
							 "file", jstr__new(j->waivers->file),
							 "line", w->line,
							 "subject", jstr__new(w->pattern)))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *compared_json(const struct diff *d)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; arr && i < PART_COUNT; i++) {
		if (d->compared[i] && json_array_append_new(arr, json_string(change_part__name(i)))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *parts_json(unsigned int parts)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; arr && i < PART_COUNT; i++) {
		if ((parts & 1u << i) &&
		    json_array_append_new(arr, json_string(change_part__name(i)))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* What the report leaves out, so that a reader knows it was narrowed. */
static json_t *filter_json(const struct judgement *j,
			   const struct report_filter *f)
{
	return json_pack("{s:s, s:o, s:b, s:I, s:I}",
			 "verdict", verdict__name(f->verdict),
			 "only", f->parts ? parts_json(f->parts) : json_null(),
			 "stat", f->stat,
			 "shown", (json_int_t)j->nr,
			 "total", (json_int_t)report_total(j));
}

static json_t *stat_json(const struct judgement *j)
{
	struct report_stat_row *rows;
	json_t *arr;
	size_t i, nr;

	if (report_stat(j, &rows, &nr))
		return NULL;
	arr = json_array();
	for (i = 0; arr && i < nr; i++) {
		const struct report_stat_row *r = &rows[i];

		if (json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:b, s:I}",
							 "part", change_part__name(change_kind__part(r->kind)),
							 "kind", change_kind__name(r->kind),
							 "level", abi_level__name(r->level),
							 "verdict", verdict__name(r->verdict),
							 "waived", r->waived,
							 "count", (json_int_t)r->count))) {
			json_decref(arr);
			arr = NULL;
		}
	}
	free(rows);
	return arr;
}

static json_t *report_json(const struct judgement *j,
			   const struct report_filter *filter,
			   const struct notify *n)
{
	bool stat = filter && filter->stat;
	json_t *findings = json_array(), *root;
	size_t i;

	for (i = 0; !stat && findings && i < j->nr; i++) {
		json_t *f = finding_json(j, &j->v[i], &n->findings[i]);

		if (json_array_append_new(findings, f)) {
			json_decref(findings);
			return NULL;
		}
	}
	if (!findings)
		return NULL;
	root = json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:I, s:I, s:I, s:I}, s:o, s:o}",
			 "format", REPORT_FORMAT, "version", REPORT_VERSION,
			 "old", kernel_json(j->old, j->old_name),
			 "new", kernel_json(j->new, j->new_name),
			 "compared", compared_json(j->diff),
			 "policy", jstr_or_null(j->policy_file),
			 "waivers", jstr_or_null(j->waivers ? j->waivers->file : NULL),
			 "maintainers", jstr_or_null(j->maintainers_file),
			 "summary",
			 "break", (json_int_t)j->count[VERDICT_BREAK],
			 "warn", (json_int_t)j->count[VERDICT_WARN],
			 "note", (json_int_t)j->count[VERDICT_NOTE],
			 "waived", (json_int_t)j->waived,
			 "findings", findings,
			 "unused_waivers", unused_waivers_json(j));
	/* only on a narrowed report, see report.schema.json */
	if (root && (report_filter__narrows(filter) || stat) &&
	    json_object_set_new(root, "filter", filter_json(j, filter))) {
		json_decref(root);
		return NULL;
	}
	if (root && stat && json_object_set_new(root, "stat", stat_json(j))) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int show_report_json(const struct judgement *j,
		     const struct report_filter *filter,
		     const struct notify *n, FILE *out)
{
	json_t *root = report_json(j, filter, n);
	int err = !root || json_dumpf(root, out, JSON_INDENT(2)) ||
		  fputc('\n', out) == EOF;

	json_decref(root);
	return err ? -EIO : 0;
}
