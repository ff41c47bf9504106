// SPDX-License-Identifier: GPL-2.0-only
/*
 * switch-dump VMLINUX FUNCTION PREFIX: the syscall table the switch
 * FUNCTION of VMLINUX dispatches (ia32_sys_call __ia32_, x32_sys_call
 * __x64_, x64_sys_call __x64_), as syscall_switch__decode() reads it.
 *
 * On stdout, "NR SYMBOL ADDRESS" for each number up to the last that
 * does not reach the default, then "default SYMBOL ADDRESS".  On stderr,
 * one "# " line: the shape, the paths followed and how long the decoding
 * took.  Exit status 0, 1 when the decoding failed (with the reason on
 * stderr), 2 for bad usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "collectors/vmlinux/kimage.h"
#include "collectors/vmlinux/syscall-switch.h"
#include "lib/print.h"

static double elapsed_ms(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6;
}

int main(int argc, char **argv)
{
	struct switch_map map;
	struct timespec t0, t1;
	struct kimage k;
	size_t i;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: switch-dump VMLINUX FUNCTION PREFIX\n");
		return 2;
	}
	err = kimage__open(&k, argv[1]);
	if (!err) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		err = syscall_switch__decode(&k, argv[2], argv[3], &map);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	}
	if (err) {
		if (err == -ENOMEM)
			pr_err("%s: out of memory", argv[1]);
		kimage__close(&k);
		return 1;
	}
	for (i = 0; i < map.nr; i++)
		printf("%zu %s 0x%" PRIx64 "\n", i, map.v[i].name, map.v[i].addr);
	printf("default %s 0x%" PRIx64 "\n", map.def.name, map.def.addr);
	fprintf(stderr, "# %s: %s, %zu numbers, %u paths, decoded in %.1f ms\n",
		argv[2], map.tables ? "a jump table" : "a compare tree",
		map.nr, map.paths, elapsed_ms(&t0, &t1));
	switch_map__release(&map);
	kimage__close(&k);
	if (fflush(stdout) || ferror(stdout)) {
		perror("switch-dump: stdout");
		return 1;
	}
	return 0;
}
