// SPDX-License-Identifier: GPL-2.0
/* test-format.c - the allowlist parser refuses what the kernel refuses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/hash_info.h>
#include <linux/module_hashes.h>

#include "format.h"

static unsigned char digests[3][32];

static void make_list(struct allowlist *al)
{
	memset(digests, 0, sizeof(digests));
	digests[0][0] = 3;
	digests[1][0] = 1;
	digests[2][0] = 2;
	assert_null(allowlist_build(HASH_ALGO_SHA256, &digests[0][0], 3, al));
}

static void test_build_sorts_and_finds(void **state)
{
	struct allowlist al;
	unsigned char probe[32] = { 2 };

	(void)state;
	make_list(&al);
	assert_int_equal(al.count, 3);
	assert_int_equal(al.digest_size, 32);
	assert_int_equal(al.digests[0], 1);
	assert_int_equal(al.digests[64], 3);
	assert_true(allowlist_contains(&al, probe));
	probe[0] = 4;
	assert_false(allowlist_contains(&al, probe));
	allowlist_free(&al);
}

static void expect_refused(size_t field, unsigned char value,
			   const char *reason, size_t where)
{
	struct allowlist al, bad;
	unsigned char copy[20 + 3 * 32];
	size_t offset;

	make_list(&al);
	memcpy(copy, al.blob, al.blob_len);
	copy[field] = value;
	assert_string_equal(allowlist_parse(copy, al.blob_len, &bad, &offset),
			    reason);
	assert_int_equal(offset, where);
	allowlist_free(&al);
}

static void test_refusals(void **state)
{
	struct allowlist al, bad;
	size_t offset;

	(void)state;
	expect_refused(0, 'X', "bad magic", 0);
	expect_refused(8, 2, "unknown version", 8);
	expect_refused(10, HASH_ALGO_SHA1, "unsupported hash algorithm", 10);
	expect_refused(12, 20, "digest size does not match the algorithm", 12);
	expect_refused(14, 1, "reserved field not zero", 14);
	expect_refused(16, 4, "size does not match the digest count", 116);
	expect_refused(20 + 32, 1, "duplicate digest", 52);
	expect_refused(20 + 64, 0, "digests not sorted", 84);
	make_list(&al);
	assert_string_equal(allowlist_parse(al.blob, 19, &bad, &offset),
			    "truncated header");
	assert_int_equal(offset, 19);
	allowlist_free(&al);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_sorts_and_finds),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
