/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vmlinux opened for reading: its ELF header checked, its symbol table
 * indexed by name and by address, its bytes readable by virtual address.
 * Private to the vmlinux collector.
 */
#ifndef KABIDIFF_KIMAGE_H
#define KABIDIFF_KIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>

struct ksym {
	const char *name;	/* in the ELF string table (owned by @elf) */
	uint64_t addr;
	uint64_t size;
	bool weak;		/* STB_WEAK: a default that nothing overrode */
};

struct kimage {
	const char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	struct ksym *by_addr;	/* function and object symbols, by address */
	struct ksym *by_name;	/* the same, by name */
	size_t nr_syms;
};

/*
 * kimage__open() - open @path as a 64-bit x86 vmlinux with a symbol table.
 * Returns 0 or -errno, reported through kabi_pr() with what to do about it
 * (a bzImage is not a vmlinux, another architecture is not supported, ...);
 * but -ENOMEM is not reported, vmlinux__collect() says it once for all.
 */
int kimage__open(struct kimage *k, const char *path);

/* kimage__close() - release what kimage__open() took; safe on a failed open. */
void kimage__close(struct kimage *k);

/* kimage__sym() - the symbol named @name, or NULL. */
const struct ksym *kimage__sym(const struct kimage *k, const char *name);

/*
 * kimage__sym_at() - a symbol whose value is exactly @addr, or NULL; of
 * several, one whose name starts with @prefer if there is one.
 */
const struct ksym *kimage__sym_at(const struct kimage *k, uint64_t addr,
				  const char *prefer);

/*
 * kimage__read() - copy @len bytes at virtual address @addr into @buf.
 * Returns 0, or -EFAULT when no section holds them (or they are NOBITS).
 */
int kimage__read(const struct kimage *k, uint64_t addr, void *buf, size_t len);

/*
 * kimage__read_string() - the NUL-terminated string at @addr, at most @max
 * bytes of it, malloc()ed; "" when no section holds @addr; NULL (ENOMEM).
 */
char *kimage__read_string(const struct kimage *k, uint64_t addr, size_t max);

/*
 * kimage__build_id() - the GNU build id as lower-case hex in @buf (room for
 * 2 * 64 + 1 bytes).  Returns 0 or -ENOENT.
 */
int kimage__build_id(const struct kimage *k, char *buf, size_t size);

#endif /* KABIDIFF_KIMAGE_H */
