// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build id of the kernel inside a bzImage.  The layout of the setup
 * header is the kernel's Documentation/arch/x86/boot.rst; libarchive's raw
 * format with every filter decompresses the payload, whichever of gzip,
 * xz, zstd, lz4, bzip2 or lzma the kernel was built with.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>
#include <gelf.h>

#include "collectors/dwarf/elf.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "bzimage.h"

#define BZIMAGE_MAX	((size_t)256 << 20)
#define VMLINUX_MAX	((size_t)1 << 30)

/* Offsets in the image of the setup header's fields used here. */
#define SETUP_SECTS	0x1f1
#define HEADER_MAGIC	0x202		/* "HdrS" */
#define PROTOCOL	0x206
#define PAYLOAD_OFFSET	0x248		/* from the protected-mode code */
#define PAYLOAD_LENGTH	0x24c

static uint32_t le16(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return u[0] | u[1] << 8;
}

static uint32_t le32(const char *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

/* Where the compressed kernel is, in @image of @len bytes. */
static int find_payload(const char *path, const char *image, size_t len,
			size_t *start, size_t *size)
{
	size_t setup;

	if (len < PAYLOAD_LENGTH + 4 || memcmp(image + HEADER_MAGIC, "HdrS", 4)) {
		pr_err("%s: not a kernel image (no x86 boot header)", path);
		return -EINVAL;
	}
	if (le16(image + PROTOCOL) < 0x208) {
		pr_err("%s: boot protocol %x.%02x is older than 2.08, which says where the kernel is",
		       path, le16(image + PROTOCOL) >> 8, le16(image + PROTOCOL) & 0xff);
		return -EINVAL;
	}
	/* 0 setup sectors means 4, for old boot loaders' sake */
	setup = ((unsigned char)image[SETUP_SECTS] ? : 4) + 1;
	*start = setup * 512 + le32(image + PAYLOAD_OFFSET);
	*size = le32(image + PAYLOAD_LENGTH);
	if (*start > len || *size > len - *start || *size < 4) {
		pr_err("%s: its payload lies past its end: the image is cut short", path);
		return -EINVAL;
	}
	/* the kernel's build appends the decompressed size (size_append) */
	*size -= 4;
	return 0;
}

/* The payload at @in decompressed, into *@out (malloc()ed). */
static int decompress(const char *path, const char *in, size_t in_len,
		      char **out, size_t *out_len)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	size_t cap = 64 << 20, len = 0;
	char *buf = malloc(cap), *grown;
	la_ssize_t n = 0;
	int err = 0;

	if (!a || !buf) {
		err = -ENOMEM;
		goto out;
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, in, in_len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK)
		goto bad;
	while ((n = archive_read_data(a, buf + len, cap - len)) > 0) {
		len += n;
		if (len < cap)
			continue;
		if (cap >= VMLINUX_MAX) {
			pr_err("%s: its kernel is larger than %zu MiB", path,
			       VMLINUX_MAX >> 20);
			err = -EFBIG;
			goto out;
		}
		grown = realloc(buf, cap * 2);
		if (!grown) {
			err = -ENOMEM;
			goto out;
		}
		buf = grown;
		cap *= 2;
	}
	if (n == 0)
		goto out;
bad:
	pr_err("%s: its compressed kernel does not decompress: %s", path,
	       archive_error_string(a) ? archive_error_string(a) : "unknown format");
	err = -EINVAL;
out:
	if (a)
		archive_read_free(a);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int bzimage__build_id(const char *path, char *buf, size_t size)
{
	char *image = NULL, *kernel = NULL;
	size_t len, start, payload, kernel_len;
	Elf *elf = NULL;
	int err;

	err = read_file_or_report(path, BZIMAGE_MAX, &image, &len);
	if (!err)
		err = find_payload(path, image, len, &start, &payload);
	if (!err)
		err = decompress(path, image + start, payload, &kernel, &kernel_len);
	if (!err) {
		elf_version(EV_CURRENT);
		elf = elf_memory(kernel, kernel_len);
		if (!elf || elf_kind(elf) != ELF_K_ELF) {
			pr_err("%s: its kernel is not an ELF file", path);
			err = -EINVAL;
		} else if (elf_build_id(elf, buf, size)) {
			pr_err("%s: its kernel has no build id", path);
			err = -EINVAL;
		}
	}
	if (elf)
		elf_end(elf);
	free(kernel);
	free(image);
	return err;
}
