// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a bzImage: the setup header's fields, and the kernel in its
 * payload.  libarchive's raw format with every filter decompresses the
 * payload, whichever compressor the kernel was built with; the build
 * appends the decompressed size (scripts/Makefile.lib, size_append), which
 * says how much to read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>
#include <gelf.h>

#include "collectors/dwarf/elf.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "bzimage.h"

/* A decompressed vmlinux: Debian's are 66 to 74 MB. */
#define KERNEL_MAX		((uint32_t)256 << 20)
/* Debian's bzImages are 8 to 12 MB. */
#define BZIMAGE_MAX		((size_t)64 << 20)

/* The setup header's fields read here. */
#define HDR_SETUP_SECTS		0x1f1
#define HDR_MAGIC		0x202	/* "HdrS" */
#define HDR_PROTOCOL		0x206
#define HDR_LOADFLAGS		0x211
#define HDR_CODE32_START	0x214
#define HDR_XLOADFLAGS		0x236
#define HDR_PAYLOAD_OFFSET	0x248	/* from the protected-mode part */
#define HDR_PAYLOAD_LENGTH	0x24c
#define HDR_END			0x250

static uint32_t le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

static int parse_header(struct bzimage *bz, const char **why)
{
	const unsigned char *h = bz->data;
	size_t offset, length, sects;

	if (bz->size < HDR_END || memcmp(h + HDR_MAGIC, "HdrS", 4)) {
		*why = "not a kernel image (no x86 boot header)";
		return -EINVAL;
	}
	bz->protocol = le16(h + HDR_PROTOCOL);
	if (bz->protocol < 0x208) {
		*why = "boot protocol before 2.08, which says where the kernel is";
		return -EINVAL;
	}
	bz->loadflags = h[HDR_LOADFLAGS];
	bz->xloadflags = le16(h + HDR_XLOADFLAGS);
	bz->code32_start = le32(h + HDR_CODE32_START);
	/* 0 setup sectors means 4, for old boot loaders' sake */
	sects = h[HDR_SETUP_SECTS] ? h[HDR_SETUP_SECTS] : 4;
	bz->setup = (sects + 1) * 512;
	offset = le32(h + HDR_PAYLOAD_OFFSET);
	length = le32(h + HDR_PAYLOAD_LENGTH);
	if (bz->setup > bz->size || offset > bz->size - bz->setup ||
	    length > bz->size - bz->setup - offset || length < 4) {
		*why = "its payload lies past its end: the image is cut short";
		return -EINVAL;
	}
	bz->payload = h + bz->setup + offset;
	bz->payload_len = length - 4;
	bz->kernel_len = le32(bz->payload + bz->payload_len);
	return 0;
}

int bzimage__read(const char *path, size_t max, struct bzimage *bz,
		  const char **why)
{
	char *buf;
	int err;

	memset(bz, 0, sizeof(*bz));
	err = read_file_or_report(path, max, &buf, &bz->size);
	if (err)
		return err;
	bz->data = (unsigned char *)buf;
	err = parse_header(bz, why);
	if (err)
		bzimage__release(bz);
	return err;
}

int bzimage__kernel(const struct bzimage *bz, unsigned char **out,
		    const char **why)
{
	struct archive *a = NULL;
	struct archive_entry *e;
	unsigned char *buf = NULL;
	size_t got = 0;
	la_ssize_t n;
	int err = -EINVAL;

	if (!bz->kernel_len || bz->kernel_len > KERNEL_MAX) {
		*why = "no decompressed size at the end of its payload";
		return -EINVAL;
	}
	buf = malloc(bz->kernel_len);
	a = archive_read_new();
	if (!buf || !a) {
		err = -ENOMEM;
		goto out;
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, bz->payload, bz->payload_len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK ||
	    archive_filter_code(a, 0) == ARCHIVE_FILTER_NONE) {
		*why = "its kernel is compressed in a way libarchive does not know";
		goto out;
	}
	while (got < bz->kernel_len &&
	       (n = archive_read_data(a, buf + got, bz->kernel_len - got)) > 0)
		got += n;
	if (got < bz->kernel_len) {
		*why = "its compressed kernel does not decompress";
		goto out;
	}
	err = 0;
out:
	if (a)
		archive_read_free(a);
	if (err)
		free(buf);
	else
		*out = buf;
	return err;
}

void bzimage__release(struct bzimage *bz)
{
	free(bz->data);
	memset(bz, 0, sizeof(*bz));
}

int bzimage__build_id(const char *path, char *buf, size_t size)
{
	struct bzimage bz;
	unsigned char *kernel = NULL;
	const char *why = NULL;
	Elf *elf = NULL;
	int err;

	err = bzimage__read(path, BZIMAGE_MAX, &bz, &why);
	if (!err) {
		err = bzimage__kernel(&bz, &kernel, &why);
		if (!err) {
			elf_version(EV_CURRENT);
			elf = elf_memory((char *)kernel, bz.kernel_len);
			if (!elf || elf_kind(elf) != ELF_K_ELF)
				why = "its kernel is not an ELF file";
			else if (elf_build_id(elf, buf, size))
				why = "its kernel has no build id";
			err = why ? -EINVAL : 0;
		}
		bzimage__release(&bz);
	}
	if (why)
		pr_err("%s: %s", path, why);
	else if (err == -ENOMEM)
		pr_err("out of memory");
	if (elf)
		elf_end(elf);
	free(kernel);
	return err;
}
