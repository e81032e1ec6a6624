// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-pcr-values.c - libFuzzer target: the quoted PCR values verify-log
 * reads, as evmctl's --pcrs file and plain hex, for the sha1 and sha256
 * banks.
 */
#include <stddef.h>
#include <stdint.h>

#include "pcr-values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count_lines(const char *text, size_t len)
{
	size_t i, lines = 1;

	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t sizes[] = { 20, 32 };
	const char *text = (const char *)data, *why;
	size_t lines = count_lines(text, size), line, i;
	unsigned char value[32];

	for (i = 0; i < 2; i++) {
		line = 0;
		if (pcr_values_from_evmctl(text, size, 10, sizes[i], value,
					   &why, &line) && (!why || line > lines))
			__builtin_trap();
		if (pcr_values_from_hex(text, size, sizes[i], value, &why) &&
		    !why)
			__builtin_trap();
	}
	return 0;
}
