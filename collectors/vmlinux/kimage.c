// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF side of a vmlinux, with libelf: the canonical open/check/close
 * sequence (tools/lib/bpf/btf.c, btf_parse_elf()), symbols, bytes by
 * address and the build id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libelf.h>

#include "collectors/dwarf/elf.h"
#include "lib/print.h"
#include "kimage.h"

static int ksym_addr_cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static int ksym_name_cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

/* What a file that is not an ELF vmlinux most likely is. */
static void explain_not_elf(const char *path, int fd)
{
	unsigned char hdr[0x210];
	ssize_t n = pread(fd, hdr, sizeof(hdr), 0);

	if (n >= 4 && !memcmp(hdr, ELFMAG, SELFMAG))
		pr_err("%s: a truncated or damaged ELF file", path);
	else if (n >= 0x206 && !memcmp(hdr + 0x202, "HdrS", 4))
		pr_err("%s: a compressed kernel image (bzImage), not a vmlinux; use the vmlinux of the build directory, or for Debian's kernels the one in linux-image-*-dbg (usr/lib/debug/boot/vmlinux-*)",
		       path);
	else if (n == 0)
		pr_err("%s: empty file, not a vmlinux", path);
	else
		pr_err("%s: not an ELF file, so not a vmlinux", path);
}

/* Every section's bytes must be in the file: a cut-off copy is refused. */
static int check_size(struct kimage *k)
{
	struct stat st;
	int err;

	if (fstat(k->fd, &st)) {
		err = -errno;
		pr_err("%s: %s", k->path, strerror(-err));
		return err;
	}
	if (elf_is_complete(k->elf, &k->ehdr, st.st_size))
		return 0;
	pr_err("%s: truncated: the ELF headers describe more than its %lld bytes",
	       k->path, (long long)st.st_size);
	return -EINVAL;
}

static int check_header(struct kimage *k)
{
	if (elf_kind(k->elf) != ELF_K_ELF) {
		explain_not_elf(k->path, k->fd);
		return -EINVAL;
	}
	if (!gelf_getehdr(k->elf, &k->ehdr)) {
		pr_err("%s: truncated or damaged ELF header: %s", k->path,
		       elf_errmsg(-1));
		return -EINVAL;
	}
	if (k->ehdr.e_ident[EI_CLASS] != ELFCLASS64 ||
	    k->ehdr.e_machine != EM_X86_64) {
		pr_err("%s: a %s ELF for machine %u; only x86_64 vmlinux files are supported",
		       k->path,
		       k->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? "64-bit" : "32-bit",
		       k->ehdr.e_machine);
		return -EPROTONOSUPPORT;
	}
	return check_size(k);
}

static Elf_Scn *find_section(Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

/* Index the function and object symbols of .symtab by name and address. */
static int load_symbols(struct kimage *k)
{
	Elf_Scn *scn = find_section(k->elf, SHT_SYMTAB);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Shdr sh;
	size_t i, n;

	if (!data || !gelf_getshdr(scn, &sh)) {
		pr_err("%s: no symbol table (.symtab): was it stripped? kabidiff needs an unstripped vmlinux",
		       k->path);
		return -ENOENT;
	}
	n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	k->by_addr = calloc(n + 1, sizeof(*k->by_addr));
	k->by_name = calloc(n + 1, sizeof(*k->by_name));
	if (!k->by_addr || !k->by_name)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(k->elf, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		k->by_addr[k->nr_syms].name = name;
		k->by_addr[k->nr_syms].addr = sym.st_value;
		k->by_addr[k->nr_syms].size = sym.st_size;
		k->by_addr[k->nr_syms++].weak = GELF_ST_BIND(sym.st_info) == STB_WEAK;
	}
	memcpy(k->by_name, k->by_addr, k->nr_syms * sizeof(*k->by_name));
	qsort(k->by_addr, k->nr_syms, sizeof(*k->by_addr), ksym_addr_cmp);
	qsort(k->by_name, k->nr_syms, sizeof(*k->by_name), ksym_name_cmp);
	return 0;
}

int kimage__open(struct kimage *k, const char *path)
{
	struct stat st;
	int err;

	memset(k, 0, sizeof(*k));
	k->path = path;
	k->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (k->fd < 0 || fstat(k->fd, &st)) {
		err = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		pr_err("%s: a directory, not a vmlinux", path);
		return -EISDIR;
	}
	elf_version(EV_CURRENT);
	k->elf = elf_begin(k->fd, ELF_C_READ_MMAP, NULL);
	if (!k->elf) {
		explain_not_elf(path, k->fd);
		return -EINVAL;
	}
	err = check_header(k);
	if (!err)
		err = load_symbols(k);
	return err;
}

void kimage__close(struct kimage *k)
{
	free(k->by_addr);
	free(k->by_name);
	if (k->elf)
		elf_end(k->elf);
	if (k->fd > 0)
		close(k->fd);
	memset(k, 0, sizeof(*k));
}

const struct ksym *kimage__sym(const struct kimage *k, const char *name)
{
	struct ksym key = { .name = name };

	return bsearch(&key, k->by_name, k->nr_syms, sizeof(key), ksym_name_cmp);
}

const struct ksym *kimage__sym_at(const struct kimage *k, uint64_t addr,
				  const char *prefer)
{
	struct ksym key = { .addr = addr };
	const struct ksym *hit, *p, *end = k->by_addr + k->nr_syms;
	size_t len = strlen(prefer);

	hit = bsearch(&key, k->by_addr, k->nr_syms, sizeof(key), ksym_addr_cmp);
	if (!hit)
		return NULL;
	/* several names for one address: the first of the run, then @prefer */
	while (hit > k->by_addr && hit[-1].addr == addr)
		hit--;
	for (p = hit; p < end && p->addr == addr; p++)
		if (!strncmp(p->name, prefer, len))
			return p;
	return hit;
}

/* The file offset of @addr and how many bytes of its section follow. */
static int locate(const struct kimage *k, uint64_t addr, off_t *off,
		  size_t *avail)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(k->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		if (addr < sh.sh_addr || addr - sh.sh_addr >= sh.sh_size)
			continue;
		*off = sh.sh_offset + (addr - sh.sh_addr);
		*avail = sh.sh_size - (addr - sh.sh_addr);
		return 0;
	}
	return -EFAULT;
}

int kimage__read(const struct kimage *k, uint64_t addr, void *buf, size_t len)
{
	size_t avail;
	off_t off;

	if (locate(k, addr, &off, &avail) || avail < len ||
	    pread(k->fd, buf, len, off) != (ssize_t)len)
		return -EFAULT;
	return 0;
}

char *kimage__read_string(const struct kimage *k, uint64_t addr, size_t max)
{
	size_t avail;
	ssize_t got;
	off_t off;
	char *buf;

	if (locate(k, addr, &off, &avail))
		return strdup("");
	buf = malloc(max + 1);
	if (!buf)
		return NULL;
	got = pread(k->fd, buf, avail < max ? avail : max, off);
	buf[got < 0 ? 0 : got] = '\0';
	return buf;
}

int kimage__build_id(const struct kimage *k, char *buf, size_t size)
{
	return elf_build_id(k->elf, buf, size);
}
