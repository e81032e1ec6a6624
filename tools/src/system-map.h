/* SPDX-License-Identifier: GPL-2.0 */
/*
 * system-map.h - symbol addresses from a System.map ("ADDRESS TYPE NAME"
 * lines, as kbuild writes it next to every kernel).  A bzImage's vmlinux
 * has no symbol table, so its System.map tells where the list is.
 */
#ifndef MODHASH_SYSTEM_MAP_H
#define MODHASH_SYSTEM_MAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The address of NAME in the System.map text TEXT.  Returns NULL, or why
 * not with *LINE the line at fault (0 when the symbol is just missing).
 */
const char *system_map_find(const char *text, size_t len, const char *name,
			    uint64_t *addr, size_t *line);

#endif
