// SPDX-License-Identifier: GPL-2.0
/* test-list-diff.c - added, removed and common digests of two lists. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/hash_info.h>

#include "list-diff.h"

/* A sha256 list of the digests whose first bytes are in FIRSTS. */
static void make(struct allowlist *al, const char *firsts)
{
	unsigned char d[8][32];
	size_t i, n = strlen(firsts);

	memset(d, 0, sizeof(d));
	for (i = 0; i < n; i++)
		d[i][0] = (unsigned char)firsts[i];
	assert_null(allowlist_build(HASH_ALGO_SHA256, &d[0][0], (uint32_t)n, al));
}

static char seen[32];

static void record(void *ctx, char sign, const unsigned char *digest)
{
	size_t n = strlen(seen);

	(void)ctx;
	seen[n] = sign;
	seen[n + 1] = (char)digest[0];
}

static void test_counts_and_order(void **state)
{
	struct allowlist a, b;
	struct list_diff d;

	(void)state;
	make(&a, "bdac");
	make(&b, "ecfa");
	memset(seen, 0, sizeof(seen));
	d = allowlist_diff(&a, &b, record, NULL);
	assert_true(d.comparable);
	assert_int_equal(d.common, 2);	/* a, c */
	assert_int_equal(d.removed, 2);	/* b, d */
	assert_int_equal(d.added, 2);	/* e, f */
	assert_string_equal(seen, "-b-d+e+f");
	d = allowlist_diff(&a, &a, NULL, NULL);
	assert_int_equal(d.added + d.removed, 0);
	assert_int_equal(d.common, 4);
	allowlist_free(&a);
	allowlist_free(&b);
}

static void test_empty_and_other_algorithm(void **state)
{
	struct allowlist a, empty, other;
	unsigned char d384[48] = { 'a' };
	struct list_diff d;

	(void)state;
	make(&a, "ab");
	make(&empty, "");
	d = allowlist_diff(&empty, &a, NULL, NULL);
	assert_int_equal(d.added, 2);
	assert_int_equal(d.removed, 0);
	assert_null(allowlist_build(HASH_ALGO_SHA384, d384, 1, &other));
	memset(seen, 0, sizeof(seen));
	d = allowlist_diff(&a, &other, record, NULL);
	assert_false(d.comparable);
	assert_int_equal(d.common, 0);
	assert_int_equal(d.removed, 2);
	assert_int_equal(d.added, 1);
	assert_string_equal(seen, "-a-b+a");
	allowlist_free(&a);
	allowlist_free(&empty);
	allowlist_free(&other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_order),
		cmocka_unit_test(test_empty_and_other_algorithm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
