// SPDX-License-Identifier: GPL-2.0
/* list-diff.c - a merge of two sorted digest lists. */
#include <string.h>

#include "list-diff.h"

struct list_diff allowlist_diff(const struct allowlist *a,
				const struct allowlist *b,
				void (*each)(void *ctx, char sign,
					     const unsigned char *digest),
				void *ctx)
{
	struct list_diff d = { 0, 0, 0, a->algo == b->algo };
	size_t size = a->digest_size;
	uint32_t i = 0, j = 0;

	while (i < a->count || j < b->count) {
		const unsigned char *x = a->digests + (size_t)i * size;
		const unsigned char *y = b->digests + (size_t)j * b->digest_size;
		int order;

		if (i == a->count)
			order = 1;
		else if (j == b->count)
			order = -1;
		else
			order = d.comparable ? memcmp(x, y, size) : -1;
		if (order == 0) {
			d.common++;
			i++;
			j++;
		} else if (order < 0) {
			d.removed++;
			i++;
			if (each)
				each(ctx, '-', x);
		} else {
			d.added++;
			j++;
			if (each)
				each(ctx, '+', y);
		}
	}
	return d;
}
