/* SPDX-License-Identifier: GPL-2.0 */
/* list-diff.h - what one allowlist has that another has not. */
#ifndef MODHASH_LIST_DIFF_H
#define MODHASH_LIST_DIFF_H

#include <stdint.h>

#include "format.h"

struct list_diff {
	uint32_t added;		/* in B only */
	uint32_t removed;	/* in A only */
	uint32_t common;
	bool comparable;	/* same algorithm: digests can match */
};

/*
 * Compare two valid (sorted) lists, calling EACH (if not NULL) for every
 * digest in one list only, in order, with SIGN '-' (A only) or '+' (B
 * only).  Lists of different algorithms share nothing.
 */
struct list_diff allowlist_diff(const struct allowlist *a,
				const struct allowlist *b,
				void (*each)(void *ctx, char sign,
					     const unsigned char *digest),
				void *ctx);

#endif
