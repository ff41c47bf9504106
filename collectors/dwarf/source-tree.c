// SPDX-License-Identifier: GPL-2.0-only
/*
 * Declaring files relative to the top of the kernel source tree.
 *
 * DWARF gives a declaration's file as an index into its unit's file table
 * (DW_AT_decl_file), whose names libdw joins with their directories, the
 * unit's DW_AT_comp_dir standing for directory 0.  Kernels spell those
 * paths in several ways:
 *
 * - a build with O= and an absolute source tree (kabidiff's fixture
 *   kernels): the unit was compiled in the build directory, comp_dir
 *   "/cache/kabi-build", and names the tree's files absolutely,
 *   "/cache/kabi-linux/fs/stat.c", "/cache/kabi-linux/include/linux/types.h";
 * - Debian's packages, built with O=debian/build/build_amd64_none_amd64
 *   inside the tree and the tree's path mapped to nothing
 *   (-fdebug-prefix-map): comp_dir "debian/build/build_amd64_none_amd64" and
 *   names relative to the top, "fs/read_write.c", though a relative name
 *   should be relative to comp_dir; the assembler's units kept absolute
 *   names, "/build/reproducible-path/linux-6.1.192/arch/x86/lib/memcpy_64.S";
 * - a build in the tree: comp_dir the top, names relative to it;
 * - in all of them, the headers a build generates are named relative to
 *   the build directory, "./arch/x86/include/generated/asm/syscalls_64.h",
 *   and GCC's own types come from "<built-in>", which is no file.
 *
 * So the top cannot be read off comp_dir.  It is learnt instead from one
 * unit whose file the collector knows, init/main.c for a vmlinux,
 * arch/x86/entry/vdso/vclock_gettime.c for a vDSO image: the name of that
 * unit is the top as every unit spells it, followed by the file,
 * "/cache/kabi-linux/init/main.c", "init/main.c" (a top of "": names are
 * relative to it) or "../init/main.c".  A path is then, after lexical
 * normalisation (no ".", "..", or "//": "vdso32/../vclock_gettime.c" is
 * "vclock_gettime.c"; links are not followed, the files need not be here):
 *
 * 1. below comp_dir, the build directory: the rest, which is where a
 *    generated file would be in a build without O=;
 * 2. else below the top: the rest;
 * 3. else relative and not climbing out ("./lib/crc32table.h"): itself,
 *    relative to comp_dir as DWARF means it, and so relative to the top
 *    when names are (Debian's);
 * 4. else (a compiler's header under /usr/lib/gcc, an absolute path of an
 *    assembler's unit that the map missed): no file.
 *
 * Rule 1 goes first since a build directory may lie inside the tree, where
 * rule 2 would give "debian/build/build_amd64_none_amd64/include/generated/...".
 * Without a known top (a file without init/main.c: the test fixtures),
 * rules 1, 3 and 4 alone make paths relative to comp_dir.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "source-tree.h"

/*
 * @path lexically normalised, malloc()ed: no empty or "." component, ".."
 * only at the start of a relative path, no final "/"; "a/./b//c/../d" is
 * "a/b/d", "/x/../../y" is "/y", "./../a" is "../a", "." is "".  NULL
 * (ENOMEM).
 */
static char *normalise(const char *path)
{
	bool absolute = *path == '/';
	char *out = malloc(strlen(path) + 1);
	size_t len = absolute, parts = 0, ups = 0;

	if (!out)
		return NULL;
	out[0] = '/';
	while (*path) {
		size_t n = strcspn(path, "/");
		bool up = n == 2 && !strncmp(path, "..", 2);

		if (up && parts > ups) {
			/* drop the last component, and the "/" before it */
			while (len > absolute && out[len - 1] != '/')
				len--;
			if (len > absolute)
				len--;
			parts--;
		} else if (n && !(n == 1 && *path == '.') && !(up && absolute)) {
			if (parts)
				out[len++] = '/';
			memcpy(out + len, path, n);
			len += n;
			parts++;
			ups += up;
		}
		path += n;
		path += *path == '/';
	}
	out[len] = '\0';
	return out;
}

/*
 * @path relative to @dir, both normalised, when it lies below it; else
 * NULL.  Below "" are the relative paths that do not climb out of it, and
 * "../../x" is not below "..".
 */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	const char *rest;

	if (n && (strncmp(path, dir, n) || path[n] != '/'))
		return NULL;
	rest = n ? path + n + 1 : path;
	if (*rest == '/' || !strcmp(rest, "..") || !strncmp(rest, "../", 3))
		return NULL;
	return rest;
}

int source_tree__find(struct source_tree *t, Dwarf *dw, const char *file)
{
	size_t header, len, n = strlen(file), cut;
	Dwarf_Off off = 0, next;
	Dwarf_Die cu;
	char *name;

	for (; !dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL);
	     off = next) {
		if (!dwarf_offdie(dw, off + header, &cu) || !dwarf_diename(&cu))
			continue;
		name = normalise(dwarf_diename(&cu));
		if (!name)
			return -ENOMEM;
		len = strlen(name);
		cut = len - n;	/* where the top ends, at its "/" */
		if (len >= n && !strcmp(name + cut, file) &&
		    (!cut || name[cut - 1] == '/')) {
			name[cut > 1 ? cut - 1 : cut] = '\0';	/* "/" stays */
			t->top = name;
			return 0;
		}
		free(name);
	}
	return 0;
}

void source_tree__release(struct source_tree *t)
{
	free(t->top);
	t->top = NULL;
}

/* Whether @rel, a normalised relative path, names a file: not "<built-in>". */
static bool names_file(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return *rel && *(slash ? slash + 1 : rel) != '<';
}

int source_tree__path(const struct source_tree *t, const char *comp_dir,
		      const char *path, char **out)
{
	char *p = normalise(path), *dir = comp_dir ? normalise(comp_dir) : NULL;
	const char *rel = NULL;
	int err = 0;

	*out = NULL;
	if (!p || (comp_dir && !dir)) {
		err = -ENOMEM;
		goto out_free;
	}
	if (dir)
		rel = below(p, dir);
	if (!rel && t->top)
		rel = below(p, t->top);
	if (!rel)
		rel = below(p, "");
	if (rel && names_file(rel)) {
		*out = strdup(rel);
		if (!*out)
			err = -ENOMEM;
	}
out_free:
	free(p);
	free(dir);
	return err;
}

int source_tree__decl_file(const struct source_tree *t, Dwarf_Die *die,
			   char **out)
{
	Dwarf_Attribute attr, comp_dir;
	Dwarf_Files *files;
	Dwarf_Word index;
	const char *path;
	Dwarf_Die cu;

	*out = NULL;
	/* the index is into the table of the unit that holds the attribute */
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &attr) ||
	    dwarf_formudata(&attr, &index) ||
	    !dwarf_cu_die(attr.cu, &cu, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, NULL))
		return 0;
	path = dwarf_filesrc(files, index, NULL, NULL);
	if (!path)
		return 0;
	return source_tree__path(t, dwarf_formstring(dwarf_attr(&cu,
				 DW_AT_comp_dir, &comp_dir)), path, out);
}
