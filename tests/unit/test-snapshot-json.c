// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for snapshot-json.c and atomic-file.c, and for the field tables
 * of snapshot-fields.h against docs/snapshot.schema.json.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "lib/compiler.h"
#include "lib/print.h"
#include "model/json-arena.h"
#include "model/model.h"
#include "model/snapshot-fields.h"
#include "model/snapshot-json.h"

#define FIXTURE(name) SRCDIR "/tests/fixtures/snapshots/" name
#define SCHEMA SRCDIR "/docs/snapshot.schema.json"

static char tmpdir[64];
static char last_message[512];

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
}

static char *tmp_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size + 1);
	assert_int_equal(fread(buf, 1, size, f), size);
	buf[size] = '\0';
	fclose(f);
	*len = size;
	return buf;
}

/* The file @name of the test directory, holding the text of @fmt: its path. */
static char *__printf(2, 3) write_tmp(const char *name, const char *fmt, ...)
{
	char *path = tmp_path(name);
	FILE *f = fopen(path, "w");
	va_list ap;

	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int count_dir_entries(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void remove_tmp_files(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(tmp_path(e->d_name));
	closedir(d);
}

static const struct sysfs_node *find_node(const struct snapshot *s,
					  const char *path)
{
	size_t i;

	for (i = 0; i < s->sysfs.nr; i++)
		if (!strcmp(s->sysfs.v[i].path, path))
			return &s->sysfs.v[i];
	return NULL;
}

static const struct type_def *find_type(const struct snapshot *s,
					const char *name)
{
	size_t i;

	for (i = 0; i < s->types.nr; i++)
		if (!strcmp(s->types.v[i].name, name))
			return &s->types.v[i];
	return NULL;
}

/* The fixture's values arrive in the model as the bytes they stand for. */
static void test_load_full(void **state)
{
	struct snapshot *s = snapshot__load(FIXTURE("full.json"));
	const struct sysfs_node *n;
	const struct type_def *t;

	assert_non_null(s);
	assert_string_equal(s->kernel.release, "6.1.0-kabi-test");
	assert_string_equal(s->kernel.build_date, "2026-01-10");
	assert_int_equal(s->syscalls.nr, 6);
	assert_string_equal(s->syscalls.v[0].abi, "ia32");
	assert_null(s->syscalls.v[0].args[0].name);
	assert_int_equal(s->syscalls.v[1].nr, 0);
	assert_int_equal(s->syscalls.v[1].sources, SYSCALL_SRC_ALL);
	assert_false(s->syscalls.v[4].implemented);
	/* x32 collected, and found empty */
	assert_int_equal(s->nr_syscall_abis, 3);
	assert_true(snapshot__has_syscall_abi(s, "x32"));
	assert_false(snapshot__has_syscall_abi(s, "x3"));
	/* a vDSO symbol with a prototype, one without */
	assert_int_equal(s->vdso.nr, 2);
	assert_null(s->vdso.v[0].ret.type);
	assert_int_equal(s->vdso.v[0].nr_args, 0);
	assert_string_equal(s->vdso.v[1].version, "LINUX_2.6");
	assert_string_equal(s->vdso.v[1].ret.type, "vdso64:long int");
	assert_string_equal(s->vdso.v[1].args[0].type, "vdso64:long int *");

	assert_non_null(find_node(s, "/sys/bus/event_source/devices/latin1-caf\xe9"));
	assert_non_null(find_node(s, "/sys/bus/event_source/devices/new\nline"));
	n = find_node(s, "/sys/bus/event_source/devices/back\\slash\\x2d");
	assert_non_null(n);
	assert_int_equal(n->kind, NODE_LINK);
	assert_string_equal(n->target, "../../../devices/tab\there \"quoted\"");
	n = find_node(s, "/sys/power/pm_test");
	assert_int_equal(n->value.shape, SHAPE_UNREADABLE);
	assert_string_equal(n->value.error, "EACCES");
	n = find_node(s, "/sys/fs/cgroup");
	assert_int_equal(n->mode, 01777);
	n = find_node(s, "/proc/sys/vm/drop_caches");
	assert_int_equal(n->value.shape, SHAPE_NONE);

	t = find_type(s, "enum signed_things");
	assert_int_equal(t->enumerators[1].value, INT64_MAX);
	assert_int_equal(t->enumerators[2].value, INT64_MIN);
	t = find_type(s, "struct flags");
	assert_true(t->members[2].bitfield);
	assert_int_equal(t->members[2].bit_offset, 8);
	assert_int_equal(t->members[2].bit_size, 24);
	assert_null(t->members[3].name);
	assert_true(find_type(s, "struct sock")->incomplete);
	assert_string_equal(find_type(s, "__kernel_timespec")->target,
			    "struct __kernel_timespec");
	/* the declaring file where the fixture gives one */
	assert_string_equal(s->syscalls.v[1].file, "fs/read_write.c");
	assert_null(s->syscalls.v[2].file);
	assert_string_equal(find_type(s, "struct stat")->file,
			    "arch/x86/include/uapi/asm/stat.h");
	assert_null(find_type(s, "struct epoll_event")->file);

	assert_int_equal(s->docs.nr, 7);
	assert_int_equal(s->docs.v[0].level, LEVEL_OBSOLETE);

	/* a module read without attributes; an attribute without a file */
	assert_true(s->census.collected);
	assert_int_equal(s->nr_census_modules, 3);
	assert_string_equal(s->census_modules[0], "e1000e");
	assert_int_equal(s->census.nr, 10);
	assert_string_equal(s->census.v[0].module, "k10temp");
	assert_null(s->census.v[0].file);
	assert_int_equal(s->census.v[0].kind, CENSUS_SENSOR);
	assert_true(s->census.v[0].mode_at_run_time);
	assert_null(s->census.v[0].path);
	assert_int_equal(s->census.v[1].kind, CENSUS_PARAM);
	assert_int_equal(s->census.v[3].mode, 0644);
	assert_string_equal(s->census.v[3].group, "power");
	assert_string_equal(s->census.v[9].path, "/sys/class/net/<iface>/ifindex");

	assert_true(s->coverage.computed);
	assert_int_equal(s->coverage.documented, 9);
	snapshot__free(s);
}

/*
 * A snapshot of version 1 has no syscall_abis: it collected the ABIs of
 * its records, which it keeps saying once written as version 2.
 */
static void test_load_version_1(void **state)
{
	static const char v1[] =
		"{\"format\": \"kabidiff-snapshot\", \"version\": 1, \"kernel\": {},\n"
		" \"syscalls\": [\n"
		"  {\"abi\": \"x86_64\", \"nr\": 0, \"name\": \"read\", \"implemented\": true,\n"
		"   \"args\": [], \"sources\": [\"table\"]},\n"
		"  {\"abi\": \"ia32\", \"nr\": 3, \"name\": \"read\", \"implemented\": true,\n"
		"   \"args\": [], \"sources\": [\"table\"]}]}\n";
	struct snapshot *s, *back;

	s = snapshot__load(write_tmp("v1.json", "%s", v1));
	assert_non_null(s);
	assert_int_equal(s->nr_syscall_abis, 2);
	assert_string_equal(s->syscall_abis[0], "ia32");
	assert_string_equal(s->syscall_abis[1], "x86_64");
	assert_false(snapshot__has_syscall_abi(s, "x32"));
	assert_int_equal(snapshot__save(s, tmp_path("v2.json"), 0), 0);
	back = snapshot__load(tmp_path("v2.json"));
	assert_non_null(back);
	assert_int_equal(back->nr_syscall_abis, 2);
	assert_false(snapshot__has_syscall_abi(back, "x32"));
	snapshot__free(back);
	snapshot__free(s);
	remove_tmp_files();
}

/* Every byte but NUL in names and values, built in C, saved and loaded. */
static struct snapshot *hostile_snapshot(void)
{
	struct snapshot *s = snapshot__new();
	char name[16];
	int b;

	s->kernel.release = strdup("\x01\x7f\xff\\");
	for (b = 1; b < 256; b++) {
		struct sysfs_node *n = snapshot__add_sysfs_node(s);
		struct type_def *t = snapshot__add_type(s);

		snprintf(name, sizeof(name), "/sys/%c%c", b, b == '/' ? 'x' : b);
		n->path = strdup(name);
		n->kind = NODE_FILE;
		n->mode = 0644;
		n->value.shape = SHAPE_TEXT;
		n->value.raw = strdup(name + 5);
		snprintf(name, sizeof(name), "struct %c", b);
		t->name = strdup(name);
		t->kind = TYPE_BASE;
		t->size = b;
	}
	s->docs.collected = true;
	return s;
}

static void test_round_trip_bytes(void **state)
{
	struct snapshot *s = hostile_snapshot(), *back;
	char *first, *second;
	size_t len1, len2, i;

	assert_int_equal(snapshot__save(s, tmp_path("a.json"), 0), 0);
	back = snapshot__load(tmp_path("a.json"));
	assert_non_null(back);
	assert_string_equal(back->kernel.release, "\x01\x7f\xff\\");
	assert_int_equal(back->sysfs.nr, 255);
	assert_int_equal(back->types.nr, 255);
	for (i = 0; i < 255; i++) {
		assert_string_equal(back->sysfs.v[i].path, s->sysfs.v[i].path);
		assert_string_equal(back->sysfs.v[i].value.raw,
				    s->sysfs.v[i].value.raw);
		assert_string_equal(back->types.v[i].name, s->types.v[i].name);
		assert_int_equal(back->types.v[i].size, s->types.v[i].size);
	}
	assert_true(back->docs.collected);
	assert_int_equal(back->docs.nr, 0);
	assert_false(back->syscalls.collected);

	assert_int_equal(snapshot__save(back, tmp_path("b.json"), 0), 0);
	first = slurp(tmp_path("a.json"), &len1);
	second = slurp(tmp_path("b.json"), &len2);
	assert_int_equal(len1, len2);
	assert_memory_equal(first, second, len1);
	free(first);
	free(second);
	snapshot__free(s);
	snapshot__free(back);
	remove_tmp_files();
}

/*
 * A syscall and types with and without a declaring file: written where
 * there is one, read back as it was, and the file written again is the
 * same.  A document of version 3 has none, and still loads.
 */
static void test_round_trip_file(void **state)
{
	static const char v3[] =
		"{\"format\": \"kabidiff-snapshot\", \"version\": 3, \"kernel\": {},\n"
		" \"types\": {\"int\": {\"kind\": \"base\", \"size\": 4}}}\n";
	struct snapshot *s = snapshot__new(), *back;
	struct syscall *sc = snapshot__add_syscall(s);
	struct type_def *t;
	char *first, *second;
	size_t len1, len2;

	sc->abi = strdup("x86_64");
	sc->name = strdup("read");
	sc->file = strdup("fs/read_write.c");
	assert_int_equal(snapshot__add_syscall_abi(s, "x86_64"), 0);
	t = snapshot__add_type(s);
	t->name = strdup("struct stat");
	t->file = strdup("arch/x86/include/uapi/asm/stat.h");
	t = snapshot__add_type(s);
	t->name = strdup("int");
	t->kind = TYPE_BASE;
	assert_int_equal(snapshot__save(s, tmp_path("f.json"), 0), 0);
	first = slurp(tmp_path("f.json"), &len1);
	assert_non_null(strstr(first, "      \"file\": \"fs/read_write.c\",\n"));
	assert_non_null(strstr(first,
		"      \"file\": \"arch/x86/include/uapi/asm/stat.h\",\n"));
	assert_non_null(strstr(first, "\"int\": {\n      \"kind\": \"base\",\n"
				      "      \"size\": 0\n    }"));

	back = snapshot__load(tmp_path("f.json"));
	assert_non_null(back);
	assert_string_equal(back->syscalls.v[0].file, "fs/read_write.c");
	assert_null(back->types.v[0].file);
	assert_string_equal(back->types.v[1].file,
			    "arch/x86/include/uapi/asm/stat.h");
	assert_int_equal(snapshot__save(back, tmp_path("g.json"), 0), 0);
	second = slurp(tmp_path("g.json"), &len2);
	assert_int_equal(len1, len2);
	assert_memory_equal(first, second, len1);

	snapshot__free(back);
	back = snapshot__load(write_tmp("v3.json", "%s", v3));
	assert_non_null(back);
	assert_null(back->types.v[0].file);
	assert_null(back->kernel.build_date);
	free(first);
	free(second);
	snapshot__free(back);
	snapshot__free(s);
	remove_tmp_files();
}

static struct census_attr *add_census_attr(struct snapshot *s,
					   const char *module, const char *file,
					   const char *symbol, const char *name,
					   enum census_kind kind)
{
	struct census_attr *a = snapshot__add_census_attr(s);

	a->module = strdup(module);
	a->file = file ? strdup(file) : NULL;
	a->symbol = strdup(symbol);
	a->name = strdup(name);
	a->kind = kind;
	a->type = strdup(kind == CENSUS_HWMON ? "struct hwmon_chip_info" :
			 "struct device_attribute");
	a->mode = 0444;
	return a;
}

/* The strings of @a and @b are the same, absent or the same bytes. */
static void assert_same_string(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_census_equal(const struct snapshot *a,
				const struct snapshot *b)
{
	size_t i;

	assert_int_equal(a->census.collected, b->census.collected);
	assert_int_equal(a->nr_census_modules, b->nr_census_modules);
	for (i = 0; i < a->nr_census_modules; i++)
		assert_string_equal(a->census_modules[i], b->census_modules[i]);
	assert_int_equal(a->census.nr, b->census.nr);
	for (i = 0; i < a->census.nr; i++) {
		const struct census_attr *x = &a->census.v[i], *y = &b->census.v[i];

		assert_same_string(x->module, y->module);
		assert_same_string(x->file, y->file);
		assert_same_string(x->symbol, y->symbol);
		assert_same_string(x->name, y->name);
		assert_int_equal(x->kind, y->kind);
		assert_same_string(x->type, y->type);
		assert_int_equal(x->mode, y->mode);
		assert_int_equal(x->mode_at_run_time, y->mode_at_run_time);
		assert_int_equal(x->grouped, y->grouped);
		assert_same_string(x->group, y->group);
		assert_same_string(x->path, y->path);
	}
}

/*
 * A census of every kind, with and without its optional strings and with
 * bytes that are not UTF-8, saved, loaded and saved again: the same
 * records, the same bytes.  Records added out of order come back sorted.
 */
static void test_round_trip_census(void **state)
{
	struct snapshot *s = snapshot__new(), *back;
	struct census_attr *a;
	char *first, *second;
	size_t len1, len2;
	unsigned int kind;
	char symbol[32];

	assert_int_equal(snapshot__add_census_module(s, "vmlinux"), 0);
	assert_int_equal(snapshot__add_census_module(s, "nct6775"), 0);
	assert_int_equal(snapshot__add_census_module(s, "caf\xe9\xff"), 0);
	for (kind = CENSUS_KIND_COUNT; kind-- > 0;) {
		snprintf(symbol, sizeof(symbol), "attr_%s", census_kind__name(kind));
		a = add_census_attr(s, "vmlinux", "drivers/base/core.c", symbol,
				    census_kind__name(kind), kind);
		a->mode = 0200 + kind;
		a->mode_at_run_time = kind & 1;
		a->grouped = kind & 2;
		if (kind == CENSUS_DEVICE) {
			a->grouped = true;
			a->group = strdup("power");
		}
		if (kind & 4)
			a->path = strdup("/sys/devices/<dev>/x");
	}
	a = add_census_attr(s, "nct6775", NULL, "sda_in[3]", "in3_input",
			    CENSUS_SENSOR);
	a->mode = 07777;
	a = add_census_attr(s, "caf\xe9\xff", "a\tb\x01", "\x80\\",
			    "new\nline", CENSUS_HWMON);
	a->mode = 0;
	assert_int_equal(snapshot__save(s, tmp_path("c.json"), 0), 0);
	first = slurp(tmp_path("c.json"), &len1);
	assert_non_null(strstr(first, "  \"census\": {\n    \"modules\": [\n"
				      "      \"caf\\\\xe9\\\\xff\",\n"));
	assert_non_null(strstr(first, "        \"mode\": \"7777\",\n"));

	back = snapshot__load(tmp_path("c.json"));
	assert_non_null(back);
	assert_string_equal(back->census_modules[0], "caf\xe9\xff");
	assert_string_equal(back->census.v[0].symbol, "\x80\\");
	assert_null(back->census.v[1].file);
	assert_int_equal(back->census.v[1].mode, 07777);
	assert_census_equal(s, back);
	assert_int_equal(snapshot__save(back, tmp_path("d.json"), 0), 0);
	second = slurp(tmp_path("d.json"), &len2);
	assert_int_equal(len1, len2);
	assert_memory_equal(first, second, len1);
	free(first);
	free(second);
	snapshot__free(back);
	snapshot__free(s);
	remove_tmp_files();
}

/*
 * A census collected and empty is there, an empty object of empty arrays;
 * one not collected is not.
 */
static void test_round_trip_census_empty(void **state)
{
	struct snapshot *s = snapshot__new(), *back;
	char *text;
	size_t len;

	assert_int_equal(snapshot__save(s, tmp_path("none.json"), 0), 0);
	text = slurp(tmp_path("none.json"), &len);
	assert_null(strstr(text, "census"));
	free(text);
	back = snapshot__load(tmp_path("none.json"));
	assert_non_null(back);
	assert_false(back->census.collected);
	snapshot__free(back);

	s->census.collected = true;
	assert_int_equal(snapshot__save(s, tmp_path("empty.json"), 0), 0);
	text = slurp(tmp_path("empty.json"), &len);
	assert_non_null(strstr(text, "  \"census\": {\n    \"modules\": [],\n"
				     "    \"attributes\": []\n  }\n"));
	free(text);
	back = snapshot__load(tmp_path("empty.json"));
	assert_non_null(back);
	assert_true(back->census.collected);
	assert_int_equal(back->census.nr, 0);
	assert_int_equal(back->nr_census_modules, 0);
	snapshot__free(back);
	snapshot__free(s);
	remove_tmp_files();
}

/* A document of version 5, before the census, reads as one without it. */
static void test_load_version_5(void **state)
{
	static const char v5[] =
		"{\"format\": \"kabidiff-snapshot\", \"version\": 5,\n"
		" \"kernel\": {\"build_date\": \"2025-01-02\"},\n"
		" \"sysfs\": [{\"path\": \"/sys\", \"kind\": \"dir\", \"mode\": \"0555\"}]}\n";
	struct snapshot *s;
	char *text;
	size_t len;

	s = snapshot__load(write_tmp("v5.json", "%s", v5));
	assert_non_null(s);
	assert_true(s->sysfs.collected);
	assert_false(s->census.collected);
	assert_int_equal(s->census.nr, 0);
	assert_int_equal(s->nr_census_modules, 0);
	assert_int_equal(snapshot__save(s, tmp_path("v6.json"), 0), 0);
	text = slurp(tmp_path("v6.json"), &len);
	assert_non_null(strstr(text, "  \"version\": 6,\n"));
	assert_null(strstr(text, "census"));
	free(text);
	snapshot__free(s);
	remove_tmp_files();
}

/* A document whose census read vmlinux and found the attributes "%s". */
#define CENSUS_DOC "{\"format\": \"kabidiff-snapshot\", \"version\": 6," \
		   " \"kernel\": {}, \"census\": {\"modules\": [\"vmlinux\"]," \
		   " \"attributes\": [%s]}}\n"

/*
 * The census document of the attributes @attrs must be refused, with errno
 * @err and the message "FILE: @message".
 */
static void expect_census_refused(const char *attrs, int err,
				  const char *message)
{
	kabi_print_fn_t old_print = kabi_set_print(capture);
	const char *path = write_tmp("bad.json", CENSUS_DOC, attrs);
	size_t len = strlen(path);

	errno = 0;
	last_message[0] = '\0';
	assert_null(snapshot__load(path));
	kabi_set_print(old_print);
	assert_int_equal(errno, err);
	assert_memory_equal(last_message, path, len);
	assert_memory_equal(last_message + len, ": ", 2);
	assert_string_equal(last_message + len + 2, message);
	remove_tmp_files();
}

#define CENSUS_KEY "\"module\": \"vmlinux\", \"symbol\": \"dev_attr_x\", " \
		   "\"name\": \"x\", "
#define CENSUS_REST "\"type\": \"struct device_attribute\", " \
		    "\"mode\": \"0444\", \"mode_at_run_time\": false, " \
		    "\"grouped\": false"
#define CENSUS_ATTR "{" CENSUS_KEY "\"kind\": \"device\", " CENSUS_REST "}"

static void test_census_refused(void **state)
{
	/* the good one first: the cases below differ from it in one way */
	struct snapshot *s = snapshot__load(write_tmp("good.json", CENSUS_DOC,
						      CENSUS_ATTR));

	assert_non_null(s);
	assert_int_equal(s->census.nr, 1);
	snapshot__free(s);
	remove_tmp_files();

	expect_census_refused("{" CENSUS_KEY "\"kind\": \"gadget\", " CENSUS_REST "}",
			      EINVAL,
			      "census.attributes[0].kind: unknown value \"gadget\"");
	expect_census_refused("{" CENSUS_KEY "\"kind\": \"device\", "
			      "\"type\": \"struct device_attribute\", "
			      "\"mode\": \"10000\", \"mode_at_run_time\": false, "
			      "\"grouped\": false}", EINVAL,
			      "census.attributes[0].mode: \"10000\" is not four octal digits");
	expect_census_refused("{" CENSUS_KEY "\"kind\": \"device\", "
			      "\"type\": \"struct device_attribute\", "
			      "\"mode\": 420, \"mode_at_run_time\": false, "
			      "\"grouped\": false}", EINVAL,
			      "census.attributes[0].mode: expected a string, found an integer");
	expect_census_refused(CENSUS_ATTR ", " CENSUS_ATTR, EEXIST,
			      "duplicate census attribute \"dev_attr_x\" of \"vmlinux\"");
	expect_census_refused("{\"module\": \"vmlinux\", \"symbol\": \"dev_attr_x\", "
			      "\"kind\": \"device\", " CENSUS_REST "}", EINVAL,
			      "census.attributes[0]: missing field \"name\"");
	expect_census_refused("{" CENSUS_KEY "\"kind\": \"device\", " CENSUS_REST
			      ", \"group\": \"power\"}", EINVAL,
			      "census.attributes[0]: only a grouped attribute has a group");
	expect_census_refused("{\"module\": \"e1000e\", \"symbol\": \"dev_attr_x\", "
			      "\"name\": \"x\", \"kind\": \"device\", " CENSUS_REST "}",
			      EINVAL,
			      "census attribute \"dev_attr_x\" of \"e1000e\": "
			      "census.modules does not list its module");
	expect_census_refused(CENSUS_ATTR "], \"colour\": [", EINVAL,
			      "census: unknown field \"colour\"");
}

/* A module read twice is refused, by loading and by saving alike. */
static void test_census_duplicate_module(void **state)
{
	static const char doc[] =
		"{\"format\": \"kabidiff-snapshot\", \"version\": 6, \"kernel\": {},"
		" \"census\": {\"modules\": [\"vmlinux\", \"vmlinux\"], \"attributes\": []}}\n";
	kabi_print_fn_t old_print = kabi_set_print(capture);
	struct snapshot *s = snapshot__new();

	errno = 0;
	assert_null(snapshot__load(write_tmp("m.json", "%s", doc)));
	assert_int_equal(errno, EEXIST);
	assert_non_null(strstr(last_message, "m.json: duplicate census module \"vmlinux\""));
	remove_tmp_files();

	assert_int_equal(snapshot__add_census_module(s, "nct6775"), 0);
	assert_int_equal(snapshot__add_census_module(s, "nct6775"), 0);
	assert_int_equal(snapshot__save(s, tmp_path("n.json"), 0), -EEXIST);
	kabi_set_print(old_print);
	assert_string_equal(last_message,
			    "snapshot: duplicate census module \"nct6775\"");
	assert_int_equal(count_dir_entries(), 0);
	snapshot__free(s);
}

static void test_save_mode(void **state)
{
	struct snapshot *s = snapshot__new();
	mode_t old = umask(027);
	struct stat st;

	assert_int_equal(snapshot__save(s, tmp_path("m.json"), 0), 0);
	umask(old);
	assert_int_equal(stat(tmp_path("m.json"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	snapshot__free(s);
	remove_tmp_files();
}

static void write_old_file(const char *path)
{
	FILE *f = fopen(path, "w");

	fputs("old contents\n", f);
	fclose(f);
}

static void expect_old_file_alone(const char *path)
{
	size_t len;
	char *buf = slurp(path, &len);

	assert_string_equal(buf, "old contents\n");
	free(buf);
	assert_int_equal(count_dir_entries(), 1);
}

/* A save that runs out of room leaves the old file and no debris. */
static void test_save_fails_atomically(void **state)
{
	struct rlimit old, small = { .rlim_cur = 4096 };
	struct snapshot *s = hostile_snapshot();
	kabi_print_fn_t old_print = kabi_set_print(capture);

	write_old_file(tmp_path("s.json"));
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(snapshot__save(s, tmp_path("s.json"), 0), -EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	kabi_set_print(old_print);
	assert_non_null(strstr(last_message, "s.json: write failed: File too large"));
	expect_old_file_alone(tmp_path("s.json"));
	snapshot__free(s);
	remove_tmp_files();
}

static void test_save_refuses_duplicates(void **state)
{
	struct snapshot *s = snapshot__new();
	kabi_print_fn_t old_print = kabi_set_print(capture);
	struct sysfs_node *n;
	int i;

	for (i = 0; i < 2; i++) {
		n = snapshot__add_sysfs_node(s);
		n->path = strdup("/sys/same");
	}
	write_old_file(tmp_path("d.json"));
	assert_int_equal(snapshot__save(s, tmp_path("d.json"), 0), -EEXIST);
	kabi_set_print(old_print);
	assert_string_equal(last_message,
			    "snapshot: duplicate sysfs path \"/sys/same\"");
	expect_old_file_alone(tmp_path("d.json"));
	snapshot__free(s);
	remove_tmp_files();
}

static void test_save_no_directory(void **state)
{
	struct snapshot *s = snapshot__new();
	kabi_print_fn_t old_print = kabi_set_print(capture);

	assert_int_equal(snapshot__save(s, tmp_path("nodir/x.json"), 0), -ENOENT);
	kabi_set_print(old_print);
	assert_non_null(strstr(last_message, "nodir/x.json: cannot create a file"));
	snapshot__free(s);
}

static void expect_load_errno(const char *path, int err)
{
	kabi_print_fn_t old_print = kabi_set_print(capture);

	errno = 0;
	assert_null(snapshot__load(path));
	assert_int_equal(errno, err);
	kabi_set_print(old_print);
}

static void test_load_errors(void **state)
{
	expect_load_errno(tmpdir, EISDIR);
	expect_load_errno(tmp_path("none.json"), ENOENT);
	expect_load_errno(SRCDIR "/tests/fixtures/bad/truncated.json", EINVAL);
	expect_load_errno(SRCDIR "/tests/fixtures/bad/nr-negative.json", EINVAL);
	expect_load_errno(SRCDIR "/tests/fixtures/bad/future-version.json",
			  EPROTONOSUPPORT);
	expect_load_errno(SRCDIR "/tests/fixtures/bad/abi-not-listed.json",
			  EINVAL);
	expect_load_errno(SRCDIR "/tests/fixtures/bad/abis-without-syscalls.json",
			  EINVAL);
	expect_load_errno(SRCDIR "/tests/fixtures/bad/abis-duplicate.json",
			  EEXIST);
}

/*
 * The field tables against the schema.  From the root, every record of the
 * tables must have, in the object schema that the schema has at the same
 * place, the same keys, the same required ones, the same JSON types (null
 * added for an optional field), the same names for an enum or flags, in the
 * same order, the same integer ranges and constants, and the same records
 * inside; and every object of the schema's $defs must be reached.
 */
enum {
	T_NULL		= 1 << 0,
	T_BOOLEAN	= 1 << 1,
	T_INTEGER	= 1 << 2,
	T_NUMBER	= 1 << 3,
	T_STRING	= 1 << 4,
	T_ARRAY		= 1 << 5,
	T_OBJECT	= 1 << 6,
};

static const char *const json_types[] = {
	"null", "boolean", "integer", "number", "string", "array", "object"
};

/* The JSON type of each kind of field, as the loader reads it. */
static const unsigned int kind_types[] = {
	[JF_CONST_STRING]	= T_STRING,
	[JF_CONST_UINT]		= T_INTEGER,
	[JF_STRING]		= T_STRING,
	[JF_UINT]		= T_INTEGER,
	[JF_INT]		= T_INTEGER,
	[JF_BOOL]		= T_BOOLEAN,
	[JF_ENUM]		= T_STRING,
	[JF_FLAGS]		= T_ARRAY,
	[JF_MODE]		= T_STRING,
	[JF_STRINGS]		= T_ARRAY,
	[JF_RECORD]		= T_OBJECT,
	[JF_RECORDS]		= T_ARRAY,
	[JF_MAP]		= T_OBJECT,
};

struct schema_check {
	json_t *schema;
	json_t *seen;		/* the records met, by name */
	int mismatches;
	bool quiet;
};

static void __printf(3, 4)
mismatch(struct schema_check *c, const char *where, const char *fmt, ...)
{
	va_list ap;

	c->mismatches++;
	if (c->quiet)
		return;
	printf("# %s: %s: ", SCHEMA, where);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* @node with its $refs followed; the last $defs name in *@def. */
static const json_t *resolve(const struct schema_check *c, const json_t *node,
			     const char **def)
{
	static const char prefix[] = "#/$defs/";
	const char *ref;

	while ((ref = json_string_value(json_object_get(node, "$ref")))) {
		assert_memory_equal(ref, prefix, strlen(prefix));
		ref += strlen(prefix);
		if (def)
			*def = ref;
		node = json_object_get(json_object_get(c->schema, "$defs"), ref);
	}
	return node;
}

static unsigned int type_of_value(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return T_OBJECT;
	case JSON_ARRAY:
		return T_ARRAY;
	case JSON_STRING:
		return T_STRING;
	case JSON_INTEGER:
		return T_INTEGER;
	case JSON_REAL:
		return T_NUMBER;
	case JSON_TRUE:
	case JSON_FALSE:
		return T_BOOLEAN;
	default:
		return T_NULL;
	}
}

static unsigned int type_named(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(json_types); i++)
		if (name && !strcmp(name, json_types[i]))
			return 1u << i;
	fail_msg("unknown JSON type %s", name);
	return 0;
}

/* The JSON types @node allows: by "type", else by "anyOf", "enum", "const". */
static unsigned int types_of(const struct schema_check *c, const json_t *node)
{
	unsigned int types = 0;
	const json_t *t, *v;
	size_t i;

	node = resolve(c, node, NULL);
	t = json_object_get(node, "type");
	if (json_is_string(t))
		return type_named(json_string_value(t));
	json_array_foreach(t, i, v)
		types |= type_named(json_string_value(v));
	if (t)
		return types;
	json_array_foreach(json_object_get(node, "anyOf"), i, v)
		types |= types_of(c, v);
	json_array_foreach(json_object_get(node, "enum"), i, v)
		types |= type_of_value(v);
	v = json_object_get(node, "const");
	return v ? types | type_of_value(v) : types;
}

static const char *types_str(unsigned int types, char *buf, size_t size)
{
	unsigned int i;
	size_t len = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(json_types); i++)
		if (types & 1u << i)
			len += snprintf(buf + len, size - len, "%s%s",
					len ? " or " : "", json_types[i]);
	return len ? buf : "nothing";
}

/* The object schema @node allows, through an anyOf; its $defs name in *@def. */
static const json_t *object_schema(const struct schema_check *c,
				   const json_t *node, const char **def)
{
	const json_t *alt;
	size_t i;

	node = resolve(c, node, def);
	json_array_foreach(json_object_get(node, "anyOf"), i, alt)
		if (types_of(c, alt) & T_OBJECT)
			return resolve(c, alt, def);
	return node;
}

static bool schema_requires(const json_t *def, const char *key)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(def, "required"), i, v)
		if (!strcmp(json_string_value(v), key))
			return true;
	return false;
}

static const struct jfield *field_named(const struct jrecord *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nr_fields; i++)
		if (!strcmp(r->fields[i].key, key))
			return &r->fields[i];
	return NULL;
}

/* The names of values 0 to @last of @f, against the schema's @names. */
static void check_names(struct schema_check *c, const char *where,
			const struct jfield *f, unsigned int last,
			const json_t *names)
{
	json_t *ours = json_array();
	char *a, *b;
	unsigned int v;

	for (v = 0; v <= last; v++)
		if (f->names(v))
			json_array_append_new(ours, json_string(f->names(v)));
	if (!json_equal(ours, names)) {
		a = json_dumps(ours, JSON_COMPACT);
		b = names ? json_dumps(names, JSON_COMPACT) : NULL;
		mismatch(c, where, "names %s, the schema has %s", a,
			 b ? b : "none");
		free(a);
		free(b);
	}
	json_decref(ours);
}

static void check_int(struct schema_check *c, const char *where,
		      const char *what, int64_t ours, const json_t *theirs)
{
	if (!json_is_integer(theirs))
		mismatch(c, where, "%s %" PRId64 ", none in the schema", what,
			 ours);
	else if (json_integer_value(theirs) != ours)
		mismatch(c, where, "%s %" PRId64 ", the schema's %"
			 JSON_INTEGER_FORMAT, what, ours,
			 json_integer_value(theirs));
}

static void check_record(struct schema_check *c, const struct jrecord *r,
			 const json_t *def, const char *def_name);

/* What the kind of @f says beyond the JSON type, against @prop. */
static void check_kind(struct schema_check *c, const char *where,
		       const struct jfield *f, const json_t *prop)
{
	const json_t *items = resolve(c, json_object_get(prop, "items"), NULL);
	const json_t *konst = json_object_get(prop, "const");
	const char *def_name = NULL;

	if (json_object_get(prop, "enum") && f->kind != JF_ENUM)
		mismatch(c, where, "the schema has an enum, the field does not");
	if (konst && f->kind != JF_CONST_STRING && f->kind != JF_CONST_UINT)
		mismatch(c, where, "the schema has a constant, the field does not");
	switch (f->kind) {
	case JF_CONST_STRING:
		if (!json_is_string(konst) ||
		    strcmp(json_string_value(konst), f->value))
			mismatch(c, where, "always \"%s\", not in the schema",
				 f->value);
		break;
	case JF_CONST_UINT:	/* the versions read */
	case JF_UINT:
	case JF_INT:
		check_int(c, where, "minimum", f->min,
			  json_object_get(prop, "minimum"));
		check_int(c, where, "maximum", f->max,
			  json_object_get(prop, "maximum"));
		break;
	case JF_ENUM:
		check_names(c, where, f, f->max, json_object_get(prop, "enum"));
		break;
	case JF_FLAGS:
		check_names(c, where, f, f->nr_names - 1,
			    json_object_get(items, "enum"));
		if (!json_is_true(json_object_get(prop, "uniqueItems")))
			mismatch(c, where, "each name once, the schema allows more");
		break;
	case JF_STRINGS:
		if (types_of(c, items) != T_STRING)
			mismatch(c, where, "strings, not the schema's items");
		if (json_integer_value(json_object_get(prop, "minItems")) != f->min)
			mismatch(c, where, "at least %" PRId64 " items, the schema's %"
				 JSON_INTEGER_FORMAT, f->min,
				 json_integer_value(json_object_get(prop, "minItems")));
		break;
	case JF_RECORD:
	case JF_RECORDS:
	case JF_MAP:
		if (f->kind == JF_RECORDS)
			prop = json_object_get(prop, "items");
		else if (f->kind == JF_MAP)
			prop = json_object_get(prop, "additionalProperties");
		prop = object_schema(c, prop, &def_name);
		if (f->record)
			check_record(c, f->record, prop, def_name);
		else
			mismatch(c, where, "records of no type");
		break;
	case JF_STRING:
	case JF_BOOL:
	case JF_MODE:
		break;
	}
}

static void check_field(struct schema_check *c, const struct jrecord *r,
			const json_t *def, const struct jfield *f)
{
	const json_t *prop = json_object_get(json_object_get(def, "properties"),
					     f->key);
	bool required = f->flags & JF_REQUIRED;
	unsigned int ours, theirs;
	char where[128], a[64], b[64];

	snprintf(where, sizeof(where), "%s.%s", r->name, f->key);
	if (!prop) {
		mismatch(c, where, "not in the schema");
		return;
	}
	if (schema_requires(def, f->key) != required)
		mismatch(c, where, "%s, %s in the schema",
			 required ? "required" : "optional",
			 required ? "optional" : "required");
	ours = kind_types[f->kind] | (required ? 0 : T_NULL);
	theirs = types_of(c, prop);
	if (ours != theirs)
		mismatch(c, where, "%s, the schema has %s",
			 types_str(ours, a, sizeof(a)),
			 types_str(theirs, b, sizeof(b)));
	if ((f->kind == JF_UINT || f->kind == JF_ENUM) &&
	    f->size != sizeof(uint32_t) && f->size != sizeof(uint64_t))
		mismatch(c, where, "an integer of %zu bytes", f->size);
	check_kind(c, where, f, resolve(c, prop, NULL));
}

static void check_record(struct schema_check *c, const struct jrecord *r,
			 const json_t *def, const char *def_name)
{
	const char *key, *type = json_string_value(json_object_get(def, "type"));
	const json_t *v;
	size_t i;

	json_object_set_new(c->seen, r->name, json_true());
	if (def_name && strcmp(def_name, r->name))
		mismatch(c, r->name, "where the schema has %s", def_name);
	if (!type || strcmp(type, "object"))
		mismatch(c, r->name, "an object, the schema has %s",
			 type ? type : "no type");
	if (!json_is_false(json_object_get(def, "additionalProperties")))
		mismatch(c, r->name, "refuses unknown fields, the schema allows them");
	for (i = 0; i < r->nr_fields; i++)
		check_field(c, r, def, &r->fields[i]);
	json_object_foreach(json_object_get(def, "properties"), key, v)
		if (!field_named(r, key))
			mismatch(c, r->name, "no field for the schema's \"%s\"", key);
	json_array_foreach(json_object_get(def, "required"), i, v)
		if (!field_named(r, json_string_value(v)))
			mismatch(c, r->name, "no field for the schema's required \"%s\"",
				 json_string_value(v));
}

/* The mismatches between the tables from @root and the schema. */
static int check_schema(const struct jrecord *root, bool quiet)
{
	struct schema_check c = { .seen = json_object(), .quiet = quiet };
	json_error_t jerr;
	const char *name;
	const json_t *def;

	c.schema = json_load_file(SCHEMA, JSON_REJECT_DUPLICATES, &jerr);
	if (!c.schema)
		fail_msg("%s:%d: %s", SCHEMA, jerr.line, jerr.text);
	check_record(&c, root, c.schema, NULL);
	json_object_foreach(json_object_get(c.schema, "$defs"), name, def)
		if (types_of(&c, def) == T_OBJECT &&
		    !json_object_get(c.seen, name))
			mismatch(&c, name, "an object of the schema, no record of ours");
	json_decref(c.seen);
	json_decref(c.schema);
	return c.mismatches;
}

static void test_fields_match_schema(void **state)
{
	assert_int_equal(check_schema(&snapshot_jrecord, false), 0);
}

/*
 * The check can fail: tables that differ from the schema in one field, one
 * way at a time, each give a mismatch.
 */
static const struct jrecord *find_record(const struct jrecord *r,
					 const char *name)
{
	const struct jrecord *found = NULL;
	size_t i;

	if (!strcmp(r->name, name))
		return r;
	for (i = 0; !found && i < r->nr_fields; i++)
		if (r->fields[i].record)
			found = find_record(r->fields[i].record, name);
	return found;
}

static void rename_key(struct jfield *f)
{
	f->key = "renamed";
}

static void flip_required(struct jfield *f)
{
	f->flags ^= JF_REQUIRED;
}

static void raise_max(struct jfield *f)
{
	f->max++;
}

static void lower_min(struct jfield *f)
{
	f->min--;
}

static void one_name_less(struct jfield *f)
{
	if (f->kind == JF_ENUM)
		f->max--;
	else
		f->nr_names--;
}

static void one_name_more(struct jfield *f)
{
	f->max++;
}

static void make_string(struct jfield *f)
{
	f->kind = JF_STRING;
}

static void make_array(struct jfield *f)
{
	f->kind = JF_RECORDS;
}

static void other_value(struct jfield *f)
{
	f->value = "kabidiff-baseline";
}

static void other_record(struct jfield *f)
{
	f->record = find_record(&snapshot_jrecord, "kernel");
}

static const struct mutation {
	const char *record, *key;
	void (*change)(struct jfield *f);
} mutations[] = {
	{ "snapshot", "format", other_value },
	{ "snapshot", "version", raise_max },
	{ "snapshot", "types", make_array },
	{ "snapshot", "coverage", flip_required },
	{ "kernel", "git", rename_key },
	{ "syscall", "entry", flip_required },
	{ "syscall", "nr", raise_max },
	{ "syscall", "sources", one_name_less },
	{ "syscall", "args", other_record },
	{ "type", "kind", one_name_less },
	{ "member", "bit_size", lower_min },
	{ "enumerator", "value", flip_required },
	{ "sysfs-node", "path", make_array },
	{ "value", "shape", make_string },
	{ "doc", "level", one_name_more },
	{ "doc", "what", lower_min },
	{ "coverage", "documented", rename_key },
	{ "census", "modules", flip_required },
	{ "census-attr", "kind", one_name_less },
	{ "census-attr", "mode", flip_required },
	{ "census-attr", "grouped", rename_key },
};

struct mutant {
	void *copies[16];
	unsigned int nr;
};

/* A copy of the tables from @r with @m applied, or NULL if @m is not below. */
static const struct jrecord *mutate(const struct jrecord *r,
				    const struct mutation *m,
				    struct mutant *mt)
{
	struct jfield *fields = malloc(r->nr_fields * sizeof(*fields));
	const struct jrecord *sub;
	struct jrecord *copy;
	bool changed = false;
	size_t i;

	memcpy(fields, r->fields, r->nr_fields * sizeof(*fields));
	for (i = 0; i < r->nr_fields; i++) {
		if (!strcmp(r->name, m->record) && !strcmp(fields[i].key, m->key)) {
			m->change(&fields[i]);
			changed = true;
		} else if (fields[i].record) {
			sub = mutate(fields[i].record, m, mt);
			if (sub) {
				fields[i].record = sub;
				changed = true;
			}
		}
	}
	if (!changed) {
		free(fields);
		return NULL;
	}
	copy = malloc(sizeof(*copy));
	*copy = *r;
	copy->fields = fields;
	assert_true(mt->nr + 2 <= ARRAY_SIZE(mt->copies));
	mt->copies[mt->nr++] = fields;
	mt->copies[mt->nr++] = copy;
	return copy;
}

static void test_schema_check_fails(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mutations); i++) {
		const struct mutation *m = &mutations[i];
		struct mutant mt = { .nr = 0 };
		const struct jrecord *root = mutate(&snapshot_jrecord, m, &mt);
		int mismatches = root ? check_schema(root, true) : -1;

		while (mt.nr)
			free(mt.copies[--mt.nr]);
		if (mismatches < 0)
			fail_msg("no field %s.%s", m->record, m->key);
		if (!mismatches)
			fail_msg("%s.%s changed, and the schema check passes",
				 m->record, m->key);
	}
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/kabidiff-unit.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	remove_tmp_files();
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_full),
		cmocka_unit_test(test_load_version_1),
		cmocka_unit_test(test_round_trip_bytes),
		cmocka_unit_test(test_round_trip_file),
		cmocka_unit_test(test_round_trip_census),
		cmocka_unit_test(test_round_trip_census_empty),
		cmocka_unit_test(test_load_version_5),
		cmocka_unit_test(test_census_refused),
		cmocka_unit_test(test_census_duplicate_module),
		cmocka_unit_test(test_save_mode),
		cmocka_unit_test(test_save_fails_atomically),
		cmocka_unit_test(test_save_refuses_duplicates),
		cmocka_unit_test(test_save_no_directory),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_fields_match_schema),
		cmocka_unit_test(test_schema_check_fails),
	};

	/* the loads go through the arena, as the program's do */
	json_arena__install();
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
