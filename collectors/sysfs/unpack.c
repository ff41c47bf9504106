// SPDX-License-Identifier: GPL-2.0-only
/*
 * A copy of a kernel image whose kernel is already decompressed.
 *
 * Under TCG the guest's own decompressor is the slowest part of a boot:
 * Debian's 6.1 bzImage holds its 66 MB vmlinux as 8 MB of xz, and decoding
 * it in the guest takes 4.4 s of a 9 s boot-to-snapshot with -icount
 * (2.9 s without), before the kernel prints a line.  The host decodes it
 * and writes the copy below in 0.8 s.  So kabidiff decodes it on the host
 * and boots a copy of the image that the boot loader loads with the kernel
 * already in place:
 *
 *   file offset 0          the image's own setup sectors, byte for byte:
 *                          QEMU, SeaBIOS and the real-mode setup (memory
 *                          map, EDD, video) run as they do for the image,
 *                          and the kernel gets the same boot_params
 *   loaded at 0x100000     instead of the decompressor, a stub of 77 bytes
 *                          (below) and its page tables
 *   loaded at p_paddr      each PT_LOAD segment of the vmlinux, at the
 *                          physical address it was linked for; what lies
 *                          between is a hole in the file
 *
 * The real-mode setup jumps to code32_start (0x100000) in 32-bit protected
 * mode with %esi pointing at boot_params.  The stub does what the end of
 * arch/x86/boot/compressed/head_64.S does before it calls the kernel: an
 * identity map of the low 4 GB in 2 MB pages, long mode, the GDT of the
 * 64-bit boot protocol (Documentation/arch/x86/boot.rst: __BOOT_CS 0x10,
 * __BOOT_DS 0x18), and a jump to the vmlinux's entry, startup_64, with
 * %rsi still pointing at boot_params.  The kernel sets up everything else
 * itself, as it does after the decompressor.
 *
 * One difference: the decompressor would have moved the kernel to a
 * random physical and virtual address (KASLR); this copy runs where it was
 * linked, as with "nokaslr".  Where the kernel lies shows in no node and
 * no shape of a snapshot: those of 6.1.0-57 are byte for byte the same
 * either way, on both machines.
 *
 * Anything unexpected (another architecture, an old boot protocol, a
 * compression libarchive does not know, a vmlinux that is not a plain
 * ELF64 above 16 MB) is -ENOTSUP, and the caller boots the image as it is.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/bzimage/bzimage.h"
#include "lib/print.h"
#include "unpack.h"

/* A bzImage: Debian's are 8 MB. */
#define IMAGE_MAX		((size_t)64 << 20)
/* A decompressed vmlinux, and where its segments may end: Debian's 74 MB. */
#define VMLINUX_MAX		((size_t)256 << 20)

/* Where the boot loader puts the protected-mode part: code32_start. */
#define PROT_BASE		0x100000u

/* The stub's layout, from PROT_BASE; its code has these addresses in it. */
#define STUB_GDT		0x080	/* null, null, __BOOT_CS, __BOOT_DS */
#define STUB_GDT_DESC		0x0a0	/* limit u16, base u32 */
#define STUB_ENTRY		0x0a8	/* u64: the vmlinux's entry */
#define STUB_PML4		0x1000
#define STUB_PDPT		0x2000
#define STUB_PD			0x3000	/* four of them: 4 GB */
#define STUB_SIZE		0x7000

/*
 * Assembled with "gcc -m32 -c; ld -m elf_i386 -Ttext=0x100000
 * --oformat=binary" from:
 *
 *	.code32
 *	cli
 *	lgdt	0x1000a0		# STUB_GDT_DESC
 *	movl	%cr4, %eax
 *	orl	$0x20, %eax		# CR4.PAE
 *	movl	%eax, %cr4
 *	movl	$0x101000, %eax		# STUB_PML4
 *	movl	%eax, %cr3
 *	movl	$0xc0000080, %ecx	# MSR_EFER
 *	rdmsr
 *	orl	$0x100, %eax		# EFER.LME
 *	wrmsr
 *	movl	%cr0, %eax
 *	orl	$0x80000001, %eax	# CR0.PG | CR0.PE: long mode
 *	movl	%eax, %cr0
 *	ljmp	$0x10, $start64
 *	.code64
 * start64:
 *	movl	$0x18, %eax
 *	movl	%eax, %ds
 *	movl	%eax, %es
 *	movl	%eax, %ss
 *	movl	%esi, %esi		# boot_params, zero-extended
 *	jmpq	*0x1000a8		# STUB_ENTRY
 */
static const unsigned char stub_code[] = {
	0xfa, 0x0f, 0x01, 0x15, 0xa0, 0x00, 0x10, 0x00, 0x0f, 0x20, 0xe0, 0x83,
	0xc8, 0x20, 0x0f, 0x22, 0xe0, 0xb8, 0x00, 0x10, 0x10, 0x00, 0x0f, 0x22,
	0xd8, 0xb9, 0x80, 0x00, 0x00, 0xc0, 0x0f, 0x32, 0x0d, 0x00, 0x01, 0x00,
	0x00, 0x0f, 0x30, 0x0f, 0x20, 0xc0, 0x0d, 0x01, 0x00, 0x00, 0x80, 0x0f,
	0x22, 0xc0, 0xea, 0x39, 0x00, 0x10, 0x00, 0x10, 0x00, 0xb8, 0x18, 0x00,
	0x00, 0x00, 0x8e, 0xd8, 0x8e, 0xc0, 0x8e, 0xd0, 0x89, 0xf6, 0xff, 0x24,
	0x25, 0xa8, 0x00, 0x10, 0x00,
};

static void put_le(unsigned char *p, uint64_t v, size_t bytes)
{
	size_t i;

	for (i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
}

/* Not an image this file can do: say why, for kabidiff -v. */
static int unsupported(const char *image, const char *why)
{
	pr_info("%s: booting it with its own decompressor: %s", image, why);
	return -ENOTSUP;
}

/* Whether the stub can enter the kernel of @bz: a 64-bit one at 1 MB. */
static int check_image(const char *image, const struct bzimage *bz)
{
	if (!(bz->loadflags & BZIMAGE_LOADED_HIGH) || bz->code32_start != PROT_BASE)
		return unsupported(image, "not loaded at 0x100000");
	if (!(bz->xloadflags & BZIMAGE_XLF_KERNEL_64))
		return unsupported(image, "not a 64-bit kernel");
	if (bz->kernel_len > VMLINUX_MAX)
		return unsupported(image, "its kernel is larger than kabidiff boots");
	return 0;
}

/* The stub and its page tables, for a vmlinux entered at @entry. */
static void make_stub(unsigned char *s, uint64_t entry)
{
	static const uint64_t gdt[] = {
		0, 0,
		0x00af9a000000ffffull,	/* __BOOT_CS: 64-bit code */
		0x00cf92000000ffffull,	/* __BOOT_DS: flat data */
	};
	size_t i;

	memset(s, 0, STUB_SIZE);
	memcpy(s, stub_code, sizeof(stub_code));
	for (i = 0; i < 4; i++)
		put_le(s + STUB_GDT + 8 * i, gdt[i], 8);
	put_le(s + STUB_GDT_DESC, sizeof(gdt) - 1, 2);
	put_le(s + STUB_GDT_DESC + 2, PROT_BASE + STUB_GDT, 4);
	put_le(s + STUB_ENTRY, entry, 8);
	/* present | writable; a PD entry also PS, a 2 MB page */
	put_le(s + STUB_PML4, PROT_BASE + STUB_PDPT + 0x3, 8);
	for (i = 0; i < 4; i++)
		put_le(s + STUB_PDPT + 8 * i,
		       PROT_BASE + STUB_PD + 0x1000 * i + 0x3, 8);
	for (i = 0; i < 4 * 512; i++)
		put_le(s + STUB_PD + 8 * i, (uint64_t)i << 21 | 0x83, 8);
}

static int write_at(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/*
 * Check the vmlinux's segments: each PT_LOAD above the stub and below
 * VMLINUX_MAX, the entry inside one of them.  Stores the end of the last
 * in *@end.
 */
static int check_segments(const char *image, const unsigned char *vm,
			  size_t len, uint64_t *end)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	bool entry_in = false;
	size_t i;

	if (len < sizeof(eh))
		return unsupported(image, "its payload is not an ELF file");
	memcpy(&eh, vm, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64 ||
	    eh.e_type != ET_EXEC || eh.e_phentsize != sizeof(ph) ||
	    eh.e_phoff > len || eh.e_phnum > (len - eh.e_phoff) / sizeof(ph))
		return unsupported(image, "its payload is not an x86-64 vmlinux");
	*end = 0;
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, vm + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_paddr < PROT_BASE + STUB_SIZE ||
		    ph.p_memsz > VMLINUX_MAX ||
		    ph.p_paddr > VMLINUX_MAX - ph.p_memsz ||
		    ph.p_filesz > ph.p_memsz || ph.p_offset > len ||
		    ph.p_filesz > len - ph.p_offset)
			return unsupported(image, "a segment of its vmlinux is out of place");
		if (eh.e_entry >= ph.p_paddr &&
		    eh.e_entry < ph.p_paddr + ph.p_memsz)
			entry_in = true;
		if (*end < ph.p_paddr + ph.p_memsz)
			*end = ph.p_paddr + ph.p_memsz;
	}
	if (!entry_in)
		return unsupported(image, "its vmlinux's entry is in no segment");
	return 0;
}

/* Write the copy described at the top of this file to @fd. */
static int write_image(int fd, const unsigned char *img, size_t setup,
		       const unsigned char *vm, size_t len, uint64_t end)
{
	unsigned char *stub;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t i;
	int err;

	stub = malloc(STUB_SIZE);
	if (!stub)
		return -ENOMEM;
	memcpy(&eh, vm, sizeof(eh));
	make_stub(stub, eh.e_entry);
	err = write_at(fd, img, setup, 0);
	if (!err)
		err = write_at(fd, stub, STUB_SIZE, setup);
	free(stub);
	for (i = 0; !err && i < eh.e_phnum; i++) {
		memcpy(&ph, vm + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_LOAD)
			err = write_at(fd, vm + ph.p_offset, ph.p_filesz,
				       setup + ph.p_paddr - PROT_BASE);
	}
	/* a segment's p_memsz beyond its p_filesz: zeroes */
	if (!err && ftruncate(fd, setup + end - PROT_BASE))
		err = -errno;
	return err;
}

int kernel_image__unpack(const char *image, const char *path)
{
	unsigned char *vm = NULL;
	const char *why = NULL;
	struct bzimage bz;
	uint64_t end;
	int fd, err;

	err = bzimage__read(image, IMAGE_MAX, &bz, &why);
	if (err)
		return why ? unsupported(image, why) : err;
	err = check_image(image, &bz);
	if (!err) {
		err = bzimage__kernel(&bz, &vm, &why);
		if (why)
			err = unsupported(image, why);
	}
	if (!err)
		err = check_segments(image, vm, bz.kernel_len, &end);
	if (err)
		goto out;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		goto out;
	}
	err = write_image(fd, bz.data, bz.setup, vm, bz.kernel_len, end);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		pr_err("%s: %s", path, strerror(-err));
out:
	free(vm);
	bzimage__release(&bz);
	return err;
}
