// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-boot-aggregate.c - libFuzzer target: the boot_aggregate that
 * "modhash export --format=keylime --ima-log FILE" takes from an IMA
 * list: from the first line of an ASCII list or the first entry of a
 * binary one (boot-aggregate.c), and from an ASCII list rebuilt as
 * binary (ima-ascii.c), as verify-log reads it.  What comes out must be
 * 40 to 128 lower-case hex digits, and the same both ways.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot-aggregate.h"
#include "ima-ascii.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_hex(const char *hex)
{
	size_t n = strnlen(hex, BOOT_AGGREGATE_HEX);

	if (n < 40 || n >= BOOT_AGGREGATE_HEX || n % 2 ||
	    strspn(hex, "0123456789abcdef") != n)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char direct[BOOT_AGGREGATE_HEX], rebuilt[BOOT_AGGREGATE_HEX];
	struct ima_ascii_error err;
	const char *why_direct;
	unsigned char *bin;
	size_t bin_len;

	why_direct = boot_aggregate_from_buffer(data, size, direct);
	if (!why_direct)
		check_hex(direct);
	if (!ima_ascii_detect(data, size) ||
	    ima_ascii_to_binary((const char *)data, size, &bin, &bin_len, &err))
		return 0;
	if (!boot_aggregate_from_buffer(bin, bin_len, rebuilt)) {
		check_hex(rebuilt);
		/* The text's first entry and its binary form agree. */
		if (!why_direct && strcmp(direct, rebuilt))
			__builtin_trap();
	}
	free(bin);
	return 0;
}
