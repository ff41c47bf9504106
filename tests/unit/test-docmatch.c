// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for docmatch.c: real paths, aliases through links, loops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match/docmatch.h"

static void node(struct snapshot *s, const char *path, enum node_kind kind,
		 const char *target)
{
	struct sysfs_node *n = snapshot__add_sysfs_node(s);

	n->path = strdup(path);
	n->kind = kind;
	n->target = target ? strdup(target) : NULL;
}

static void doc(struct snapshot *s, enum abi_level level, const char *file,
		const char *what)
{
	struct doc_entry *d = snapshot__add_doc(s);

	d->level = level;
	d->file = strdup(file);
	d->line = 1;
	assert_int_equal(doc_entry__add_what(d, what), 0);
}

/*
 * A small sysfs: a device with attributes, a class link to it, a link from
 * inside the device back up to its parent (a loop through links), and a
 * link to a file.
 */
static struct snapshot *tree(void)
{
	struct snapshot *s = snapshot__new();

	node(s, "/sys", NODE_DIR, NULL);
	node(s, "/sys/devices", NODE_DIR, NULL);
	node(s, "/sys/devices/pci0", NODE_DIR, NULL);
	node(s, "/sys/devices/pci0/vendor", NODE_FILE, NULL);
	node(s, "/sys/devices/pci0/net", NODE_DIR, NULL);
	node(s, "/sys/devices/pci0/net/eth0", NODE_DIR, NULL);
	node(s, "/sys/devices/pci0/net/eth0/mtu", NODE_FILE, NULL);
	node(s, "/sys/devices/pci0/net/eth0/secret", NODE_FILE, NULL);
	node(s, "/sys/devices/pci0/net/eth0/device", NODE_LINK, "../../../pci0");
	node(s, "/sys/devices/pci0/net/eth0/back", NODE_LINK, "../eth0");
	node(s, "/sys/class", NODE_DIR, NULL);
	node(s, "/sys/class/net", NODE_DIR, NULL);
	node(s, "/sys/class/net/eth0", NODE_LINK,
	     "../../devices/pci0/net/eth0");
	node(s, "/sys/class/net/broken", NODE_LINK, "../../nowhere");
	node(s, "/sys/kernel", NODE_DIR, NULL);
	node(s, "/sys/kernel/mtu_alias", NODE_LINK,
	     "/sys/devices/pci0/net/eth0/mtu");
	assert_int_equal(snapshot__sort(s, "test"), 0);
	return s;
}

static int32_t entry_of(const struct snapshot *t, const int32_t *entry,
			const char *path)
{
	size_t i;

	for (i = 0; i < t->sysfs.nr; i++)
		if (!strcmp(t->sysfs.v[i].path, path))
			return entry[i];
	fail_msg("no node %s", path);
	return -2;
}

static void test_aliases(void **state)
{
	struct snapshot *t = tree(), *d = snapshot__new();
	int32_t entry[32];

	doc(d, LEVEL_TESTING, "a", "/sys/class/net/<iface>/mtu");
	doc(d, LEVEL_STABLE, "b", "/sys/devices/pci0/vendor");
	doc(d, LEVEL_TESTING, "c", "/sys/class/net/<iface>/");
	doc(d, LEVEL_TESTING, "d", "/sys/class/net/<iface>/secret/");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	assert_int_equal(docmatch__run(t, d, entry), 0);

	/* through the class link: the real node is documented */
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/net/eth0/mtu"), 0);
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/vendor"), 1);
	/* a directory pattern documents the directory and the link to it */
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/net/eth0"), 2);
	assert_int_equal(entry_of(t, entry, "/sys/class/net/eth0"), 2);
	/* ... but not a file of that name */
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/net/eth0/secret"), -1);
	/* a name through two links is not followed */
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/net"), -1);
	snapshot__free(t);
	snapshot__free(d);
}

/* The most stable entry wins, whatever name matched it. */
static void test_best_level(void **state)
{
	struct snapshot *t = tree(), *d = snapshot__new();
	int32_t entry[32];

	doc(d, LEVEL_OBSOLETE, "a", "/sys/devices/pci0/net/eth0/mtu");
	doc(d, LEVEL_STABLE, "b", "/sys/class/net/eth0/mtu");
	doc(d, LEVEL_TESTING, "c", "/sys/devices/.../mtu");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	assert_int_equal(docmatch__run(t, d, entry), 0);
	assert_int_equal(d->docs.v[entry_of(t, entry, "/sys/devices/pci0/net/eth0/mtu")].level,
			 LEVEL_STABLE);
	snapshot__free(t);
	snapshot__free(d);
}

/*
 * Docs compiled once match each tree as docmatch__run_hits() does: the
 * index is only read, so the second tree finds what it would alone.
 */
static void test_docs_compiled_once(void **state)
{
	struct snapshot *t = tree(), *d = snapshot__new();
	struct docmatch_hits once[2] = { 0 }, alone = { 0 };
	int32_t entry[2][32], entry_alone[32];
	struct docmatch_docs *dd;
	int k;

	doc(d, LEVEL_TESTING, "a", "/sys/class/net/<iface>/mtu");
	doc(d, LEVEL_STABLE, "b", "/sys/devices/.../vendor");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	dd = docmatch_docs__new(d);
	assert_non_null(dd);
	for (k = 0; k < 2; k++)
		assert_int_equal(docmatch_docs__run(dd, t, entry[k], &once[k]), 0);
	docmatch_docs__free(dd);
	assert_int_equal(docmatch__run_hits(t, d, entry_alone, &alone), 0);
	for (k = 0; k < 2; k++) {
		assert_memory_equal(entry[k], entry_alone,
				    t->sysfs.nr * sizeof(*entry_alone));
		assert_int_equal(once[k].nr, alone.nr);
		assert_memory_equal(once[k].v, alone.v, alone.nr * sizeof(*alone.v));
		docmatch_hits__release(&once[k]);
	}
	assert_int_equal(entry_of(t, entry_alone, "/sys/devices/pci0/vendor"), 1);
	docmatch_hits__release(&alone);
	docmatch_docs__free(NULL);
	snapshot__free(t);
	snapshot__free(d);
}

/*
 * Every (node, entry, What:) match is a hit, the chosen entry's and the
 * others', by the real path and by an alias, once each.
 */
static void test_hits(void **state)
{
	struct snapshot *t = tree(), *d = snapshot__new();
	struct docmatch_hits hits = { 0 };
	int32_t entry[32], mtu = -1;
	size_t i, n = 0;
	struct doc_entry *e;

	doc(d, LEVEL_TESTING, "a", "/sys/class/net/<iface>/secret");
	e = &d->docs.v[0];
	assert_int_equal(doc_entry__add_what(e, "/sys/class/net/<iface>/mtu"), 0);
	assert_int_equal(doc_entry__add_what(e, "/sys/devices/.../mtu"), 0);
	doc(d, LEVEL_STABLE, "b", "/sys/devices/pci0/net/eth0/mtu");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	assert_int_equal(docmatch__run_hits(t, d, entry, &hits), 0);
	for (i = 0; i < t->sysfs.nr; i++)
		if (!strcmp(t->sysfs.v[i].path, "/sys/devices/pci0/net/eth0/mtu"))
			mtu = i;
	assert_int_equal(d->docs.v[entry[mtu]].level, LEVEL_STABLE);
	for (i = 0; i < hits.nr; i++) {
		const struct docmatch_hit *h = &hits.v[i];

		if (i)
			assert_true(h[-1].node < h->node ||
				    (h[-1].node == h->node &&
				     (h[-1].entry < h->entry ||
				      (h[-1].entry == h->entry &&
				       h[-1].what < h->what))));
		if (h->node != mtu)
			continue;
		n++;
		assert_string_equal(d->docs.v[h->entry].what[h->what],
				    d->docs.v[h->entry].level == LEVEL_STABLE ?
				    "/sys/devices/pci0/net/eth0/mtu" :
				    n == 1 ? "/sys/class/net/<iface>/mtu" :
				    "/sys/devices/.../mtu");
	}
	/* the testing entry's two lines that match, the stable one's */
	assert_int_equal(n, 3);
	docmatch_hits__release(&hits);
	snapshot__free(t);
	snapshot__free(d);
}

/*
 * "..." patterns that overlap, spelt alike or not: every one that matches
 * is a hit, once, and the most stable entry, then the first, wins.
 */
static void test_overlapping_globstars(void **state)
{
	static const char *const want[] = { "a", "b", "c", "d", "f" };
	struct snapshot *t = tree(), *d = snapshot__new();
	struct docmatch_hits hits = { 0 };
	int32_t entry[32], mtu;
	size_t i, n = 0;

	doc(d, LEVEL_TESTING, "a", "/sys/devices/<x>/.../mtu");
	doc(d, LEVEL_OBSOLETE, "b", "/sys/devices/<y>/.../mtu");
	doc(d, LEVEL_STABLE, "c", "/sys/devices/[p]ci0/.../eth0/mtu");
	doc(d, LEVEL_TESTING, "d", "/sys/.../net/.../mtu");
	doc(d, LEVEL_STABLE, "e", "/sys/devices/.../secret");
	doc(d, LEVEL_STABLE, "f", "/sys/devices/[o-q]ci0/.../mtu");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	assert_int_equal(docmatch__run_hits(t, d, entry, &hits), 0);
	mtu = entry_of(t, entry, "/sys/devices/pci0/net/eth0/mtu");
	assert_string_equal(d->docs.v[mtu].file, "c");
	for (i = 0; i < t->sysfs.nr; i++)
		if (!strcmp(t->sysfs.v[i].path, "/sys/devices/pci0/net/eth0/mtu"))
			mtu = i;
	for (i = 0; i < hits.nr; i++) {
		if (hits.v[i].node != mtu)
			continue;
		assert_true(n < 5);
		assert_string_equal(d->docs.v[hits.v[i].entry].file, want[n]);
		n++;
	}
	assert_int_equal(n, 5);
	assert_string_equal(d->docs.v[entry_of(t, entry,
						"/sys/devices/pci0/net/eth0/secret")].file, "e");
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/vendor"), -1);
	docmatch_hits__release(&hits);
	snapshot__free(t);
	snapshot__free(d);
}

/* Links in a loop, a link to a file, a dangling link: all end. */
static void test_loops(void **state)
{
	struct snapshot *t = tree(), *d = snapshot__new();
	int32_t entry[32];

	doc(d, LEVEL_TESTING, "a", "/sys/.../mtu");
	doc(d, LEVEL_TESTING, "b", "/sys/kernel/mtu_alias");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	assert_int_equal(docmatch__run(t, d, entry), 0);
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/net/eth0/mtu"), 0);
	assert_int_equal(entry_of(t, entry, "/sys/kernel/mtu_alias"), 1);
	assert_int_equal(entry_of(t, entry, "/sys/class/net/broken"), -1);
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/vendor"), -1);
	snapshot__free(t);
	snapshot__free(d);
}

/* No prefix matches: a pattern for a directory is not one for its files. */
static void test_anchoring(void **state)
{
	struct snapshot *t = tree(), *d = snapshot__new();
	int32_t entry[32];

	doc(d, LEVEL_TESTING, "a", "/sys/devices/pci0");
	doc(d, LEVEL_TESTING, "b", "/sys/devices/pci0/vendo");
	assert_int_equal(snapshot__sort(d, "test"), 0);
	assert_int_equal(docmatch__run(t, d, entry), 0);
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0"), 0);
	assert_int_equal(entry_of(t, entry, "/sys/devices/pci0/vendor"), -1);
	snapshot__free(t);
	snapshot__free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_best_level),
		cmocka_unit_test(test_hits),
		cmocka_unit_test(test_docs_compiled_once),
		cmocka_unit_test(test_overlapping_globstars),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_anchoring),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
