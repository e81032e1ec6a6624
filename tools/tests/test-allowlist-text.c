// SPDX-License-Identifier: GPL-2.0
/*
 * test-allowlist-text.c - the securityfs text parser: a kernel's text
 * rebuilds its binary list; malformed text is refused with its line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/hash_info.h>

#include "allowlist-text.h"

#define D1 "1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "2222222222222222222222222222222222222222222222222222222222222222"
#define D3 "3333333333333333333333333333333333333333333333333333333333333333"
#define HEADER(n) "# module allowlist version 1, sha256, " n " digests\n"

static const char *parse(const char *text, size_t *line, size_t *offset,
			 struct allowlist *al)
{
	return allowlist_text_parse((const unsigned char *)text, strlen(text),
				    al, line, offset);
}

static void test_valid_text_rebuilds_list(void **state)
{
	const char *text = HEADER("3") "sha256:" D1 "\nsha256:" D2
			   "\nsha256:" D3 "\n";
	struct allowlist al;
	size_t line, offset;
	char *out = NULL;
	size_t out_len = 0;
	FILE *fp;

	(void)state;
	assert_null(parse(text, &line, &offset, &al));
	assert_int_equal(al.algo, HASH_ALGO_SHA256);
	assert_int_equal(al.count, 3);
	assert_int_equal(al.blob_len, 20 + 3 * 32);
	assert_memory_equal(al.blob, "KMODHASH", 8);
	assert_int_equal(al.digests[32], 0x22);
	/* Written back, it is the text without the header. */
	fp = open_memstream(&out, &out_len);
	allowlist_text_write(fp, &al);
	fclose(fp);
	assert_string_equal(out, text + strlen(HEADER("3")));
	free(out);
	allowlist_free(&al);
}

static void test_empty_list(void **state)
{
	struct allowlist al;
	size_t line, offset;

	(void)state;
	assert_null(parse(HEADER("0"), &line, &offset, &al));
	assert_int_equal(al.count, 0);
	assert_int_equal(al.blob_len, 20);
	allowlist_free(&al);
}

static void expect_error(const char *text, const char *reason,
			 size_t want_line)
{
	struct allowlist al;
	size_t line, offset;
	const char *why = parse(text, &line, &offset, &al);

	assert_non_null(why);
	assert_string_equal(why, reason);
	assert_int_equal(line, want_line);
	assert_null(al.owned);
}

static void test_malformed_lines(void **state)
{
	(void)state;
	expect_error("# module allowlist version 1, sha256, 3 digits\n",
		     "header line not understood", 1);
	expect_error("# module allowlist version 2, sha256, 1 digests\n",
		     "unknown version", 1);
	expect_error("# module allowlist version 1, md4, 1 digests\n",
		     "unknown hash algorithm", 1);
	expect_error(HEADER("2") "sha256:" D1 "\nsha512:" D2 "\n",
		     "not a digest of the header's algorithm", 3);
	expect_error(HEADER("2") "sha256:" D1 "\nsha256:" D2 "0\n",
		     "digest is not hex of the algorithm's size", 3);
	expect_error(HEADER("2") "sha256:" D1 "\nsha256:xx" D2 "\n",
		     "digest is not hex of the algorithm's size", 3);
	expect_error(HEADER("3") "sha256:" D1 "\nsha256:" D2 "\n",
		     "fewer digest lines than the header announced", 4);
	expect_error(HEADER("1") "sha256:" D1 "\nsha256:" D2 "\n",
		     "more digest lines than the header announced", 3);
	expect_error(HEADER("2") "sha256:" D2 "\nsha256:" D1 "\n",
		     "digests not sorted", 3);
	expect_error(HEADER("2") "sha256:" D1 "\nsha256:" D1 "\n",
		     "duplicate digest", 3);
	expect_error(HEADER("2") "sha256:" D1 "\n\nsha256:" D2 "\n",
		     "not a digest of the header's algorithm", 3);
	expect_error(HEADER("4000000000") "sha256:" D1 "\n",
		     "more digests announced than the text can hold", 1);
	expect_error("garbage\n",
		     "not the securityfs text of a module allowlist", 1);
}

static void test_refused_list_says_why(void **state)
{
	(void)state;
	expect_error("# module allowlist refused: digests not sorted\n",
		     "the kernel refused its list: digests not sorted", 1);
}

static void test_offset_is_line_start(void **state)
{
	const char *text = HEADER("2") "sha256:" D1 "\nsha256:zz\n";
	struct allowlist al;
	size_t line, offset;

	(void)state;
	assert_non_null(parse(text, &line, &offset, &al));
	assert_int_equal(line, 3);
	assert_int_equal(offset, strlen(HEADER("2")) + 7 + 64 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_text_rebuilds_list),
		cmocka_unit_test(test_empty_list),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_refused_list_says_why),
		cmocka_unit_test(test_offset_is_line_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
