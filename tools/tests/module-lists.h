/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module-lists.h - the fixtures of the command tests: a module compiled
 * here and two allowlists, one that holds its digest and one that does
 * not.  Needs fixtures.h and format.h first.
 */
#ifndef MODHASH_TEST_MODULE_LISTS_H
#define MODHASH_TEST_MODULE_LISTS_H

#include <linux/hash_info.h>

/*
 * In the fixture directory: m.c and m.ko (an object file the loader
 * would hash like any module), list.bin (sha256, m.ko's digest and one
 * other) and other.bin (only the other).  When AL is not NULL it gets
 * list.bin's list, and DIGEST (32 bytes) m.ko's digest.  0 or -1.
 */
static inline int make_module_lists(struct allowlist *al,
				    unsigned char *digest)
{
	unsigned char d[2][32] = { { 0 } }, *mod;
	struct allowlist with, without;
	size_t len;
	int ret = -1;

	if (fixture_sh("printf 'int f(void) { return 2; }' > m.c && cc -c -o m.ko m.c"))
		return -1;
	mod = fixture_read("m.ko", &len);
	if (!mod || allowlist_build(HASH_ALGO_SHA256, d[1], 1, &without)) {
		free(mod);
		return -1;
	}
	if (!allowlist_digest(&without, mod, len, d[0]) &&
	    !allowlist_build(HASH_ALGO_SHA256, &d[0][0], 2, &with)) {
		if (!fixture_write("list.bin", with.blob, with.blob_len) &&
		    !fixture_write("other.bin", without.blob, without.blob_len))
			ret = 0;
		if (digest)
			memcpy(digest, d[0], sizeof(d[0]));
		if (al && !ret)
			*al = with;
		else
			allowlist_free(&with);
	}
	allowlist_free(&without);
	free(mod);
	return ret;
}

#endif
