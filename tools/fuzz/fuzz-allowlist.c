// SPDX-License-Identifier: GPL-2.0
/* fuzz-allowlist.c - libFuzzer target: the allowlist parser and lookup. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char probe[ALLOWLIST_MAX_DIGEST] = { 0 };
	struct allowlist al;
	size_t offset;

	if (allowlist_parse(data, size, &al, &offset)) {
		if (offset > size)
			__builtin_trap();	/* an offset outside the input */
		return 0;
	}
	if (al.count) {
		/* Every digest on a valid list is found; a changed one is not
		 * found unless it is on the list too. */
		if (!allowlist_contains(&al, al.digests))
			__builtin_trap();
		memcpy(probe, al.digests + (size_t)(al.count - 1) * al.digest_size,
		       al.digest_size);
		if (!allowlist_contains(&al, probe))
			__builtin_trap();
		probe[0] ^= 0x80;
		(void)allowlist_contains(&al, probe);
	}
	return 0;
}
