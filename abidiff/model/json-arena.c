// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <jansson.h>

#include "json-arena.h"

/*
 * jansson allocates every JSON value, string and hash table on its own, and
 * frees them one by one: for a snapshot of 20,000 nodes that allocating and
 * freeing took more time than the parsing.  The parsed tree lives only
 * until it is converted to the model, so while a snapshot is loaded jansson
 * allocates from large blocks instead, freed all at once.
 *
 * jansson's allocator is one for the process, and two threads may load a
 * snapshot each (kabidiff diff loads OLD and NEW side by side): setting it
 * for each load and back would switch it under the other thread's feet.
 * So the program sets it once, json_arena__install(), to functions that
 * use the arena of the calling thread while it loads, and malloc() and
 * free(), jansson's own, otherwise.  Where it is not installed (a test, a
 * fuzzer that does not), a load is jansson's as usual.
 *
 * The two trees of kabidiff diff's Debian snapshots take 70 MB, fresh
 * memory: in pages of 4 KiB that was 17,000 page faults, a tenth of the
 * run's CPU time.  The blocks are aligned to and asked for transparent huge
 * pages (madvise(), a hint the kernel may ignore): a fault per 2 MiB.
 */
#define ARENA_ALIGN	((size_t)2 << 20)	/* a huge page on x86-64 */
#define ARENA_BLOCK	((size_t)4 << 20)	/* its header included */

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

/* The calling thread's arena while it loads a snapshot. */
static __thread struct arena_block *arena;
static __thread bool arena_on;

static void *arena_malloc(size_t size)
{
	struct arena_block *b = arena;
	size_t need = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	void *p;

	if (!b || b->size - b->used < need) {
		size_t bytes = sizeof(*b) + need;

		bytes = bytes > ARENA_BLOCK ?
			(bytes + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1) :
			ARENA_BLOCK;
		b = aligned_alloc(ARENA_ALIGN, bytes);
		if (!b)
			return NULL;
		madvise(b, bytes, MADV_HUGEPAGE);
		b->size = bytes - sizeof(*b);
		b->used = 0;
		/* a block for one large request goes second, the first keeps room */
		if (arena && bytes > ARENA_BLOCK) {
			b->next = arena->next;
			arena->next = b;
		} else {
			b->next = arena;
			arena = b;
		}
	}
	p = (char *)b->data + b->used;
	b->used += need;
	return p;
}

static void arena_release(void)
{
	while (arena) {
		struct arena_block *next = arena->next;

		free(arena);
		arena = next;
	}
}

static void *json_alloc(size_t size)
{
	return arena_on ? arena_malloc(size) : malloc(size);
}

static void json_free(void *p)
{
	if (!arena_on)
		free(p);	/* the arena's go in arena_release() */
}

static bool installed;

void json_arena__install(void)
{
	json_object_seed(0);
	json_set_alloc_funcs(json_alloc, json_free);
	installed = true;
}

json_t *json_arena__loadb(const char *buf, size_t len, size_t flags,
			  json_error_t *jerr)
{
	json_t *root;

	arena_on = installed;
	root = json_loadb(buf, len, flags, jerr);
	arena_on = false;
	return root;
}

void json_arena__release(json_t *root)
{
	if (installed)
		arena_release();	/* json_decref() would free nothing */
	else
		json_decref(root);
}
