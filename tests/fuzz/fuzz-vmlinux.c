// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the vmlinux collector's ELF and DWARF reading.
 *
 * The input is a whole file, handed to vmlinux__collect() through a memfd
 * (the collector opens a path).  The corpus starts from the mini.elf
 * fixture and its stripped variants; libFuzzer mutates headers, section
 * tables, symbols and DWARF from there.  Besides what ASan and UBSan
 * catch, the harness aborts if the collector returns an error outside its
 * contract, or succeeds with a snapshot that does not sort (duplicate
 * syscall numbers or type names).
 *
 *   make fuzz-build && build/fuzz/fuzz-vmlinux build/fuzz/corpus-vmlinux
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "collectors/vmlinux/vmlinux.h"
#include "lib/print.h"
#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmlinux_stats st = { 0 };
	struct snapshot *s;
	char path[64];
	int fd, err;

	kabi_set_print(NULL);
	fd = memfd_create("fuzz-vmlinux", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = snapshot__new();
	if (!s)
		abort();
	err = vmlinux__collect(path, NULL, NULL, s, &st);
	if (err && err != -EINVAL && err != -ENOENT && err != -ENOMEM &&
	    err != -EPROTONOSUPPORT && err != -EFAULT) {
		fprintf(stderr, "fuzz-vmlinux: vmlinux__collect returned %d\n", err);
		abort();
	}
	if (!err && snapshot__sort(s, "fuzz")) {
		fprintf(stderr, "fuzz-vmlinux: the collected snapshot does not sort\n");
		abort();
	}
	snapshot__free(s);
	close(fd);
	return 0;
}
