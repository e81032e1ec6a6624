// SPDX-License-Identifier: GPL-2.0
/* kernel-image.c - the allowlist of a kernel file (raw list only so far). */
#include <stdlib.h>

#include "kernel-image.h"
#include "util.h"

int kernel_allowlist_load(const char *path, struct allowlist *al)
{
	unsigned char *buf;
	size_t len, offset;
	const char *why;

	if (read_whole_file(path, &buf, &len))
		return -1;
	why = allowlist_parse(buf, len, al, &offset);
	if (why) {
		fail_at(path, "not a valid module allowlist: %s (offset %zu)",
			why, offset);
		free(buf);
		return -1;
	}
	al->owned = buf;
	return 0;
}
