// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff show [--json] SNAPSHOT
 *
 * The text form summarises a snapshot: the kernel, counts per part (the
 * census's by kind, and the modules it read), the documentation entries
 * the live tree and the census observe, and the top-level sysfs
 * directories.  The JSON form re-emits the snapshot itself in
 * canonical form, so `show --json` of a canonical file reproduces it byte for
 * byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/observed.h"
#include "cli/options.h"
#include "cli/output.h"
#include "collectors/sysfs/machine.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "model/model.h"
#include "model/snapshot-json.h"

static const char show_usage[] =
	"Usage: kabidiff show [--json] [-o FILE] SNAPSHOT\n\n"
	"Summarise SNAPSHOT ('-': standard input): the kernel it describes, what\n"
	"each part holds, the documentation entries its live tree and its census\n"
	"observe, and the top-level sysfs directories.  With --json, print the\n"
	"snapshot itself as canonical JSON.\n\n"
	OUTPUT_HELP;

/* A top-level directory of the sysfs part ("/sys/kernel", "/proc/sys/vm"). */
struct top_dir {
	const char *path;	/* borrowed from the snapshot; only len bytes */
	size_t len;
	size_t nodes;
};

struct abi_count {
	const char *abi;	/* borrowed from the snapshot */
	size_t total;
	size_t implemented;
};

struct show_summary {
	const struct snapshot *s;
	struct abi_count *abis;
	size_t nr_abis;
	size_t types[TYPE_KIND_COUNT];
	size_t nodes[NODE_KIND_COUNT];
	size_t docs[LEVEL_COUNT];
	size_t census[CENSUS_KIND_COUNT];
	size_t census_modules;	/* modules with any attribute */
	struct doc_observed observed;	/* when there are docs */
	struct top_dir *dirs;
	size_t nr_dirs;
};

/*
 * The length of @path's top-level directory: the first component below the
 * tree the path lives in ("/proc/sys" or "/sys"), or the first component of
 * any other path.
 */
static size_t top_dir_len(const char *path)
{
	static const char *const roots[] = { "/proc/sys/", "/sys/", "/" };
	const char *rest, *slash;
	size_t i, root;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		root = strlen(roots[i]);
		if (!strncmp(path, roots[i], root))
			break;
	}
	if (i == ARRAY_SIZE(roots))
		return strlen(path);
	rest = path + root;
	slash = strchr(rest, '/');
	return slash ? (size_t)(slash - path) : strlen(path);
}

static int top_dir_cmp(const void *pa, const void *pb)
{
	const struct top_dir *a = pa, *b = pb;
	int c = memcmp(a->path, b->path, a->len < b->len ? a->len : b->len);

	if (c)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/* Count nodes per top-level directory: sort the prefixes, merge equal runs. */
static int count_top_dirs(struct show_summary *sum)
{
	const struct snapshot *s = sum->s;
	struct top_dir *dirs;
	size_t i, n = 0;

	if (!s->sysfs.nr)
		return 0;
	dirs = calloc(s->sysfs.nr, sizeof(*dirs));
	if (!dirs)
		return -1;
	for (i = 0; i < s->sysfs.nr; i++) {
		dirs[i].path = s->sysfs.v[i].path;
		dirs[i].len = top_dir_len(dirs[i].path);
	}
	qsort(dirs, s->sysfs.nr, sizeof(*dirs), top_dir_cmp);
	for (i = 0; i < s->sysfs.nr; i++) {
		if (n && !top_dir_cmp(&dirs[n - 1], &dirs[i])) {
			dirs[n - 1].nodes++;
			continue;
		}
		dirs[n] = dirs[i];
		dirs[n++].nodes = 1;
	}
	sum->dirs = dirs;
	sum->nr_dirs = n;
	return 0;
}

/*
 * The ABIs whose tables were collected, those the kernel lacks too.  Both
 * they and the syscalls are sorted by ABI, and each ABI's syscalls are one
 * run.
 */
static int count_abis(struct show_summary *sum)
{
	const struct snapshot *s = sum->s;
	const struct syscall *v = s->syscalls.v;
	size_t i, k = 0;

	if (!s->nr_syscall_abis)
		return 0;
	sum->abis = calloc(s->nr_syscall_abis, sizeof(*sum->abis));
	if (!sum->abis)
		return -1;
	sum->nr_abis = s->nr_syscall_abis;
	for (i = 0; i < sum->nr_abis; i++) {
		struct abi_count *c = &sum->abis[i];

		c->abi = s->syscall_abis[i];
		for (; k < s->syscalls.nr && !strcmp(v[k].abi, c->abi); k++) {
			c->total++;
			c->implemented += v[k].implemented;
		}
	}
	return 0;
}

static int summarise(const struct snapshot *s, struct show_summary *sum)
{
	size_t i;

	memset(sum, 0, sizeof(*sum));
	sum->s = s;
	for (i = 0; i < s->types.nr; i++)
		sum->types[s->types.v[i].kind]++;
	for (i = 0; i < s->sysfs.nr; i++)
		sum->nodes[s->sysfs.v[i].kind]++;
	for (i = 0; i < s->docs.nr; i++)
		sum->docs[s->docs.v[i].level]++;
	/* sorted by module: each module's attributes are one run */
	for (i = 0; i < s->census.nr; i++) {
		sum->census[s->census.v[i].kind]++;
		sum->census_modules += !i || strcmp(s->census.v[i - 1].module,
						    s->census.v[i].module);
	}
	if (count_abis(sum) || count_top_dirs(sum))
		return -1;
	if (s->docs.nr && doc_observed__run(&sum->observed, s, s, NULL))
		return -1;
	return 0;
}

static void summary__release(struct show_summary *sum)
{
	free(sum->abis);
	free(sum->dirs);
}

static void show_field(const char *label, const char *value)
{
	printf("%-12s", label);
	if (value)
		fputs_quoted(value, stdout);
	else
		fputs("(unknown)", stdout);
	putchar('\n');
}

/* ": 12 struct, 3 union": the non-zero counts of @counts, by @name. */
static void show_counts(const size_t *counts, size_t n,
			const char *(*name)(unsigned int))
{
	const char *sep = ": ";
	size_t i;

	for (i = 0; i < n; i++) {
		if (!counts[i])
			continue;
		printf("%s%zu %s", sep, counts[i], name(i));
		sep = ", ";
	}
}

/*
 * One line for a part: "label  N unit: 12 struct, 3 union" with the non-zero
 * counts of @counts, or that the part was not collected.
 */
static void show_part(const char *label, bool collected, size_t nr,
		      const char *unit, const size_t *counts, size_t n,
		      const char *(*name)(unsigned int))
{
	printf("%-12s", label);
	if (!collected) {
		puts("not collected");
		return;
	}
	printf("%zu%s", nr, unit);
	show_counts(counts, n, name);
	putchar('\n');
}

static const char *kind_name(unsigned int i)
{
	return type_kind__name(i);
}

static const char *node_name(unsigned int i)
{
	return node_kind__name(i);
}

static const char *level_name(unsigned int i)
{
	return abi_level__name(i);
}

static const char *census_name(unsigned int i)
{
	return census_kind__name(i);
}

static void show_syscalls(const struct show_summary *sum)
{
	size_t i;

	printf("%-12s", "syscalls");
	if (!sum->s->syscalls.collected)
		fputs("not collected", stdout);
	else if (!sum->nr_abis)
		putchar('0');
	for (i = 0; i < sum->nr_abis; i++) {
		printf("%s", i ? "; " : "");
		fputs_quoted(sum->abis[i].abi, stdout);
		if (sum->abis[i].total)
			printf(" %zu (%zu implemented)", sum->abis[i].total,
			       sum->abis[i].implemented);
		else
			fputs(" none", stdout);
	}
	putchar('\n');
}

/* The versions of the symbols v[first..end), each once, in order met. */
static void show_versions(const struct vdso_symbol *v, size_t first, size_t end)
{
	const char *sep = " (";
	size_t i, k;

	for (i = first; i < end; i++) {
		for (k = first; k < i; k++)
			if (!strcmp(v[k].version ?: "", v[i].version ?: ""))
				break;
		if (k < i)
			continue;
		fputs(sep, stdout);
		fputs_quoted(v[i].version ?: "no version", stdout);
		sep = ", ";
	}
	if (end > first)
		putchar(')');
}

/* "vdso32 6 symbols, 5 with prototypes (LINUX_2.6, LINUX_2.5); ..." */
static void show_vdso(const struct snapshot *s)
{
	const struct vdso_symbol *v = s->vdso.v;
	size_t i = 0, end, typed;

	printf("%-12s", "vdso");
	if (!s->vdso.collected)
		fputs("not collected", stdout);
	else if (!s->vdso.nr)
		putchar('0');
	for (; i < s->vdso.nr; i = end) {
		typed = 0;
		for (end = i; end < s->vdso.nr && !strcmp(v[end].image, v[i].image);
		     end++)
			typed += !!v[end].ret.type;
		printf("%s", i ? "; " : "");
		fputs_quoted(v[i].image, stdout);
		printf(" %zu symbol%s, %zu with prototypes", end - i,
		       end - i == 1 ? "" : "s", typed);
		show_versions(v, i, end);
	}
	putchar('\n');
}

/* "modules     44 loaded (14 for devices); failed: nvme ENODEV" */
static void show_modules(const struct machine *m)
{
	const char *sep = "; failed: ";
	size_t i, failed = 0, devices = 0;

	for (i = 0; i < m->nr_modules; i++) {
		failed += !!m->modules[i].error;
		devices += m->modules[i].how == MODULE_FOR_DEVICE;
	}
	printf("%-12s%zu loaded (%zu for devices)", "modules",
	       m->nr_modules - failed, devices);
	for (i = 0; i < m->nr_modules; i++) {
		if (!m->modules[i].error)
			continue;
		fputs(sep, stdout);
		fputs_quoted(m->modules[i].name, stdout);
		putchar(' ');
		fputs_quoted(m->modules[i].error, stdout);
		sep = ", ";
	}
	putchar('\n');
}

/* The machine of the sysfs part: its profile, and what that holds. */
static void show_machine(const struct machine *m)
{
	const struct machine_profile *p;

	printf("%-12s", "machine");
	if (!m->recorded) {
		puts("not recorded");
		return;
	}
	if (m->profile)
		fputs_quoted(m->profile, stdout);
	else
		fputs("(unknown)", stdout);
	p = m->profile ? machine_profile__find(m->profile) : NULL;
	if (p)
		printf(" (%s)", p->summary);
	putchar('\n');
	if (m->nr_modules)
		show_modules(m);
}

/* "census      12 attributes: 9 device, 3 hwmon; 40 modules read, 2 with attributes" */
static void show_census(const struct show_summary *sum)
{
	const struct snapshot *s = sum->s;

	printf("%-12s", "census");
	if (!s->census.collected) {
		puts("not collected");
		return;
	}
	printf("%zu attribute%s", s->census.nr, s->census.nr == 1 ? "" : "s");
	show_counts(sum->census, CENSUS_KIND_COUNT, census_name);
	printf("; %zu module%s read, %zu with attributes\n",
	       s->nr_census_modules, s->nr_census_modules == 1 ? "" : "s",
	       sum->census_modules);
}

static void show_coverage(const struct coverage *c)
{
	printf("%-12s", "coverage");
	if (c->computed && c->sysfs_nodes)
		printf("%llu of %llu nodes documented (%.1f%%)\n",
		       (unsigned long long)c->documented,
		       (unsigned long long)c->sysfs_nodes,
		       100.0 * c->documented / c->sysfs_nodes);
	else
		puts(c->computed ? "no sysfs nodes" : "not computed");
}

static void show_parts_text(const struct show_summary *sum)
{
	const struct snapshot *s = sum->s;

	show_syscalls(sum);
	show_vdso(s);
	show_part("types", s->types.collected, s->types.nr, "", sum->types,
		  TYPE_KIND_COUNT, kind_name);
	show_part("sysfs", s->sysfs.collected, s->sysfs.nr, " nodes",
		  sum->nodes, NODE_KIND_COUNT, node_name);
	show_machine(&s->machine);
	show_part("docs", s->docs.collected, s->docs.nr, " entries", sum->docs,
		  LEVEL_COUNT, level_name);
	show_coverage(&s->coverage);
	show_census(sum);
}

static void show_summary_text(const struct show_summary *sum)
{
	const struct kernel_ident *k = &sum->s->kernel;
	size_t i;

	show_field("kernel", k->release);
	show_field("version", k->version);
	show_field("build date", k->build_date);
	show_field("arch", k->arch);
	show_field("build id", k->build_id);
	show_field("git", k->git);
	show_field("collected", k->collected_by);
	putchar('\n');
	show_parts_text(sum);
	if (sum->s->docs.nr) {
		putchar('\n');
		show_observed_text(&sum->observed);
	}
	if (!sum->nr_dirs)
		return;
	printf("\n%8s  %s\n", "nodes", "top-level directory");
	for (i = 0; i < sum->nr_dirs; i++) {
		char *dir = strndup(sum->dirs[i].path, sum->dirs[i].len);

		printf("%8zu  ", sum->dirs[i].nodes);
		fputs_quoted(dir ? dir : "?", stdout);
		putchar('\n');
		free(dir);
	}
}

int do_show(int argc, char **argv)
{
	const struct cli_option options[] = {
		OPT_JSON(),
		OPT_OUTPUT(),
		OPT_END(),
	};
	struct show_summary sum;
	struct snapshot *s;
	int first, ret = EXIT_OK;

	first = parse_options("show", argc, argv, options, show_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (argc - first != 1)
		return usage_error("show", "show needs exactly one SNAPSHOT");

	s = snapshot__load(argv[first]);
	if (!s)
		return EXIT_TROUBLE;
	if (json_output) {
		if (snapshot__write(s, stdout))
			ret = EXIT_TROUBLE;
	} else {
		if (summarise(s, &sum)) {
			pr_err("out of memory");
			ret = EXIT_TROUBLE;
		} else {
			show_summary_text(&sum);
		}
		summary__release(&sum);
	}
	snapshot__free(s);
	return ret;
}
