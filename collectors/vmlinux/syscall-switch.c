// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoding a syscall switch: ia32_sys_call(regs, nr) is
 *
 *	switch (nr) {
 *	case 0: return __ia32_sys_restart_syscall(regs);
 *	...
 *	default: return __ia32_sys_ni_syscall(regs);
 *	}
 *
 * and GCC compiles it into one of two shapes, or a mix of them.  With
 * retpoline or IBT the kernel builds with -fno-jump-tables, and the switch
 * is a balanced tree of "cmp $N,%esi" and conditional jumps whose leaves
 * jump to the entry points (or call one that does not return).  Without,
 * it is a bounded jump table, "cmp $0x1c2,%esi; ja <default>;
 * mov %esi,%esi; jmp *TABLE(,%rsi,8)", whose slots in .rodata hold the
 * absolute addresses of stubs that jump to the entry points.  GCC also
 * moves a cluster of cases to 0 ("lea -0x200(%rsi),%eax") and tests sets
 * of cases with a bit mask ("1 << nr & mask", or bt).
 *
 * All of it is read by one symbolic execution over intervals, with
 * Capstone decoding the instructions.  A path is a place in the code, the
 * interval [lo, hi] of numbers that reach it, what each register holds as
 * a function of the number (nr + k in its low 32 bits, a constant, or
 * 1 << (nr + k)) and what the flags were last set from.  A condition on
 * nr + k (mod 2^32), signed or not, holds on an arc of the 32-bit circle,
 * which cuts an interval into at most two pieces; a conditional jump sends
 * the pieces where it holds to its target and the others on, each a path
 * of its own.  A jump table forks one path per slot, each with its one
 * number; a bit test cuts the interval into its runs of equal bits.  A
 * path ends where it leaves the function for an entry point: all its
 * numbers reach that one.  The paths split the numbers they start with,
 * so the intervals at the ends tile 0..2^32-1 (which is checked), and the
 * one that holds UINT32_MAX is the default's.
 *
 * Nothing is guessed: a path that meets an instruction outside the few
 * this knows, compares a register that does not hold the number, returns,
 * comes back to a place it jumped to before or leaves the function for
 * something that is not an entry point stops the decoding with an error
 * at that address.  Each instruction of a tree is met by about one path,
 * so a switch of 450 cases takes some 2,000 decoded instructions.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include "lib/array.h"
#include "lib/print.h"
#include "kimage.h"
#include "syscall-switch.h"

#define MAX_CODE	(1 << 20)	/* bytes of one switch function */
#define MAX_PATHS	(1 << 16)
#define MAX_JUMPS	256		/* jumps along one path */
#define MAX_SPAN	4096		/* numbers one table or bit test splits */
#define MAX_NR		8192		/* numbers a switch maps (x86: < 600) */
#define SPACE		(UINT64_C(1) << 32)	/* the values of a 32-bit nr */
#define NR_GPRS		16
#define GPR_RCX		1
#define GPR_RSI		6		/* the second argument: nr */

enum reg_kind {
	REG_UNKNOWN,
	REG_NR,		/* the low 32 bits are nr + k; the high ones 0 if zext */
	REG_CONST,	/* value */
	REG_BIT,	/* 1 << ((nr + k) mod modulo) */
};

struct reg {
	enum reg_kind kind;
	bool zext;
	uint8_t modulo;
	uint32_t k;
	uint64_t value;
};

enum flags_kind {
	FLAGS_UNKNOWN,
	FLAGS_CMP,	/* cmp or sub of @v (REG_NR) with @imm, in @width bits */
	FLAGS_ZF_BIT,	/* test $imm on @v (REG_BIT): ZF clear when the bit is in imm */
	FLAGS_CF_BIT,	/* bt @v (REG_NR) in the mask @imm: CF is the bit */
};

struct flags {
	enum flags_kind kind;
	struct reg v;
	unsigned int width;
	uint64_t imm;
};

struct path {
	uint64_t addr;
	uint32_t lo, hi;	/* the numbers that reach it */
	int32_t trail;		/* its last jump in decoder.jumps, or -1 */
	unsigned int depth;	/* jumps taken */
	struct flags flags;
	struct reg regs[NR_GPRS];
};

/* The jumps of all paths, each linked to the one before it on its path. */
struct jump {
	uint64_t to;
	int32_t prev;
};

/* Where a path ended: the numbers lo..hi reach @addr, named @name. */
struct end {
	uint32_t lo, hi;
	uint64_t addr;
	const char *name;	/* borrowed from the kimage */
};

/* A piece of a path's interval, and whether the branch takes it. */
struct piece {
	uint32_t lo, hi;
	bool taken;
};

/* The values start, start + 1, ..., len of them, round the 32-bit circle. */
struct arc {
	uint32_t start;
	uint64_t len;		/* 0 to 2^32 */
};

struct decoder {
	const struct kimage *k;
	const char *func, *prefix;
	uint64_t start, size;
	uint8_t *code;
	csh cs;
	cs_insn *insn;
	char text[CS_MNEMONIC_SIZE + sizeof(((cs_insn *)0)->op_str)];
	struct path *todo;
	size_t nr_todo, alloc_todo;
	struct jump *jumps;
	size_t nr_jumps, alloc_jumps;
	struct end *ends;
	size_t nr_ends, alloc_ends;
	struct piece *pieces;
	size_t nr_pieces, alloc_pieces;
	unsigned int paths, tables;
};

/* Each general register by its 64- and 32-bit names, in encoding order. */
static const unsigned int gpr_ids[NR_GPRS][2] = {
	{ X86_REG_RAX, X86_REG_EAX }, { X86_REG_RCX, X86_REG_ECX },
	{ X86_REG_RDX, X86_REG_EDX }, { X86_REG_RBX, X86_REG_EBX },
	{ X86_REG_RSP, X86_REG_ESP }, { X86_REG_RBP, X86_REG_EBP },
	{ X86_REG_RSI, X86_REG_ESI }, { X86_REG_RDI, X86_REG_EDI },
	{ X86_REG_R8, X86_REG_R8D }, { X86_REG_R9, X86_REG_R9D },
	{ X86_REG_R10, X86_REG_R10D }, { X86_REG_R11, X86_REG_R11D },
	{ X86_REG_R12, X86_REG_R12D }, { X86_REG_R13, X86_REG_R13D },
	{ X86_REG_R14, X86_REG_R14D }, { X86_REG_R15, X86_REG_R15D },
};

/* The instruction at @addr as objdump spells it (AT&T), for a message. */
static const char *att(struct decoder *d, uint64_t addr)
{
	const uint8_t *code = d->code + (addr - d->start);
	size_t size = d->size - (addr - d->start);
	uint64_t at = addr;

	snprintf(d->text, sizeof(d->text), "(bad)");
	cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	if (addr - d->start < d->size &&
	    cs_disasm_iter(d->cs, &code, &size, &at, d->insn))
		snprintf(d->text, sizeof(d->text), "%s%s%s", d->insn->mnemonic,
			 *d->insn->op_str ? " " : "", d->insn->op_str);
	cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_INTEL);
	return d->text;
}

/* Report what stops the decoding at @addr; returns -EINVAL. */
static int __printf(3, 4) fail(struct decoder *d, uint64_t addr,
			       const char *fmt, ...)
{
	char why[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pr_err("%s: %s+0x%" PRIx64 " (0x%" PRIx64 "): %s", d->k->path,
	       d->func, addr - d->start, addr, why);
	return -EINVAL;
}

/* The general register @id is a part of (-1: none), and its @width. */
static int gpr(unsigned int id, unsigned int *width)
{
	int i, w;

	*width = 0;
	for (i = 0; i < NR_GPRS; i++)
		for (w = 0; w < 2; w++)
			if (gpr_ids[i][w] == id) {
				*width = w ? 32 : 64;
				return i;
			}
	return -1;
}

/* Operand @i of the instruction as a general register of 32 or 64 bits. */
static int reg_operand(const cs_x86 *x, int i, unsigned int *width)
{
	*width = 0;
	if (i >= x->op_count || x->operands[i].type != X86_OP_REG)
		return -1;
	return gpr(x->operands[i].reg, width);
}

static bool imm_operand(const cs_x86 *x, int i, int64_t *imm)
{
	if (i >= x->op_count || x->operands[i].type != X86_OP_IMM)
		return false;
	*imm = x->operands[i].imm;
	return true;
}

/* What @r reads as in @width bits: a 32-bit read drops the high half. */
static struct reg reg_read(struct reg r, unsigned int width)
{
	if (width == 64)
		return r;
	if (r.kind == REG_NR)
		r.zext = true;
	else if (r.kind == REG_CONST)
		r.value = (uint32_t)r.value;
	else if (r.kind == REG_BIT && r.modulo == 64)
		r.kind = REG_UNKNOWN;
	return r;
}

/* @r plus @imm, in @width bits */
static struct reg reg_add(struct reg r, unsigned int width, int64_t imm)
{
	if (r.kind == REG_NR) {
		r.k += (uint32_t)imm;
		r.zext = false;		/* a 32-bit write sets it again */
	} else if (r.kind == REG_CONST) {
		r.value += imm;
	} else {
		r.kind = REG_UNKNOWN;
	}
	return reg_read(r, width);
}

static int push(struct decoder *d, const struct path *p)
{
	struct path *q;

	if (++d->paths > MAX_PATHS)
		return fail(d, p->addr, "more than %d paths through %s: not a switch this can follow",
			    MAX_PATHS, d->func);
	q = ARRAY_APPEND(d->todo, d->nr_todo, d->alloc_todo);
	if (!q)
		return -ENOMEM;
	*q = *p;
	return 0;
}

/* The numbers of @p reach @to, outside the function: an entry point. */
static int reach(struct decoder *d, const struct path *p, uint64_t to)
{
	const struct ksym *sym = kimage__sym_at(d->k, to, d->prefix);
	struct end *e;

	if (!sym)
		return fail(d, p->addr, "'%s' leaves %s for 0x%" PRIx64 ", where no symbol starts",
			    att(d, p->addr), d->func, to);
	if (strncmp(sym->name, d->prefix, strlen(d->prefix)))
		return fail(d, p->addr, "'%s' leaves %s for %s, not a %s entry point",
			    att(d, p->addr), d->func, sym->name, d->prefix);
	e = ARRAY_APPEND(d->ends, d->nr_ends, d->alloc_ends);
	if (!e)
		return -ENOMEM;
	e->lo = p->lo;
	e->hi = p->hi;
	e->addr = to;
	e->name = sym->name;
	return 0;
}

/*
 * Take the jump of @p to @to.  Returns 1 when the path ends there (an
 * entry point), 0 when it goes on at @to, or -errno.
 */
static int jump(struct decoder *d, struct path *p, uint64_t to)
{
	struct jump *j;
	int32_t i;
	int err;

	if (to - d->start >= d->size) {
		err = reach(d, p, to);
		return err ? err : 1;
	}
	for (i = p->trail; i >= 0; i = d->jumps[i].prev)
		if (d->jumps[i].to == to)
			return fail(d, p->addr, "'%s' loops back to %s+0x%" PRIx64 " (numbers %" PRIu32 "..%" PRIu32 ")",
				    att(d, p->addr), d->func, to - d->start, p->lo, p->hi);
	if (++p->depth > MAX_JUMPS)
		return fail(d, p->addr, "a path of more than %d jumps", MAX_JUMPS);
	j = ARRAY_APPEND(d->jumps, d->nr_jumps, d->alloc_jumps);
	if (!j)
		return -ENOMEM;
	j->to = to;
	j->prev = p->trail;
	p->trail = d->nr_jumps - 1;
	p->addr = to;
	return 0;
}

/* The numbers lo..hi of @p, as a path of their own, jump to @to. */
static int fork_to(struct decoder *d, const struct path *p, uint32_t lo,
		   uint32_t hi, uint64_t to)
{
	struct path q = *p;
	int err;

	q.lo = lo;
	q.hi = hi;
	err = jump(d, &q, to);
	return err ? (err < 0 ? err : 0) : push(d, &q);
}

static int add_piece(struct decoder *d, uint32_t lo, uint32_t hi, bool taken)
{
	struct piece *piece = ARRAY_APPEND(d->pieces, d->nr_pieces,
					   d->alloc_pieces);

	if (!piece)
		return -ENOMEM;
	piece->lo = lo;
	piece->hi = hi;
	piece->taken = taken;
	return 0;
}

/* The pieces of @p's interval on the arc @a of numbers (at most two). */
static int cut(struct decoder *d, const struct path *p, struct arc a,
	       bool taken)
{
	uint64_t seg[2][2], end = a.start + a.len;	/* inclusive bounds */
	int n = 0, i, err = 0;

	if (a.len == SPACE) {
		seg[n][0] = 0;
		seg[n++][1] = SPACE - 1;
	} else if (a.len && end <= SPACE) {
		seg[n][0] = a.start;
		seg[n++][1] = end - 1;
	} else if (a.len) {
		seg[n][0] = a.start;
		seg[n++][1] = SPACE - 1;
		seg[n][0] = 0;
		seg[n++][1] = end - SPACE - 1;
	}
	for (i = 0; i < n && !err; i++) {
		uint64_t lo = seg[i][0] > p->lo ? seg[i][0] : p->lo;
		uint64_t hi = seg[i][1] < p->hi ? seg[i][1] : p->hi;

		if (lo <= hi)
			err = add_piece(d, lo, hi, taken);
	}
	return err;
}

static struct arc arc_not(struct arc a)
{
	return (struct arc){ (uint32_t)(a.start + a.len), SPACE - a.len };
}

/* v == imm, for v in 32 bits, or zero-extended to 64 */
static struct arc arc_equal(unsigned int width, uint64_t imm)
{
	if (width == 32 || imm < SPACE)
		return (struct arc){ (uint32_t)imm, 1 };
	return (struct arc){ 0, 0 };
}

/* v < imm unsigned (v <= imm with @orequal) */
static struct arc arc_below(unsigned int width, uint64_t imm, int orequal)
{
	if (width == 32)
		return (struct arc){ 0, (uint32_t)imm + (uint64_t)orequal };
	if (imm >= SPACE - orequal)
		return (struct arc){ 0, SPACE };
	return (struct arc){ 0, imm + orequal };
}

/* v < imm signed (v <= imm with @orequal): 32-bit values from INT32_MIN */
static struct arc arc_less(unsigned int width, uint64_t imm, int orequal)
{
	int64_t s = (int64_t)imm + orequal;

	if (width == 32)
		return (struct arc){ UINT32_C(1) << 31,
				     ((uint32_t)imm ^ UINT32_C(1) << 31) + (uint64_t)orequal };
	if (s <= 0)
		return (struct arc){ 0, 0 };
	return (struct arc){ 0, (uint64_t)s < SPACE ? (uint64_t)s : SPACE };
}

/* The sign of v - imm */
static struct arc arc_sign(unsigned int width, uint64_t imm)
{
	if (width == 32)
		return (struct arc){ (uint32_t)imm + (UINT32_C(1) << 31),
				     SPACE / 2 };
	return arc_less(width, imm, 0);
}

/*
 * The values v of the compared register for which the jump @id, after
 * "cmp $imm, v" (or a sub) of @width bits, is taken.  A 64-bit v is the
 * zero-extension of a 32-bit one.  Returns 0, or -EINVAL for a condition
 * this does not know (parity, overflow).
 */
static int cmp_arc(unsigned int id, unsigned int width, uint64_t imm,
		   struct arc *out)
{
	bool invert = false;

	switch (id) {
	case X86_INS_JAE:
		invert = true;
		/* fall through */
	case X86_INS_JB:
		*out = arc_below(width, imm, 0);
		break;
	case X86_INS_JA:
		invert = true;
		/* fall through */
	case X86_INS_JBE:
		*out = arc_below(width, imm, 1);
		break;
	case X86_INS_JNE:
		invert = true;
		/* fall through */
	case X86_INS_JE:
		*out = arc_equal(width, imm);
		break;
	case X86_INS_JGE:
		invert = true;
		/* fall through */
	case X86_INS_JL:
		*out = arc_less(width, imm, 0);
		break;
	case X86_INS_JG:
		invert = true;
		/* fall through */
	case X86_INS_JLE:
		*out = arc_less(width, imm, 1);
		break;
	case X86_INS_JNS:
		invert = true;
		/* fall through */
	case X86_INS_JS:
		*out = arc_sign(width, imm);
		break;
	default:
		return -EINVAL;
	}
	if (invert)
		*out = arc_not(*out);
	return 0;
}

static bool is_jcc(unsigned int id)
{
	struct arc unused;

	return !cmp_arc(id, 32, 0, &unused);
}

/* Whether the bit a bit test looks at is set for the number @x. */
static bool bit_set(const struct flags *f, uint64_t x)
{
	unsigned int modulo = f->kind == FLAGS_ZF_BIT ? f->v.modulo : f->width;
	unsigned int bit = (uint32_t)(x + f->v.k) % modulo;

	return bit < f->width && (f->imm >> bit & 1);
}

/* Cut @p's interval into its runs of numbers whose bit is the same. */
static int bit_cut(struct decoder *d, const struct path *p, bool taken_if_set)
{
	uint64_t x, run = p->lo;
	int err = 0;

	if (p->hi - p->lo >= MAX_SPAN)
		return fail(d, p->addr, "'%s' tests a bit of each number of %" PRIu32 "..%" PRIu32 ": too many to follow",
			    att(d, p->addr), p->lo, p->hi);
	for (x = p->lo; x <= p->hi && !err; x++) {
		bool set = bit_set(&p->flags, x);

		if (x == p->hi || set != bit_set(&p->flags, x + 1)) {
			err = add_piece(d, run, x, set == taken_if_set);
			run = x + 1;
		}
	}
	return err;
}

/*
 * The conditional jump @id of @p to @to: the pieces of the interval it
 * takes go there, the others on to @next.  Returns 0 when @p goes on
 * there, 1 when no number falls through, or -errno.
 */
static int branch(struct decoder *d, struct path *p, unsigned int id,
		  uint64_t to, uint64_t next)
{
	const struct flags *f = &p->flags;
	const struct path here = *p;
	bool on = false;
	struct arc a;
	size_t i;
	int err;

	d->nr_pieces = 0;
	if (f->kind == FLAGS_CMP && !cmp_arc(id, f->width, f->imm, &a)) {
		a.start -= f->v.k;	/* v = nr + k */
		err = cut(d, p, a, true);
		if (!err)
			err = cut(d, p, arc_not(a), false);
	} else if (f->kind == FLAGS_ZF_BIT &&
		   (id == X86_INS_JE || id == X86_INS_JNE)) {
		err = bit_cut(d, p, id == X86_INS_JNE);
	} else if (f->kind == FLAGS_CF_BIT &&
		   (id == X86_INS_JB || id == X86_INS_JAE)) {
		err = bit_cut(d, p, id == X86_INS_JB);
	} else {
		return fail(d, p->addr, "'%s' branches on flags this cannot tell",
			    att(d, p->addr));
	}
	for (i = 0; i < d->nr_pieces && !err; i++) {
		const struct piece *c = &d->pieces[i];
		struct path q = here;

		if (c->taken) {
			err = fork_to(d, &here, c->lo, c->hi, to);
		} else if (!on) {
			on = true;
			p->lo = c->lo;
			p->hi = c->hi;
			p->addr = next;
		} else {
			q.lo = c->lo;
			q.hi = c->hi;
			q.addr = next;
			err = push(d, &q);
		}
	}
	return err ? err : !on;
}

/* jmp *disp(,%index,8): a path for each slot, each with its one number. */
static int jump_table(struct decoder *d, const struct path *p,
		      const x86_op_mem *m)
{
	unsigned int width;
	int i = gpr(m->index, &width);
	const struct reg *r = i < 0 ? NULL : &p->regs[i];
	uint64_t n = (uint64_t)p->hi - p->lo + 1, table, x, *slots;
	uint32_t first = r ? p->lo + r->k : 0;
	int err = 0;

	if (!r || width != 64 || m->base != X86_REG_INVALID || m->scale != 8)
		return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
	if (r->kind != REG_NR || !r->zext)
		return fail(d, p->addr, "'%s' indexes with a register that does not hold the number",
			    att(d, p->addr));
	if (n > MAX_SPAN || first > (uint32_t)(p->hi + r->k))
		return fail(d, p->addr, "'%s' for the numbers %" PRIu32 "..%" PRIu32 ": not a bounded jump table",
			    att(d, p->addr), p->lo, p->hi);
	table = (uint64_t)m->disp + 8 * (uint64_t)first;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	/* a vmlinux is linked: the slots hold final addresses */
	if (kimage__read(d->k, table, slots, n * sizeof(*slots)))
		err = fail(d, p->addr, "'%s': the slots at 0x%" PRIx64 " are not in the file",
			   att(d, p->addr), table);
	for (x = 0; x < n && !err; x++)
		err = fork_to(d, p, p->lo + x, p->lo + x, slots[x]);
	d->tables++;
	free(slots);
	return err;
}

/* Set the flags as "cmp $imm, @r" in @width bits does. */
static void set_cmp_flags(struct path *p, struct reg r, unsigned int width,
			  uint64_t imm)
{
	p->flags.kind = FLAGS_CMP;
	p->flags.v = r;
	p->flags.width = width;
	p->flags.imm = imm;
	if (r.kind != REG_NR || (width == 64 && !r.zext))
		p->flags.kind = FLAGS_UNKNOWN;
}

/* mov, lea, add, sub, xor, shl: what they write, from what is known. */
static int assign(struct decoder *d, struct path *p)
{
	const cs_x86 *x = &d->insn->detail->x86;
	const x86_op_mem *m = &x->operands[1].mem;
	struct reg r = { .kind = REG_UNKNOWN };
	unsigned int width, w2;
	int dst = reg_operand(x, 0, &width), src = reg_operand(x, 1, &w2);
	int64_t imm;

	if (dst < 0)
		return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
	switch (d->insn->id) {
	case X86_INS_MOV:
	case X86_INS_MOVABS:
		if (src >= 0 && w2 == width)
			r = p->regs[src];
		else if (imm_operand(x, 1, &imm))
			r = (struct reg){ .kind = REG_CONST, .value = imm };
		else
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		break;
	case X86_INS_LEA:
		src = gpr(m->base, &w2);
		if (src < 0 || w2 != 64 || m->index != X86_REG_INVALID ||
		    m->segment != X86_REG_INVALID)
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		r = reg_add(p->regs[src], 64, m->disp);
		break;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (!imm_operand(x, 1, &imm))
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		if (d->insn->id == X86_INS_SUB)
			set_cmp_flags(p, reg_read(p->regs[dst], width), width, imm);
		else
			p->flags.kind = FLAGS_UNKNOWN;
		r = reg_add(p->regs[dst], width,
			    d->insn->id == X86_INS_SUB ? -imm : imm);
		break;
	case X86_INS_XOR:
		if (src != dst || w2 != width)
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		r = (struct reg){ .kind = REG_CONST, .value = 0 };
		p->flags.kind = FLAGS_UNKNOWN;
		break;
	case X86_INS_SHL:
		/* mov $1,%eax; mov %esi,%ecx; shl %cl,%rax: 1 << nr */
		if (x->op_count != 2 || x->operands[1].type != X86_OP_REG ||
		    x->operands[1].reg != X86_REG_CL ||
		    p->regs[dst].kind != REG_CONST || p->regs[dst].value != 1 ||
		    p->regs[GPR_RCX].kind != REG_NR)
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		r = (struct reg){ .kind = REG_BIT, .modulo = width,
				  .k = p->regs[GPR_RCX].k };
		p->flags.kind = FLAGS_UNKNOWN;
		break;
	}
	/* a 32-bit write zeroes the high half: the low one reads the same */
	p->regs[dst] = reg_read(r, width);
	return 0;
}

/* cmp, test, bt: what the flags now tell of the number. */
static int compare(struct decoder *d, struct path *p)
{
	const cs_x86 *x = &d->insn->detail->x86;
	unsigned int width, w2;
	int r = reg_operand(x, 0, &width), r2 = reg_operand(x, 1, &w2);
	struct reg v;
	int64_t imm = 0;

	if (r < 0)
		return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
	v = reg_read(p->regs[r], width);
	switch (d->insn->id) {
	case X86_INS_CMP:
	case X86_INS_TEST:
		/* test $mask,%eax of 1 << nr in %rax: the bits the mask has */
		if (d->insn->id == X86_INS_TEST && imm_operand(x, 1, &imm) &&
		    p->regs[r].kind == REG_BIT) {
			p->flags = (struct flags){ FLAGS_ZF_BIT, p->regs[r], width,
				width == 32 ? (uint32_t)imm : (uint64_t)imm };
			return 0;
		}
		/* test %esi,%esi sets the flags as cmp $0,%esi does */
		if (d->insn->id == X86_INS_CMP ? !imm_operand(x, 1, &imm) :
		    r2 != r || w2 != width)
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		set_cmp_flags(p, v, width, imm);
		break;
	case X86_INS_BT:
		/* bt %rsi,%rax with a mask in %rax: CF is bit nr of it */
		if (r2 < 0 || v.kind != REG_CONST)
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		p->flags = (struct flags){ FLAGS_CF_BIT,
			reg_read(p->regs[r2], w2), width, v.value };
		if (p->flags.v.kind != REG_NR)
			p->flags.kind = FLAGS_UNKNOWN;
		return 0;
	}
	if (p->flags.kind == FLAGS_UNKNOWN)
		return fail(d, p->addr, "'%s' compares a register that does not hold the number",
			    att(d, p->addr));
	return 0;
}

static int decode(struct decoder *d, uint64_t addr)
{
	const uint8_t *code = d->code + (addr - d->start);
	size_t size = d->size - (addr - d->start);
	uint64_t at = addr;

	if (addr - d->start >= d->size)
		return fail(d, addr, "the path runs off the end of %s", d->func);
	if (!cs_disasm_iter(d->cs, &code, &size, &at, d->insn))
		return fail(d, addr, "no instruction Capstone knows starts there");
	return 0;
}

/*
 * Run the instruction at @p's place.  Returns 0 when the path goes on (at
 * its new place), 1 when it ended, or -errno.
 */
static int step(struct decoder *d, struct path *p)
{
	const cs_x86 *x;
	const struct ksym *sym;
	uint64_t next;
	int64_t to;
	int err = decode(d, p->addr);

	if (err)
		return err;
	x = &d->insn->detail->x86;
	next = p->addr + d->insn->size;
	switch (d->insn->id) {
	case X86_INS_NOP:
	case X86_INS_ENDBR64:
	case X86_INS_PUSH:		/* before a call that does not return */
		break;
	case X86_INS_MOV:
	case X86_INS_MOVABS:
	case X86_INS_LEA:
	case X86_INS_ADD:
	case X86_INS_SUB:
	case X86_INS_XOR:
	case X86_INS_SHL:
		err = assign(d, p);
		break;
	case X86_INS_CMP:
	case X86_INS_TEST:
	case X86_INS_BT:
		err = compare(d, p);
		break;
	case X86_INS_JMP:
		if (imm_operand(x, 0, &to))
			return jump(d, p, to);
		if (x->op_count == 1 && x->operands[0].type == X86_OP_MEM) {
			err = jump_table(d, p, &x->operands[0].mem);
			return err ? err : 1;
		}
		return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
	case X86_INS_CALL:
		if (!imm_operand(x, 0, &to))
			return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
		sym = kimage__sym_at(d->k, to, "__fentry__");
		if (sym && !strcmp(sym->name, "__fentry__"))
			break;		/* ftrace's hook returns as it came */
		if ((uint64_t)to - d->start < d->size)
			return fail(d, p->addr, "'%s' calls into %s itself",
				    att(d, p->addr), d->func);
		/* the entry point called does not return, or its caller does */
		err = reach(d, p, to);
		return err ? err : 1;
	case X86_INS_RET:
		return fail(d, p->addr, "'%s' returns before reaching an entry point",
			    att(d, p->addr));
	default:
		if (is_jcc(d->insn->id) && imm_operand(x, 0, &to))
			return branch(d, p, d->insn->id, to, next);
		return fail(d, p->addr, "cannot follow '%s'", att(d, p->addr));
	}
	if (!err)
		p->addr = next;
	return err;
}

static int end_cmp(const void *pa, const void *pb)
{
	const struct end *a = pa, *b = pb;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

static int set_target(struct switch_target *t, const struct end *e)
{
	t->addr = e->addr;
	t->name = strdup(e->name);
	return t->name ? 0 : -ENOMEM;
}

/* The ends tile 0..2^32-1; the one that holds UINT32_MAX is the default. */
static int finish(struct decoder *d, struct switch_map *map)
{
	const struct end *e, *def;
	uint64_t next = 0;
	size_t i, nr = 0;
	uint32_t x;
	int err;

	qsort(d->ends, d->nr_ends, sizeof(*d->ends), end_cmp);
	for (i = 0; i < d->nr_ends && d->ends[i].lo == next; i++)
		next = (uint64_t)d->ends[i].hi + 1;
	if (i < d->nr_ends || next != SPACE)
		return fail(d, d->start, "the paths through %s do not cover each number once (a bug here)",
			    d->func);
	def = &d->ends[d->nr_ends - 1];
	for (e = d->ends; e < def; e++) {
		if (e->addr == def->addr)
			continue;
		if (e->hi >= MAX_NR)
			return fail(d, d->start, "the numbers %" PRIu32 "..%" PRIu32 " reach %s: not a syscall switch",
				    e->lo, e->hi, e->name);
		nr = (size_t)e->hi + 1;
	}
	err = set_target(&map->def, def);
	map->v = calloc(nr ? nr : 1, sizeof(*map->v));
	if (err || !map->v)
		return -ENOMEM;
	map->nr = nr;
	for (e = d->ends; !err && e <= def && e->lo < nr; e++)
		for (x = e->lo; !err && x < nr && x <= e->hi; x++)
			err = set_target(&map->v[x], e);
	return err;
}

static int decoder_open(struct decoder *d)
{
	const struct ksym *sym = kimage__sym(d->k, d->func);

	if (!sym) {
		pr_err("%s: no symbol %s", d->k->path, d->func);
		return -ENOENT;
	}
	if (!sym->size || sym->size > MAX_CODE) {
		pr_err("%s: %s is %" PRIu64 " bytes long: not a syscall switch",
		       d->k->path, d->func, sym->size);
		return -EINVAL;
	}
	d->start = sym->addr;
	d->size = sym->size;
	d->code = malloc(d->size);
	if (!d->code)
		return -ENOMEM;
	if (kimage__read(d->k, d->start, d->code, d->size)) {
		pr_err("%s: the code of %s is not in the file", d->k->path,
		       d->func);
		return -EFAULT;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK)
		return -ENOMEM;		/* Capstone has x86: only memory lacks */
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->cs);
	return d->insn ? 0 : -ENOMEM;
}

static void decoder_close(struct decoder *d)
{
	if (d->insn)
		cs_free(d->insn, 1);
	if (d->cs)
		cs_close(&d->cs);
	free(d->code);
	free(d->todo);
	free(d->jumps);
	free(d->ends);
	free(d->pieces);
}

int syscall_switch__decode(const struct kimage *k, const char *func,
			   const char *prefix, struct switch_map *map)
{
	struct decoder d = { .k = k, .func = func, .prefix = prefix };
	struct path p = { .lo = 0, .hi = UINT32_MAX, .trail = -1 };
	int err;

	memset(map, 0, sizeof(*map));
	err = decoder_open(&d);
	p.addr = d.start;
	p.regs[GPR_RSI].kind = REG_NR;
	if (!err)
		err = push(&d, &p);
	while (!err && d.nr_todo) {
		p = d.todo[--d.nr_todo];
		do
			err = step(&d, &p);
		while (!err);
		err = err < 0 ? err : 0;
	}
	if (!err)
		err = finish(&d, map);
	map->paths = d.paths;
	map->tables = d.tables;
	if (err)
		switch_map__release(map);
	decoder_close(&d);
	return err;
}

void switch_map__release(struct switch_map *map)
{
	size_t i;

	for (i = 0; i < map->nr; i++)
		free(map->v[i].name);
	free(map->v);
	free(map->def.name);
	memset(map, 0, sizeof(*map));
}
