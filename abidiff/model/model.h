/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ABI model: one snapshot describes the userspace ABI of one kernel build.
 *
 * This is the ground floor of kabidiff.  Collectors fill a snapshot, the diff
 * engine reads two of them, snapshot__load()/snapshot__save() (snapshot-json.h)
 * give it its JSON form, specified in docs/snapshot-format.md.
 *
 * Ownership: a snapshot owns every record and every string in it.  Strings
 * are NUL-terminated byte strings, not necessarily UTF-8, allocated with
 * malloc(); a NULL string means "absent" (unknown or not applicable), which is
 * different from "".  Records are plain structures that the filling code
 * writes directly; the snapshot__add_*() functions hand out zeroed records
 * inside a growing array, so a returned pointer is valid only until the next
 * call that adds to the same array.
 *
 * Each part (syscalls, vdso, types, sysfs, docs, census) has a "collected" flag: a part that
 * was not collected is absent, which is not the same as collected and empty.
 */
#ifndef KABIDIFF_MODEL_H
#define KABIDIFF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SNAPSHOT_FORMAT		"kabidiff-snapshot"
#define SNAPSHOT_VERSION	6

/* Upper bounds that a sane snapshot never exceeds; larger values are refused. */
#define SYSCALL_NR_MAX		INT32_MAX
#define TYPE_SIZE_MAX		((uint64_t)1 << 32)
#define DOC_LINE_MAX		INT32_MAX

struct kernel_ident {
	char *release;		/* "6.1.0-47-amd64" */
	char *version;		/* "#1 SMP PREEMPT_DYNAMIC Debian ..." */
	char *build_date;	/* "2025-01-02", from @version; NULL: unknown */
	char *arch;		/* "x86_64" */
	char *build_id;		/* GNU build id, lower-case hex */
	char *git;		/* commit id of the source tree */
	char *collected_by;	/* "kabidiff 0.1" */
};

/* "YYYY-MM-DD" and its NUL */
#define BUILD_DATE_SIZE		11

/*
 * date__parse() - @text as a date "YYYY-MM-DD" (a build date, the argument
 * of --as-of): exactly ten characters, a day that exists (2024-02-29, not
 * 2025-02-29), years 0001 to 9999.  Sets *@months, if @months, to
 * year * 12 + month - 1: the removal dates of the documentation, that
 * build dates are compared with, name a month at most.  Returns 0 or
 * -EINVAL.
 */
int date__parse(const char *text, int *months);

/*
 * build_date__from_version() - the date of the build that a kernel's
 * UTS_VERSION (@version: the "#1 SMP ..." of linux_banner, uname -v)
 * gives, into @out as "YYYY-MM-DD".  Returns 0, or -ENOENT when it gives
 * none.
 */
int build_date__from_version(const char *version, char out[BUILD_DATE_SIZE]);

enum syscall_source {
	SYSCALL_SRC_TABLE	= 1 << 0,	/* a table symbol's slot */
	SYSCALL_SRC_DWARF	= 1 << 1,
	SYSCALL_SRC_FTRACE	= 1 << 2,
	SYSCALL_SRC_SWITCH	= 1 << 3,	/* the code of a switch, decoded */
	SYSCALL_SRC_TBL		= 1 << 4,	/* a row of syscall_*.tbl named it */
};
#define SYSCALL_SRC_ALL	(SYSCALL_SRC_TABLE | SYSCALL_SRC_DWARF | \
			 SYSCALL_SRC_FTRACE | SYSCALL_SRC_SWITCH | SYSCALL_SRC_TBL)

/*
 * A C type spelling resolved against the types of its snapshot: the type
 * it starts with and the declarator around it.  "const struct foo *[2]" is
 * struct foo and "*[2]"; "__u32" is __u32 (a typedef: type_ref__resolve()
 * looks through it) and no declarator.  The records below keep one beside
 * each spelling that names a type.  They are in memory only, computed by
 * snapshot__sort() once the types are in order, since they are indices;
 * a snapshot changed afterwards must be sorted again.
 */
struct type_ref {
	int32_t base;		/* index into s->types.v, or -1: no type of it */
	/* "*", "[4]", "(*)(int)": spaces, const, volatile dropped; or NULL */
	char *declarator;	/* malloc()ed */
};

struct syscall_arg {
	char *name;
	char *type;		/* C spelling: "const char *" */
	struct type_ref type_ref;
	/*
	 * Bytes of the argument as the ABI's programs pass it, where that is
	 * not what @type is in the kernel's x86_64 DWARF: in ia32 and x32,
	 * ILP32 ABIs, a pointer or a long is 4.  0 for x86_64 (not recorded).
	 */
	uint32_t abi_size;
};

struct syscall {
	char *abi;		/* "x86_64", "ia32", ... */
	uint32_t nr;
	char *name;		/* ABI name: "read" */
	char *entry;		/* entry symbol: "__x64_sys_read" */
	/*
	 * The file of its SYSCALL_DEFINE, relative to the top of the kernel
	 * source tree: "fs/read_write.c"; NULL: not known.
	 */
	char *file;
	bool implemented;	/* false for sys_ni_syscall slots */
	struct syscall_arg *args;
	size_t nr_args;
	unsigned int sources;	/* enum syscall_source bits */
};

/*
 * An exported symbol of a vDSO image, with the version its version
 * definitions give it.  The prototype comes from the image's DWARF: @ret
 * is the return type as an argument without a name, and the types of both
 * are named with the image's prefix ("vdso32:struct old_timespec32 *").
 * A symbol without a prototype (written in assembly: __kernel_vsyscall)
 * has no ret.type and no arguments.
 */
struct vdso_symbol {
	char *image;		/* "vdso64", "vdso32" or "vdsox32" */
	char *name;		/* "__vdso_clock_gettime", "clock_gettime" */
	char *version;		/* "LINUX_2.6"; NULL: not versioned */
	struct syscall_arg ret;
	struct syscall_arg *args;
	size_t nr_args;
};

enum type_kind {
	TYPE_STRUCT,
	TYPE_UNION,
	TYPE_ENUM,
	TYPE_TYPEDEF,
	TYPE_BASE,
	TYPE_KIND_COUNT,
};

struct type_member {
	char *name;		/* NULL for an anonymous struct or union */
	char *type;		/* C spelling */
	struct type_ref type_ref;
	uint64_t offset;	/* bytes; for a bitfield, bit_offset / 8 */
	uint64_t size;		/* bytes of the member's type */
	bool bitfield;
	uint64_t bit_offset;	/* bitfields only: bits from the type's start */
	uint32_t bit_size;	/* bitfields only */
};

struct enumerator {
	char *name;
	int64_t value;
};

struct type_def {
	char *name;		/* "struct stat", "__kernel_timespec", ... */
	enum type_kind kind;
	bool incomplete;	/* declared only: no size, no members */
	uint64_t size;
	char *target;		/* typedefs only: the aliased type's name */
	struct type_ref target_ref;
	/*
	 * The file of its definition, relative to the top of the kernel
	 * source tree: "arch/x86/include/uapi/asm/stat.h"; NULL: not known.
	 */
	char *file;
	struct type_member *members;
	size_t nr_members;
	struct enumerator *enumerators;
	size_t nr_enumerators;
};

enum node_kind {
	NODE_DIR,
	NODE_FILE,
	NODE_LINK,
	NODE_OTHER,
	NODE_KIND_COUNT,
};

/*
 * The shape of a sysfs value: what kind of content a file holds, without the
 * volatile value itself.  SHAPE_NONE means no value was recorded (a directory,
 * a link, or a file that was not read).
 */
enum value_shape {
	SHAPE_NONE,
	SHAPE_UINT,		/* "42" */
	SHAPE_INT,		/* "-1" */
	SHAPE_HEX,		/* "0x1f" */
	SHAPE_WORD,		/* "enabled" */
	SHAPE_CHOICE,		/* "always [madvise] never" */
	SHAPE_LIST,		/* "a b c" */
	SHAPE_TEXT,		/* several lines */
	SHAPE_EMPTY,
	SHAPE_BINARY,
	SHAPE_UNREADABLE,	/* the read failed; see error */
	SHAPE_COUNT,
};

struct node_value {
	enum value_shape shape;
	char *raw;		/* the value read, only when asked for */
	char *error;		/* errno name when unreadable: "EACCES" */
};

struct sysfs_node {
	char *path;		/* "/sys/kernel/uevent_seqnum", "/proc/sys/..." */
	enum node_kind kind;
	unsigned int mode;	/* permission bits, 07777 at most */
	char *target;		/* links only: the link's contents */
	struct node_value value;
};

enum abi_level {
	LEVEL_STABLE,
	LEVEL_TESTING,
	LEVEL_UNSTABLE,
	LEVEL_OBSOLETE,
	LEVEL_PRIVATE,
	LEVEL_REMOVED,
	LEVEL_SYSCTL,		/* a sysctl its document describes */
	LEVEL_UNDOCUMENTED,	/* for the policy; never on a doc entry */
	LEVEL_COUNT,
};

/*
 * Where a doc entry comes from: an entry of Documentation/ABI, or a sysctl
 * in one of the documents of /proc/sys (Documentation/admin-guide/sysctl/,
 * Documentation/networking/\*sysctl*.rst), whose level is sysctl, or
 * obsolete when its text says it is deprecated or obsolete.
 */
enum doc_source {
	DOC_SOURCE_ABI,
	DOC_SOURCE_SYSCTL,
	DOC_SOURCE_COUNT,
};

struct doc_entry {
	enum abi_level level;
	enum doc_source source;
	/*
	 * Relative to Documentation/ABI ("stable/sysfs-module"), or for a
	 * sysctl to Documentation ("admin-guide/sysctl/kernel.rst"):
	 * doc_entry__dir() says which.
	 */
	char *file;
	uint32_t line;		/* of the first What: line (a sysctl's name), from 1 */
	char **what;		/* the What: patterns, in file order */
	size_t nr_what;
	char *date;
	char *kernel_version;
	char *contact;
	char *users;
	char *description;
};

enum module_how {
	MODULE_FOR_DEVICE,	/* a device's modalias matched its alias */
	MODULE_FOR_DEPENDENCY,	/* a module loaded needs it */
	MODULE_FOR_REQUEST,	/* the kernel requested it */
	MODULE_FOR_BOOT,	/* the machine loads it, device or not */
	MODULE_HOW_COUNT,
};

/* A module the guest loaded, or tried to, before its sysfs was walked. */
struct module_load {
	char *name;		/* "e1000e" */
	enum module_how how;
	char *cause;		/* the modalias, module or name that asked */
	char *error;		/* errno's name when it failed; NULL: loaded */
};

/*
 * The machine a kernel booted on for the sysfs part: the profile of
 * QEMU's devices ("standard", "minimal"), and the modules the guest
 * loaded for them, in name order.  Not recorded for a sysfs part read
 * from a directory, nor by snapshots older than profiles; a guest's
 * stream read alone has modules but no profile.
 */
struct machine {
	bool recorded;
	char *profile;		/* NULL: not known */
	struct module_load *modules;
	size_t nr_modules;
};

struct coverage {
	bool computed;
	uint64_t sysfs_nodes;
	uint64_t documented;
};

/*
 * The kind of an attribute of the census: the structure it is defined as,
 * which says what creates its file (a device's, a driver's, a bus's...).
 * CENSUS_HWMON attributes are not objects but the names the hwmon core
 * makes at run time from a driver's struct hwmon_chip_info; CENSUS_PARAM
 * ones the files of /sys/module/MODULE/parameters.
 */
enum census_kind {
	CENSUS_ATTRIBUTE,	/* a bare struct attribute */
	CENSUS_DEVICE,		/* struct device_attribute */
	CENSUS_DRIVER,		/* struct driver_attribute */
	CENSUS_BUS,		/* struct bus_attribute */
	CENSUS_CLASS,		/* struct class_attribute */
	CENSUS_KOBJ,		/* struct kobj_attribute */
	CENSUS_MODULE,		/* struct module_attribute */
	CENSUS_SENSOR,		/* struct sensor_device_attribute(_2) */
	CENSUS_IIO,		/* struct iio_dev_attr, iio_const_attr */
	CENSUS_BIN,		/* struct bin_attribute */
	CENSUS_OTHER,		/* another structure that begins with one */
	CENSUS_HWMON,		/* named by a struct hwmon_chip_info */
	CENSUS_PARAM,		/* a module parameter (struct kernel_param) */
	CENSUS_KIND_COUNT,
};

/*
 * One sysfs attribute the code of a kernel defines, read from vmlinux or
 * a module without running it.  Keyed by (module, file, symbol, name): a
 * static dev_attr_name is in many files of vmlinux, and an array or a
 * hwmon_chip_info names several attributes.
 */
struct census_attr {
	char *module;		/* "vmlinux", or the module's name: "nct6775" */
	char *file;		/* the declaring file: "drivers/hwmon/nct6775-core.c" */
	char *symbol;		/* "sensor_dev_attr_in0_input", "sda_in[3]" */
	char *name;		/* the file's name: "in0_input" */
	enum census_kind kind;
	char *type;		/* the object's type: "struct device_attribute" */
	unsigned int mode;	/* as the code gives it, 07777 at most */
	/*
	 * An is_visible function decides the mode at run time (the group's,
	 * or hwmon's): @mode is then only the default, and a change of it is
	 * no change of the ABI.
	 */
	bool mode_at_run_time;
	bool grouped;		/* some struct attribute_group lists it */
	char *group;		/* that group's subdirectory; NULL: none */
	/*
	 * Where it appears, as a What: pattern, where the code says so
	 * ("/sys/class/hwmon/hwmon<N>/in0_input"); NULL: not known.
	 */
	char *path;
};

#define MODEL_ARRAY(type)			\
	struct {				\
		type *v;			\
		size_t nr;			\
		size_t alloc;			\
		bool collected;			\
	}

/*
 * @syscall_abis are the ABIs whose syscall tables were collected, sorted:
 * an ABI listed without records is one the kernel does not have (a kernel
 * without IA32_EMULATION has no ia32 table).  snapshot__sort() lists the
 * ABIs of the records when none are, which is what a snapshot of format
 * version 1 collected (x86_64 alone, when kabidiff wrote it).
 */
struct snapshot {
	struct kernel_ident kernel;
	MODEL_ARRAY(struct syscall) syscalls;
	MODEL_ARRAY(struct vdso_symbol) vdso;
	MODEL_ARRAY(struct type_def) types;
	MODEL_ARRAY(struct sysfs_node) sysfs;
	MODEL_ARRAY(struct doc_entry) docs;
	MODEL_ARRAY(struct census_attr) census;
	/* the files the census read, by module name ("vmlinux"), sorted */
	char **census_modules;
	size_t nr_census_modules;
	struct machine machine;
	struct coverage coverage;
	char **syscall_abis;
	size_t nr_syscall_abis;
};

/* snapshot__new() - an empty snapshot with no part collected, or NULL (ENOMEM). */
struct snapshot *snapshot__new(void);

/* snapshot__free() - free @s and everything it owns; NULL is a no-op. */
void snapshot__free(struct snapshot *s);

/*
 * snapshot__add_syscall() and friends - append a zeroed record to a part and
 * mark that part collected.  Return the record (valid until the next append
 * to the same part), or NULL with errno ENOMEM.
 */
struct syscall *snapshot__add_syscall(struct snapshot *s);
struct vdso_symbol *snapshot__add_vdso_symbol(struct snapshot *s);
struct type_def *snapshot__add_type(struct snapshot *s);
struct sysfs_node *snapshot__add_sysfs_node(struct snapshot *s);
struct doc_entry *snapshot__add_doc(struct snapshot *s);
struct census_attr *snapshot__add_census_attr(struct snapshot *s);

/*
 * snapshot__add_census_module() - list the module @name (copied) among
 * those the census read, and mark the census collected.  Returns 0 or
 * -ENOMEM.
 */
int snapshot__add_census_module(struct snapshot *s, const char *name);

/*
 * census_attr__cmp() - the order of census attributes, for qsort(): by
 * module, file, symbol and name, an absent string first.
 */
int census_attr__cmp(const void *a, const void *b);

/* census_attr__clear() - free the strings of @a, which stays in its part. */
void census_attr__clear(struct census_attr *a);

/*
 * snapshot__add_syscall_abi() - list @abi (copied) among the ABIs whose
 * syscall tables @s holds.  Returns 0 or -ENOMEM.
 */
int snapshot__add_syscall_abi(struct snapshot *s, const char *abi);

/* machine__add_module() - append a zeroed record; NULL with errno ENOMEM. */
struct module_load *machine__add_module(struct machine *m);

/*
 * snapshot__has_syscall_abi() - whether @s, sorted, holds the syscall table
 * of @abi (syscall_abis lists it), even an empty one.
 */
bool snapshot__has_syscall_abi(const struct snapshot *s, const char *abi);

/* syscall__add_arg() etc. - append a zeroed item; NULL with errno ENOMEM. */
struct syscall_arg *syscall__add_arg(struct syscall *sc);
struct syscall_arg *vdso_symbol__add_arg(struct vdso_symbol *sym);
struct type_member *type__add_member(struct type_def *t);
struct enumerator *type__add_enumerator(struct type_def *t);
/* doc_entry__add_what() - append a copy of @pattern; 0 or -ENOMEM. */
int doc_entry__add_what(struct doc_entry *d, const char *pattern);

/*
 * doc_entry__dir() - the directory @d's file is relative to, from the top
 * of the kernel tree: "Documentation/ABI/" or, for a sysctl,
 * "Documentation/".  Prefix it to the file when naming the entry.
 */
const char *doc_entry__dir(const struct doc_entry *d);

/*
 * snapshot__sort() - put every part into canonical order and check its keys.
 *
 * Syscalls are ordered by (abi, nr), vDSO symbols by (image, name), types
 * by name, sysfs nodes by path, doc entries by (file, line), census
 * attributes by (module, file, symbol, name) and census modules by name, all
 * comparing bytes.  Record contents (syscall
 * arguments, members, enumerators, What: lines) keep their order, which is
 * meaningful.  The syscall ABIs are sorted too, and when none are listed
 * those of the records are; a record of an ABI not listed, or ABIs listed
 * without a syscalls part, are refused.  Then every type_ref is computed
 * (again) from its spelling, or after an error released.  Returns 0,
 * -EEXIST when two records (or ABIs) share a key (the duplicate is then
 * reported as "@origin: duplicate ..."), -EINVAL for the ABIs refused
 * (reported), or -ENOMEM.
 */
int snapshot__sort(struct snapshot *s, const char *origin);

/*
 * type_ref__parse() - resolve @spelling against the types of @s, which must
 * be in canonical order, into @ref.  The base is the longest start of
 * @spelling, leading "const " and "volatile " skipped, that ends at a token
 * boundary (the end, ' ', '*', '[' or '(') and names a type of @s; the
 * rest is its declarator.  A NULL @spelling names no type.  Returns 0, or
 * -ENOMEM with @ref naming no type.  Release @ref with type_ref__release().
 */
int type_ref__parse(const struct snapshot *s, const char *spelling,
		    struct type_ref *ref);

/* type_ref__release() - free @ref's declarator; @ref then names no type. */
void type_ref__release(struct type_ref *ref);

/*
 * type_name__is_vdso() - whether the type named @name (or "@name.MEMBER")
 * was reached from a vDSO image's prototypes: it has the image's prefix,
 * "vdso32:struct old_timespec32".
 */
bool type_name__is_vdso(const char *name);

/* type_spelling__unqualified() - @spelling after its leading qualifiers. */
const char *type_spelling__unqualified(const char *spelling);

/* Typedef chains longer than this are not looked through. */
#define MAX_TYPEDEF_HOPS	16

/*
 * type_ref__resolve() - @ref, of @spelling in @s, with typedefs looked
 * through: their targets' refs are followed, each typedef's declarator
 * going inside the one seen so far (foo_t being "struct foo *", "foo_t *"
 * is struct foo and "**").  Fills @out (release it with type_ref__release())
 * and sets *@text to the name of its base, or when the chain ends on a
 * spelling that names no type of @s, or is longer than MAX_TYPEDEF_HOPS, to
 * that spelling unqualified (@out->base is then -1).  Returns 0 or -ENOMEM.
 */
int type_ref__resolve(const struct snapshot *s, const char *spelling,
		      const struct type_ref *ref, struct type_ref *out,
		      const char **text);

/* Names used in the JSON form and in reports; NULL for an invalid value. */
const char *type_kind__name(enum type_kind kind);
const char *node_kind__name(enum node_kind kind);
const char *value_shape__name(enum value_shape shape);
const char *abi_level__name(enum abi_level level);
const char *doc_source__name(enum doc_source source);
const char *module_how__name(enum module_how how);
const char *census_kind__name(enum census_kind kind);

/*
 * The reverse lookups: 0 and the value in @out, or -EINVAL for an unknown
 * name.  SHAPE_NONE has no name; "undocumented" is refused for a doc entry
 * by the loader, not here.
 */
int type_kind__parse(const char *name, enum type_kind *out);
int node_kind__parse(const char *name, enum node_kind *out);
int value_shape__parse(const char *name, enum value_shape *out);
int abi_level__parse(const char *name, enum abi_level *out);
int doc_source__parse(const char *name, enum doc_source *out);
int module_how__parse(const char *name, enum module_how *out);
int census_kind__parse(const char *name, enum census_kind *out);

/*
 * name_table__parse() - find @name in the table of @count @names (NULL
 * entries are never found): 0 and its index in @out, or -EINVAL.  The name
 * tables of the diff, the policy and the reports use it too.
 */
int name_table__parse(const char *const *names, unsigned int count,
		      const char *name, unsigned int *out);

#endif /* KABIDIFF_MODEL_H */
