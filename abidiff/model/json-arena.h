/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsing a large JSON document whose tree is thrown away soon after:
 * jansson's values allocated from large blocks of the calling thread,
 * freed at once (json-arena.c says why).
 */
#ifndef KABIDIFF_JSON_ARENA_H
#define KABIDIFF_JSON_ARENA_H

#include <stddef.h>

#include <jansson.h>

/*
 * json_arena__install() - make jansson allocate through the arena, and
 * seed its hash tables: once, at start-up, before there is a thread or a
 * JSON value (jansson asks both to be set before threads use it).
 */
void json_arena__install(void);

/*
 * json_arena__loadb() - json_loadb(), in the calling thread's arena when
 * it is installed.  Give the tree back with json_arena__release(), never
 * json_decref(); one tree a thread at a time.
 */
json_t *json_arena__loadb(const char *buf, size_t len, size_t flags,
			  json_error_t *jerr);

/* json_arena__release() - free @root, a tree of json_arena__loadb(). */
void json_arena__release(json_t *root);

#endif /* KABIDIFF_JSON_ARENA_H */
