// SPDX-License-Identifier: GPL-2.0
/*
 * test-decompress.c - each format, compressed by its real command-line
 * tool, comes back byte for byte; what follows a stream is left alone;
 * truncated and corrupt streams and the size limit are errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "decompress.h"
#include "fixtures.h"

static const struct {
	const char *command, *ext;
	enum compression comp;
} tools[] = {
	{ "gzip -1 -n -c", "gz", COMP_GZIP },
	{ "xz -1 --check=crc32 -c", "xz", COMP_XZ },
	{ "zstd -q -3 -c", "zst", COMP_ZSTD },
	{ "lz4 -q -l -1 -c", "lz4", COMP_LZ4_LEGACY },
	{ "bzip2 -1 -c", "bz2", COMP_BZIP2 },
	{ "lzma -1 -c", "lzma", COMP_LZMA },
};

#define N_TOOLS (sizeof(tools) / sizeof(tools[0]))

static unsigned char *original;
static size_t original_len;

static int setup(void **state)
{
	size_t i;

	(void)state;
	fixture_start();
	/* 9 MiB: more than one 8 MiB lz4 legacy block. */
	if (fixture_sh("head -c 1048576 /dev/urandom > data && "
		       "yes 'module allowlist' | head -c 8388608 >> data"))
		return -1;
	original = fixture_read("data", &original_len);
	for (i = 0; i < N_TOOLS; i++)
		if (fixture_sh("%s < data > data.%s", tools[i].command,
			       tools[i].ext))
			return -1;
	return original ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(original);
	fixture_end();
	return 0;
}

static void test_each_format_round_trips(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N_TOOLS; i++) {
		char name[16];
		size_t len, out_len, consumed, offset;
		unsigned char *in, *out, *with_tail;

		snprintf(name, sizeof(name), "data.%s", tools[i].ext);
		in = fixture_read(name, &len);
		assert_non_null(in);
		assert_int_equal(compression_detect(in, len), tools[i].comp);
		assert_null(decompress(tools[i].comp, in, len, 1 << 30, &out,
				       &out_len, &consumed, &offset));
		assert_int_equal(out_len, original_len);
		assert_memory_equal(out, original, original_len);
		assert_int_equal(consumed, len);
		free(out);
		/* kbuild's 4-byte size after the stream is not consumed. */
		with_tail = malloc(len + 4);
		memcpy(with_tail, in, len);
		memcpy(with_tail + len, "\x00\x00\x90\x00", 4);
		assert_null(decompress(tools[i].comp, with_tail, len + 4,
				       1 << 30, &out, &out_len, &consumed,
				       &offset));
		assert_int_equal(out_len, original_len);
		assert_int_equal(consumed, len);
		free(out);
		/* Truncated: an error, never a short success. */
		assert_non_null(decompress(tools[i].comp, in, len / 2, 1 << 30,
					   &out, &out_len, &consumed, &offset));
		/* Over the limit. */
		assert_non_null(decompress(tools[i].comp, in, len, 1 << 20,
					   &out, &out_len, &consumed, &offset));
		free(with_tail);
		free(in);
	}
}

static void test_corrupt_stream(void **state)
{
	size_t len = 0, out_len, consumed, offset;
	unsigned char *in = fixture_read("data.gz", &len), *out;

	(void)state;
	assert_non_null(in);
	in[len / 3] ^= 0xff;
	in[len / 3 + 1] ^= 0xff;
	assert_non_null(decompress(COMP_GZIP, in, len, 1 << 30, &out, &out_len,
				   &consumed, &offset));
	assert_true(offset > 0 && offset <= len);
	free(in);
}

static void test_detect_and_names(void **state)
{
	(void)state;
	assert_int_equal(compression_detect((const unsigned char *)"\x7f" "ELF",
					    4), COMP_NONE);
	assert_int_equal(compression_detect((const unsigned char *)"\x1f", 1),
			 COMP_NONE);
	assert_string_equal(compression_name(COMP_ZSTD), "zstd");
	assert_string_equal(compression_name(COMP_NONE), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_format_round_trips),
		cmocka_unit_test(test_corrupt_stream),
		cmocka_unit_test(test_detect_and_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
