// SPDX-License-Identifier: GPL-2.0
/*
 * test-kernel-image.c - every form of kernel file gives the same list:
 * raw, securityfs text, vmlinux (symbols), a compressed vmlinux and
 * bzImages whose payload is compressed with each of kbuild's tools
 * (with kbuild's 4-byte size after it), read through the System.map.
 * Bad inputs are refused with a reason and a place.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "allowlist-text.h"
#include "kernel-fixture.h"
#include "kernel-image.h"

static const char *const compressors[][2] = {
	{ "gzip -9 -n -c", "gz" },
	{ "xz --check=crc32 -c", "xz" },
	{ "zstd -q -19 -c", "zst" },
	{ "lz4 -q -l -9 -c", "lz4" },
	{ "bzip2 -9 -c", "bz2" },
	{ "lzma -9 -c", "lzma" },
};

#define N_COMPRESSORS (sizeof(compressors) / sizeof(compressors[0]))

static char *map;
static size_t map_len;

static int setup(void **state)
{
	size_t i;

	(void)state;
	fixture_start();
	if (kernel_fixture_make())
		return -1;
	for (i = 0; i < N_COMPRESSORS; i++)
		if (fixture_sh("%s < vmlinux.stripped > payload.%s",
			       compressors[i][0], compressors[i][1]))
			return -1;
	map = (char *)fixture_read("System.map", &map_len);
	return map ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(map);
	allowlist_free(&fixture_list);
	fixture_end();
	return 0;
}

static void expect_list(const unsigned char *buf, size_t len,
			const struct kernel_image_options *opts)
{
	struct kernel_image_error err;
	struct allowlist al;

	if (kernel_allowlist_from_buffer(buf, len, opts, &al, &err))
		fail_msg("refused: %s: %s (offset %zu)", err.context,
			 err.reason, err.offset);
	assert_int_equal(al.blob_len, fixture_list.blob_len);
	assert_memory_equal(al.blob, fixture_list.blob, al.blob_len);
	allowlist_free(&al);
}

static const char *expect_refused(const unsigned char *buf, size_t len,
				  const struct kernel_image_options *opts,
				  struct kernel_image_error *err)
{
	struct allowlist al;

	assert_int_equal(kernel_allowlist_from_buffer(buf, len, opts, &al, err),
			 -1);
	assert_null(al.owned);
	return err->reason;
}

/* The payload NAME with kbuild's size_append: 4 bytes, little endian. */
static unsigned char *bzimage_of(const char *name, size_t *len)
{
	size_t plen, elf_len;
	unsigned char *elf = fixture_read("vmlinux.stripped", &elf_len);
	unsigned char *payload = fixture_read(name, &plen), *img;

	assert_non_null(elf);
	assert_non_null(payload);
	payload = realloc(payload, plen + 4);
	payload[plen] = (unsigned char)elf_len;
	payload[plen + 1] = (unsigned char)(elf_len >> 8);
	payload[plen + 2] = (unsigned char)(elf_len >> 16);
	payload[plen + 3] = (unsigned char)(elf_len >> 24);
	img = bzimage_wrap(payload, plen + 4, 3, len);
	free(payload);
	free(elf);
	return img;
}

static void test_raw_text_and_vmlinux(void **state)
{
	size_t len;
	unsigned char *elf = fixture_read("vmlinux", &len);
	char *text = NULL;
	size_t text_len = 0;
	FILE *fp;

	(void)state;
	expect_list(fixture_list.blob, fixture_list.blob_len, NULL);
	expect_list(elf, len, NULL);
	assert_int_equal(kernel_image_detect(elf, len), KERNEL_IMAGE_ELF);
	free(elf);
	fp = open_memstream(&text, &text_len);
	fprintf(fp, "# module allowlist version 1, sha256, 3 digests\n");
	allowlist_text_write(fp, &fixture_list);
	fclose(fp);
	expect_list((unsigned char *)text, text_len, NULL);
	free(text);
}

static void test_bzimage_each_compressor(void **state)
{
	struct kernel_image_options opts = { NULL, 0, 0 };
	struct kernel_image_error err;
	size_t i;

	(void)state;
	opts.map_text = map;
	opts.map_len = map_len;
	for (i = 0; i < N_COMPRESSORS; i++) {
		char name[32];
		size_t len;
		unsigned char *img;

		snprintf(name, sizeof(name), "payload.%s", compressors[i][1]);
		img = bzimage_of(name, &len);
		assert_int_equal(kernel_image_detect(img, len),
				 KERNEL_IMAGE_BZIMAGE);
		expect_list(img, len, &opts);
		/* Without a System.map there is no way to the list. */
		assert_non_null(strstr(expect_refused(img, len, NULL, &err),
				       "no System.map"));
		/* A payload cut short is a decompression error inside it. */
		img[0x24c] = (unsigned char)(img[0x24c] - 64);
		img[0x24d] = (unsigned char)(img[0x24d] - (img[0x24c] > 0xbf));
		expect_refused(img, len - 64, &opts, &err);
		assert_non_null(strstr(err.context, "bzImage payload"));
		assert_true(err.offset >= 4 * 512 && err.offset <= len);
		free(img);
	}
}

static void test_compressed_vmlinux(void **state)
{
	struct kernel_image_options opts = { NULL, 0, 0 };
	size_t len;
	unsigned char *gz = fixture_read("payload.gz", &len);

	(void)state;
	opts.map_text = map;
	opts.map_len = map_len;
	assert_int_equal(kernel_image_detect(gz, len), KERNEL_IMAGE_COMPRESSED);
	expect_list(gz, len, &opts);
	free(gz);
}

static void test_map_of_another_kernel(void **state)
{
	struct kernel_image_options opts = { NULL, 0, 0 };
	struct kernel_image_error err;
	size_t len;
	unsigned char *img = bzimage_of("payload.gz", &len);
	char *other = strdup(map), *banner = strstr(other, " linux_banner");

	(void)state;
	assert_non_null(banner);
	/* Move linux_banner by 0x10: the map no longer fits the image. */
	banner[-3] = banner[-3] == 'f' ? '0' : 'f';
	opts.map_text = other;
	opts.map_len = strlen(other);
	assert_string_equal(expect_refused(img, len, &opts, &err),
			    "belongs to another kernel (linux_banner is elsewhere)");
	assert_string_equal(err.context, "its System.map");
	opts.map_text = "ffffffff81000000 T _text\n";
	opts.map_len = strlen(opts.map_text);
	assert_string_equal(expect_refused(img, len, &opts, &err),
			    "symbol not in the System.map");
	free(other);
	free(img);
}

static void test_bad_inputs(void **state)
{
	struct kernel_image_error err;
	size_t len;
	unsigned char *elf = fixture_read("vmlinux", &len);

	(void)state;
	assert_string_equal(expect_refused((const unsigned char *)"hello", 5,
					   NULL, &err),
			    "not a module allowlist, vmlinux, bzImage or "
			    "securityfs module_hashes file");
	/* A truncated raw list. */
	assert_string_equal(expect_refused(fixture_list.blob,
					   fixture_list.blob_len - 1, NULL,
					   &err),
			    "size does not match the digest count");
	assert_int_equal(err.offset, fixture_list.blob_len - 1);
	/* A vmlinux whose list is damaged: the offset is in the file. */
	{
		unsigned char *p = memmem(elf, len, "KMODHASH", 8);

		assert_non_null(p);
		p[14] = 1;	/* reserved */
		assert_string_equal(expect_refused(elf, len, NULL, &err),
				    "reserved field not zero");
		assert_int_equal(err.offset, (size_t)(p - elf) + 14);
	}
	/* A text form with a bad line says which. */
	expect_refused((const unsigned char *)
		       "# module allowlist version 1, sha256, 1 digests\nsha256:00\n",
		       58, NULL, &err);
	assert_int_equal(err.line, 2);
	free(elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_text_and_vmlinux),
		cmocka_unit_test(test_bzimage_each_compressor),
		cmocka_unit_test(test_compressed_vmlinux),
		cmocka_unit_test(test_map_of_another_kernel),
		cmocka_unit_test(test_bad_inputs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
