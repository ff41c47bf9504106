/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The What: pattern index: which Documentation/ABI entries document a path.
 *
 * Patterns are compiled once into a trie of path components; a path is then
 * matched one component at a time, in time proportional to its length and
 * to the patterns each component advances, not to the number of patterns.
 * The grammar, the index and what its cost depends on are described at the
 * top of what-index.c.
 *
 * Matching is incremental, so a tree walk can carry a cursor down the tree
 * and stop descending where no pattern can match any more: start from
 * what_index__root(), what_index__step() once per component, and read the
 * entries of the patterns that end at a cursor with what_cursor__entries().
 * Add every pattern before the first step: a cursor keeps some of the
 * index's edges with it.
 */
#ifndef KABIDIFF_WHAT_INDEX_H
#define KABIDIFF_WHAT_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct what_index;
struct what_node;
struct what_frame;

/*
 * A set of positions in the trie: the patterns that are still alive after
 * the components seen so far.  Owned by the caller; what_cursor__init() it
 * before first use and what_cursor__release() it at the end.  The positions
 * that a "..." keeps alive are in @frame, shared with the cursors stepped
 * from this one and counted: cursors may be released in any order.
 */
struct what_cursor {
	const struct what_node **v;	/* those the last component reached */
	size_t nr;
	size_t alloc;
	struct what_frame *frame;	/* the "..." ones, or NULL */
};

/* The longest brace expansion of one pattern: {a,b}{c,d} is 4. */
#define WHAT_MAX_EXPANSION	256
/* The most {...} groups one pattern may hold, nested or in a row. */
#define WHAT_MAX_BRACES		32

/* what_index__new() - an empty index, or NULL (ENOMEM). */
struct what_index *what_index__new(void);

/* what_index__free() - free @idx; NULL is a no-op. */
void what_index__free(struct what_index *idx);

/*
 * what_index__add() - compile @pattern and add it for entry @id.
 *
 * @id must be below 2^31.
 * Returns 0, -ENOMEM, or -EINVAL when @pattern cannot be parsed; *@why (if
 * not NULL) then points to a static string saying what is wrong.
 */
int what_index__add(struct what_index *idx, const char *pattern, uint32_t id,
		    const char **why);

/*
 * what_pattern__check() - whether @pattern parses: 0, or -EINVAL with a static
 * reason in *@why.  Adds nothing anywhere.
 */
int what_pattern__check(const char *pattern, const char **why);

void what_cursor__init(struct what_cursor *c);
void what_cursor__release(struct what_cursor *c);

/* what_cursor__empty() - true when no pattern can match below @c. */
bool what_cursor__empty(const struct what_cursor *c);

/* what_cursor__size() - how many trie nodes @c holds. */
size_t what_cursor__size(const struct what_cursor *c);

/*
 * what_cursor__hash() - a hash of the trie nodes of @c: the same for
 * cursors that hold the same nodes, however they came by them.
 */
uint64_t what_cursor__hash(const struct what_cursor *c);

/*
 * what_cursor__same() - whether @a and @b, cursors of one index, hold the
 * same trie nodes, and so match the same patterns below.
 */
bool what_cursor__same(const struct what_cursor *a, const struct what_cursor *b);

/*
 * what_cursor__copy() - make @to (initialised) hold the nodes of @from.
 * Returns 0 or -ENOMEM.
 */
int what_cursor__copy(struct what_cursor *to, const struct what_cursor *from);

/* what_index__root() - set @c to the start of every pattern; 0 or -ENOMEM. */
int what_index__root(const struct what_index *idx, struct what_cursor *c);

/*
 * what_index__step() - advance @from over one path component (@len bytes at
 * @comp, no '/') into @to, which is overwritten.  @to and @from must differ.
 * Returns 0 or -ENOMEM.
 */
int what_index__step(const struct what_index *idx,
		     const struct what_cursor *from, const char *comp,
		     size_t len, struct what_cursor *to);

/*
 * The callback that hears of a match: @id of the pattern's entry, and
 * @dir_only when the pattern ends in '/' and so documents a directory only.
 */
typedef void (*what_match_fn)(uint32_t id, bool dir_only, void *ctx);

/*
 * what_cursor__entries() - call @fn for each pattern that ends at @c, that
 * is, matches the whole path stepped so far.  An id can come more than once.
 */
void what_cursor__entries(const struct what_cursor *c, what_match_fn fn,
			  void *ctx);

/*
 * what_index__match() - match the whole absolute @path: call @fn for each
 * entry documenting it.  Returns 0 or -ENOMEM.
 */
int what_index__match(const struct what_index *idx, const char *path,
		      what_match_fn fn, void *ctx);

#endif /* KABIDIFF_WHAT_INDEX_H */
