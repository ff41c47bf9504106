// SPDX-License-Identifier: GPL-2.0-only
/*
 * Coldplug: the modules of the initramfs loaded for the guest's devices.
 *
 * The host puts the modules of the machine's drivers into the initramfs
 * with a table (COLDPLUG_TABLE): "module NAME FILE DEP,DEP" for each,
 * "alias PATTERN NAME" for each of their aliases, "boot NAME PARAMS" for
 * each the machine loads first, device or not.  Every device under
 * /sys/bus/ and /sys/class/ with a modalias is matched against the patterns (fnmatch(),
 * as modprobe matches them); each module a device asks for is loaded,
 * what it depends on first, in name order.  A driver that binds makes
 * devices of its own (a USB host controller its root hubs, then the
 * keyboard, then its HID and input devices), so this goes round by round,
 * each after the devices of the last one have settled, until a round asks
 * for no module that was not tried.  Name order and settling make two
 * boots load the same modules in the same order.
 *
 * The kernel also asks for modules itself (request_module(): the HDA
 * driver for its codec's), by running /sbin/modprobe, a link to this
 * program; modprobe_main() serves that from the same table and logs what
 * it loaded for PID 1, which sends every load, with its result, in the
 * stream.  Loading, and mounting the machine's filesystems read-only
 * (pid1.c), are the only changes the agent makes to the guest.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "coldplug.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE	4	/* linux/module.h, 6.2+ */
#endif

#define TABLE_MAX	(1 << 20)
#define MAX_ROUNDS	16
/* settled: the devices counted the same this many times, SETTLE_MS apart */
#define SETTLE_MS	100
#define SETTLE_SAME	5
#define SETTLE_MAX_MS	10000

struct module {
	char *name, *file, *deps;	/* in the table's text */
	char *params;			/* for finit_module(); NULL: none */
	bool tried;
};

struct alias {
	char *pattern, *module;
};

/* A module the machine loads at boot, device or not: "boot NAME PARAMS" */
struct boot_load {
	char *module, *params;
};

struct table {
	char *text;
	struct module *modules;
	size_t nr_modules;
	struct alias *aliases;
	size_t nr_aliases;
	struct boot_load *boots;
	size_t nr_boots;
};

/*
 * Room for one more after the @nr items of @v, each @size bytes: the
 * array doubles when @nr is a power of two.  NULL when out of memory
 * (and @v is still there: the agent is about to power off anyway).
 */
static void *grow(void *v, size_t nr, size_t size)
{
	if (nr & (nr - 1))
		return v;
	return realloc(v, (nr ? 2 * nr : 1) * size);
}

/*
 * Each line "module NAME FILE DEPS", "alias PATTERN NAME" or "boot NAME
 * PARAMS", in place.
 */
static int parse_table(struct table *t)
{
	char *rest = t->text, *line, *word[4];
	size_t n;

	while ((line = strsep(&rest, "\n"))) {
		for (n = 0; n < 4 && (word[n] = strsep(&line, " ")); n++)
			;
		if (n == 4 && !strcmp(word[0], "module")) {
			t->modules = grow(t->modules, t->nr_modules,
					  sizeof(*t->modules));
			if (!t->modules)
				return -ENOMEM;
			t->modules[t->nr_modules++] = (struct module) {
				word[1], word[2], strcmp(word[3], "-") ? word[3] : NULL
			};
		} else if (n == 3 && !strcmp(word[0], "alias")) {
			t->aliases = grow(t->aliases, t->nr_aliases,
					  sizeof(*t->aliases));
			if (!t->aliases)
				return -ENOMEM;
			t->aliases[t->nr_aliases++] = (struct alias) { word[1], word[2] };
		} else if (n == 3 && !strcmp(word[0], "boot")) {
			t->boots = grow(t->boots, t->nr_boots, sizeof(*t->boots));
			if (!t->boots)
				return -ENOMEM;
			t->boots[t->nr_boots++] = (struct boot_load) {
				word[1], strcmp(word[2], "-") ? word[2] : NULL
			};
		}
	}
	return 0;
}

/* The table, or -ENOENT when the initramfs has none (no modules). */
static int read_table(struct table *t)
{
	int fd = open(COLDPLUG_TABLE, O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return -errno;
	t->text = malloc(TABLE_MAX + 1);
	while (t->text && len < TABLE_MAX &&
	       (n = read(fd, t->text + len, TABLE_MAX - len)) > 0)
		len += n;
	close(fd);
	if (!t->text)
		return -ENOMEM;
	t->text[len] = '\0';
	return parse_table(t);
}

static void free_table(struct table *t)
{
	free(t->text);
	free(t->modules);
	free(t->aliases);
	free(t->boots);
}

static struct module *find_module(struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_modules; i++)
		if (!strcmp(t->modules[i].name, name))
			return &t->modules[i];
	return NULL;
}

static void add_load(struct loads *loads, const char *name,
		     enum stream_load how, int err, const char *cause)
{
	struct load *v = grow(loads->v, loads->nr, sizeof(*v)), *l;

	if (!v)
		return;
	loads->v = v;
	l = &loads->v[loads->nr++];
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->cause, sizeof(l->cause), "%s", cause);
	l->how = how;
	l->err = err;
}

/* finit_module() of the file @m names: 0, or errno (EEXIST: loaded). */
static int insmod(const struct module *m)
{
	char path[PATH_MAX];
	int fd, flags, err = 0;

	snprintf(path, sizeof(path), "/%s", m->file);
	flags = strstr(m->file, ".ko.") ? MODULE_INIT_COMPRESSED_FILE : 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, m->params ?: "", flags))
		err = errno;
	close(fd);
	return err;
}

/*
 * Load @m after what it depends on; each load goes to @loads, but those
 * of modules another process loaded (PID 1, or the kernel's modprobe):
 * they are its.  Returns 0 when @m is loaded, or errno.
 */
static int load(struct table *t, struct module *m, enum stream_load how,
		const char *cause, struct loads *loads)
{
	char *deps, *rest, *dep;
	struct module *d;
	int err;

	if (m->tried)
		return 0;
	m->tried = true;
	deps = m->deps ? strdup(m->deps) : NULL;
	for (rest = deps; rest && (dep = strsep(&rest, ","));) {
		d = find_module(t, dep);
		if (d)
			load(t, d, STREAM_LOAD_DEPENDENCY, m->name, loads);
	}
	free(deps);
	err = insmod(m);
	if (err == EEXIST)
		return 0;
	add_load(loads, m->name, how, err, cause);
	return err;
}

static int string_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @fn on each DIR/X/SUB/Y (SUB NULL: DIR/X/Y); the number of them. */
static size_t each_entry(const char *dir, const char *sub,
			 void (*fn)(const char *path, void *ctx), void *ctx)
{
	char path[PATH_MAX];
	struct dirent *x, *y;
	DIR *xs = opendir(dir), *ys;
	size_t n = 0;

	while (xs && (x = readdir(xs))) {
		if (x->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s%s%s", dir, x->d_name,
			 sub ? "/" : "", sub ?: "");
		ys = opendir(path);
		while (ys && (y = readdir(ys))) {
			if (y->d_name[0] == '.')
				continue;
			n++;
			if (fn) {
				snprintf(path, sizeof(path), "%s/%s%s%s/%s", dir,
					 x->d_name, sub ? "/" : "", sub ?: "",
					 y->d_name);
				fn(path, ctx);
			}
		}
		if (ys)
			closedir(ys);
	}
	if (xs)
		closedir(xs);
	return n;
}

/*
 * @fn on each device, as "udevadm trigger" finds them: those of a bus
 * (/sys/bus/BUS/devices/DEV) and those of a class (/sys/class/CLASS/DEV:
 * input devices are of no bus); @fn NULL only counts them.
 */
static size_t each_device(void (*fn)(const char *path, void *ctx), void *ctx)
{
	return each_entry("/sys/bus", "devices", fn, ctx) +
	       each_entry("/sys/class", NULL, fn, ctx);
}

struct modaliases {
	char **v;
	size_t nr;
};

/* An input device's modalias lists its keys: a few kilobytes. */
#define MODALIAS_MAX	8192

static void read_modalias(const char *dir, void *ctx)
{
	struct modaliases *m = ctx;
	char path[PATH_MAX], buf[MODALIAS_MAX], *copy;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/modalias", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	copy = strdup(buf);
	m->v = copy ? grow(m->v, m->nr, sizeof(*m->v)) : m->v;
	if (copy && m->v)
		m->v[m->nr++] = copy;
	else
		free(copy);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wait until the devices stop coming: the same count SETTLE_SAME times in
 * a row.  Under QEMU's -icount with sleep=off an idle guest's clock jumps
 * to its next timer, so this costs little time on the host.
 */
static void settle(void)
{
	size_t last = each_device(NULL, NULL), now;
	unsigned int same = 0, waited = 0;

	while (same < SETTLE_SAME && waited < SETTLE_MAX_MS) {
		sleep_ms(SETTLE_MS);
		waited += SETTLE_MS;
		now = each_device(NULL, NULL);
		same = now == last ? same + 1 : 0;
		last = now;
	}
}

/*
 * One round: the modules the devices' modaliases ask for that were not
 * tried, loaded in name order.  Returns how many were tried.
 */
static size_t round_of(struct table *t, struct loads *loads)
{
	struct modaliases m = { 0 };
	const char **cause = calloc(t->nr_modules, sizeof(*cause));
	size_t i, k, tried = 0;

	each_device(read_modalias, &m);
	if (m.v)
		qsort(m.v, m.nr, sizeof(*m.v), string_cmp);
	/* a device of a bus and a class is seen twice: once is enough */
	for (i = 1; i < m.nr; i++)
		if (m.v[i] && m.v[i - 1] && !strcmp(m.v[i], m.v[i - 1])) {
			free(m.v[i - 1]);
			m.v[i - 1] = NULL;
		}
	for (i = 0; cause && i < m.nr; i++)
		for (k = 0; m.v[i] && k < t->nr_aliases; k++) {
			struct module *mod = find_module(t, t->aliases[k].module);
			size_t at = mod ? (size_t)(mod - t->modules) : 0;

			if (mod && !mod->tried && !cause[at] &&
			    !fnmatch(t->aliases[k].pattern, m.v[i], 0))
				cause[at] = m.v[i];
		}
	for (i = 0; cause && i < t->nr_modules; i++) {
		struct module *mod = &t->modules[i];

		if (!cause[i])
			continue;
		/* name order: the table comes sorted */
		load(t, mod, STREAM_LOAD_DEVICE, cause[i], loads);
		tried++;
	}
	for (i = 0; i < m.nr; i++)
		free(m.v[i]);
	free(m.v);
	free(cause);
	return tried;
}

/*
 * The modules the machine loads whatever its devices, as a system's
 * /etc/modules does (zram, the MTD RAM device), in the table's order,
 * before the devices' rounds.
 */
static void load_boot_modules(struct table *t, struct loads *loads)
{
	struct module *m;
	size_t i;

	for (i = 0; i < t->nr_boots; i++) {
		m = find_module(t, t->boots[i].module);
		if (!m)
			continue;
		m->params = t->boots[i].params;
		load(t, m, STREAM_LOAD_BOOT, "machine", loads);
	}
}

size_t coldplug(struct loads *loads)
{
	struct table t = { 0 };
	size_t rounds, loaded = 0, i;

	if (read_table(&t)) {
		free_table(&t);
		return 0;
	}
	load_boot_modules(&t, loads);
	for (rounds = 0; rounds < MAX_ROUNDS && round_of(&t, loads); rounds++)
		settle();
	for (i = 0; i < loads->nr; i++)
		loaded += !loads->v[i].err;
	free_table(&t);
	return loaded;
}

static int load_cmp(const void *pa, const void *pb)
{
	const struct load *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

/* Each line of the log: "NAME HOW ERR CAUSE". */
void coldplug_requests(struct loads *loads)
{
	FILE *f = fopen(COLDPLUG_REQUESTS, "re");
	char line[COLDPLUG_NAME_MAX + COLDPLUG_CAUSE_MAX + 32];
	char name[COLDPLUG_NAME_MAX], cause[COLDPLUG_CAUSE_MAX];
	unsigned int how;
	int err;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %u %d %255s", name, &how, &err, cause) == 4 &&
		    how <= STREAM_LOAD_MAX)
			add_load(loads, name, how, err, cause);
	if (f)
		fclose(f);
	if (loads->nr)
		qsort(loads->v, loads->nr, sizeof(*loads->v), load_cmp);
}

/* The module @name names, as a module or through an alias. */
static struct module *resolve(struct table *t, const char *name)
{
	char norm[COLDPLUG_NAME_MAX], *p;
	size_t i;

	snprintf(norm, sizeof(norm), "%s", name);
	for (p = norm; *p; p++)
		if (*p == '-')
			*p = '_';
	if (find_module(t, norm))
		return find_module(t, norm);
	for (i = 0; i < t->nr_aliases; i++)
		if (!fnmatch(t->aliases[i].pattern, name, 0))
			return find_module(t, t->aliases[i].module);
	return NULL;
}

int modprobe_main(int argc, char **argv)
{
	struct loads loads = { 0 };
	struct table t = { 0 };
	struct module *m;
	const char *name = argc > 1 ? argv[argc - 1] : NULL;
	FILE *log;
	size_t i;
	int err = 1;

	if (!name || read_table(&t))
		goto out;
	m = resolve(&t, name);
	if (!m)
		goto out;
	err = load(&t, m, STREAM_LOAD_REQUEST, name, &loads) ? 1 : 0;
	log = fopen(COLDPLUG_REQUESTS, "ae");
	for (i = 0; log && i < loads.nr; i++)
		fprintf(log, "%s %u %d %s\n", loads.v[i].name, loads.v[i].how,
			loads.v[i].err, loads.v[i].cause);
	if (log)
		fclose(log);
out:
	free(loads.v);
	free_table(&t);
	return err;
}
