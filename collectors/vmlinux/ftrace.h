/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ftrace syscall metadata (CONFIG_FTRACE_SYSCALLS): an array of
 * pointers to struct syscall_metadata between __start_syscalls_metadata
 * and __stop_syscalls_metadata, with each syscall's name and its
 * arguments' source-spelled types and names.  Its layout changed between
 * kernels, so it is read from this vmlinux's own DWARF; without DWARF, the
 * 6.1 layout is assumed.  It checks the DWARF argument counts and stands
 * in for DWARF when that is missing.  Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_FTRACE_H
#define KABIDIFF_VMLINUX_FTRACE_H

struct collect;
struct syscall;

#define MAX_ARGS	6

struct meta_entry {
	char *name;		/* "read", without "sys_" */
	int nb_args;
	char *types[MAX_ARGS];
	char *args[MAX_ARGS];
};

/*
 * ftrace__read() - the metadata of @c's vmlinux, if it has any, into
 * @c->meta; counted in @c->st->ftrace.  Returns 0 or -ENOMEM (not
 * reported); metadata that makes no sense is warned of and not read.
 */
int ftrace__read(struct collect *c);

/* ftrace__find() - the metadata of syscall @name ("read"), or NULL */
const struct meta_entry *ftrace__find(const struct collect *c,
				      const char *name);

/*
 * ftrace__args() - without DWARF: the source-spelled arguments of @m
 * added to @sc.  Returns 0 or -ENOMEM.
 */
int ftrace__args(struct syscall *sc, const struct meta_entry *m);

/* ftrace__release() - free what ftrace__read() read */
void ftrace__release(struct collect *c);

#endif /* KABIDIFF_VMLINUX_FTRACE_H */
