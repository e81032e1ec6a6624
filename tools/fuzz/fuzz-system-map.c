// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-system-map.c - libFuzzer target: the System.map given with a
 * bzImage or a stripped vmlinux, searched for the symbols that locate
 * the allowlist.
 */
#include <stddef.h>
#include <stdint.h>

#include "system-map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "_text", "__module_hashes_start",
					     "__module_hashes_end",
					     "linux_banner" };
	const char *text = (const char *)data;
	size_t i, lines = 1, line;
	uint64_t addr;

	for (i = 0; i < size; i++)
		lines += text[i] == '\n';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		line = 0;
		if (system_map_find(text, size, names[i], &addr, &line) &&
		    line > lines)
			__builtin_trap();
	}
	return 0;
}
