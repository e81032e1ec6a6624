// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-module-index.c - libFuzzer target: the modules.order and
 * modules.dep of an installed tree, read to list its modules, and the
 * modules.order of a kernel build (kbuild-order.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kbuild-order.h"
#include "module-tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every name handed over is a module's, without newline or NUL. */
static int add(void *ctx, const char *name)
{
	size_t *count = ctx;

	if (!*name || strchr(name, '\n') || !module_name_is_module(name))
		__builtin_trap();
	++*count;
	return 0;
}

/* Every object handed over is a path without blanks, NUL or newline. */
static int add_object(void *ctx, const char *stem, size_t stem_len,
		      size_t line)
{
	size_t *count = ctx, i;

	if (!stem_len || !line)
		__builtin_trap();
	for (i = 0; i < stem_len; i++)
		if (!stem[i] || stem[i] == '\n' || stem[i] == ' ' ||
		    stem[i] == '\t')
			__builtin_trap();
	++*count;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t i, lines = 1, bad, count;
	int dep;

	for (i = 0; i < size; i++)
		lines += text[i] == '\n';
	for (dep = 0; dep < 2; dep++) {
		count = 0;
		bad = module_tree_parse_index(text, size, dep, add, &count);
		if (bad > lines || count > lines)
			__builtin_trap();
	}
	count = 0;
	bad = kbuild_order_parse(text, size, add_object, &count);
	if (bad > lines || count > lines ||
	    (!bad && count && !kbuild_order_names_objects(text, size)))
		__builtin_trap();
	return 0;
}
