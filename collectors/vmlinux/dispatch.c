// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "lib/print.h"
#include "abi.h"
#include "collect.h"
#include "dispatch.h"
#include "syscall-switch.h"

uint64_t dispatch__reached(const struct abi_map *m, size_t nr)
{
	return nr < m->nr ? m->addr[nr] : m->def;
}

int dispatch__read_table(struct collect *c, const struct abi_def *d,
			 const struct ksym *table, struct abi_map *m)
{
	const struct ksym *def;
	char ni[32];
	size_t nr;
	int err = 0;

	def = kimage__sym(&c->k, abi__ni_name(d, ni, sizeof(ni)));

	if (table->size > 8 * MAX_SYSCALLS) {
		pr_err("%s: %s of %llu bytes: not a syscall table", c->k.path,
		       table->name, (unsigned long long)table->size);
		return -EINVAL;
	}
	m->from = table->name;
	m->verb = "holds";
	m->nr = table->size / 8;
	m->def = def ? def->addr : 0;
	m->addr = calloc(m->nr, sizeof(*m->addr));
	if (!m->addr)
		return -ENOMEM;
	for (nr = 0; !err && nr < m->nr; nr++)
		m->addr[nr] = read_u64(&c->k, table->addr + 8 * nr, &err);
	if (err)
		pr_err("%s: %s is not in the file's data", c->k.path,
		       table->name);
	return err;
}

int dispatch__decode_switch(struct collect *c, const struct abi_def *d,
			    struct abi_map *m)
{
	struct switch_map map;
	size_t nr;
	int err = syscall_switch__decode(&c->k, d->func, d->prefix, &map);

	if (err)
		return err;
	m->from = d->func;
	m->verb = "reaches";
	m->nr = map.nr;
	m->def = map.def.addr;
	m->addr = calloc(map.nr ? map.nr : 1, sizeof(*m->addr));
	for (nr = 0; m->addr && nr < map.nr; nr++)
		m->addr[nr] = map.v[nr].addr;
	switch_map__release(&map);
	return m->addr ? 0 : -ENOMEM;
}
