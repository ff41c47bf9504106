// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for snapshot-json.c and atomic-file.c. */
#include <dirent.h>
#include <errno.h>
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

#include "lib/print.h"
#include "model/model.h"
#include "model/snapshot-json.h"

#define FIXTURE(name) SRCDIR "/tests/fixtures/snapshots/" name

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
	assert_int_equal(s->syscalls.nr, 6);
	assert_string_equal(s->syscalls.v[0].abi, "ia32");
	assert_null(s->syscalls.v[0].args[0].name);
	assert_int_equal(s->syscalls.v[1].nr, 0);
	assert_int_equal(s->syscalls.v[1].sources, SYSCALL_SRC_ALL);
	assert_false(s->syscalls.v[4].implemented);

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

	assert_int_equal(s->docs.nr, 7);
	assert_int_equal(s->docs.v[0].level, LEVEL_OBSOLETE);
	assert_true(s->coverage.computed);
	assert_int_equal(s->coverage.documented, 9);
	snapshot__free(s);
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

	assert_int_equal(snapshot__save(s, tmp_path("a.json")), 0);
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

	assert_int_equal(snapshot__save(back, tmp_path("b.json")), 0);
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

static void test_save_mode(void **state)
{
	struct snapshot *s = snapshot__new();
	mode_t old = umask(027);
	struct stat st;

	assert_int_equal(snapshot__save(s, tmp_path("m.json")), 0);
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
	assert_int_equal(snapshot__save(s, tmp_path("s.json")), -EFBIG);
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
	assert_int_equal(snapshot__save(s, tmp_path("d.json")), -EEXIST);
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

	assert_int_equal(snapshot__save(s, tmp_path("nodir/x.json")), -ENOENT);
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
		cmocka_unit_test(test_round_trip_bytes),
		cmocka_unit_test(test_save_mode),
		cmocka_unit_test(test_save_fails_atomically),
		cmocka_unit_test(test_save_refuses_duplicates),
		cmocka_unit_test(test_save_no_directory),
		cmocka_unit_test(test_load_errors),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
