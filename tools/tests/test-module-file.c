// SPDX-License-Identifier: GPL-2.0
/*
 * test-module-file.c - the module reader: the signature trailer found
 * (or found malformed) by its offsets, compressed modules decompressed
 * as the loader does, bytes after the stream refused, and the strip
 * --strip-debug digest equal to that of the file strip writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/hash_info.h>

#include "fixtures.h"
#include "module-file.h"

#define MARKER "~Module signature appended~\n"

/* CONTENT, a fake signature of SIG_LEN bytes, the info block, the marker. */
static unsigned char *signed_image(const char *content, uint32_t sig_len,
				   unsigned char id_type, size_t *len)
{
	size_t n = strlen(content);
	unsigned char *buf = calloc(1, n + sig_len + 12 + 28);
	unsigned char *info = buf + n + sig_len;

	memcpy(buf, content, n);
	memset(buf + n, 0xa5, sig_len);
	info[2] = id_type;
	info[8] = (unsigned char)(sig_len >> 24);
	info[9] = (unsigned char)(sig_len >> 16);
	info[10] = (unsigned char)(sig_len >> 8);
	info[11] = (unsigned char)sig_len;
	memcpy(info + 12, MARKER, 28);
	*len = n + sig_len + 12 + 28;
	return buf;
}

static void test_signature_trailer(void **state)
{
	size_t len, content;
	bool malformed;
	unsigned char *img = signed_image("\x7f" "ELF module", 300, 2, &len);

	(void)state;
	assert_true(module_signature_find(img, len, &content, &malformed));
	assert_false(malformed);
	assert_int_equal(content, 11);
	/* Not PKCS#7: the loader refuses it. */
	img[11 + 300 + 2] = 1;
	assert_true(module_signature_find(img, len, &content, &malformed));
	assert_true(malformed);
	free(img);
	/* A signature longer than the file. */
	img = signed_image("\x7f" "ELF", 100, 2, &len);
	img[4 + 100 + 10] = 0x10;	/* sig_len += 4096 */
	assert_true(module_signature_find(img, len, &content, &malformed));
	assert_true(malformed);
	/* No marker: not signed, all of it is content. */
	img[len - 1] = 'X';
	assert_false(module_signature_find(img, len, &content, &malformed));
	assert_int_equal(content, len);
	free(img);
	/* Only the marker. */
	assert_true(module_signature_find((const unsigned char *)MARKER, 28,
					  &content, &malformed));
	assert_true(malformed);
}

static void test_compressed_and_trailing(void **state)
{
	struct module_file m;
	size_t len;
	unsigned char *buf;

	(void)state;
	fixture_start();
	assert_int_equal(fixture_sh("printf '\\177ELF pretend module' > m.ko && "
				    "xz -c m.ko > m.ko.xz && zstd -q -c m.ko > m.ko.zst && "
				    "gzip -n -c m.ko > m.ko.gz && "
				    "cat m.ko.gz > junk.ko.gz && echo junk >> junk.ko.gz && "
				    "head -c 20 m.ko.xz > cut.ko.xz"), 0);
	assert_int_equal(module_file_read(fixture_path("m.ko.xz"), &m), 0);
	assert_int_equal(m.comp, COMP_XZ);
	assert_null(m.problem);
	assert_int_equal(m.image_len, 19);
	assert_memory_equal(m.image, "\x7f" "ELF pretend module", 19);
	assert_false(m.is_signed);
	module_file_free(&m);
	assert_int_equal(module_file_read(fixture_path("m.ko.zst"), &m), 0);
	assert_int_equal(m.comp, COMP_ZSTD);
	assert_int_equal(m.image_len, 19);
	module_file_free(&m);
	assert_int_equal(module_file_read(fixture_path("junk.ko.gz"), &m), 0);
	assert_string_equal(m.problem, "bytes after the compressed stream");
	module_file_free(&m);
	assert_int_equal(module_file_read(fixture_path("cut.ko.xz"), &m), 0);
	assert_string_equal(m.problem, "does not decompress");
	module_file_free(&m);
	/* The loader takes gzip, xz and zstd only: bzip2 is just bytes. */
	buf = (unsigned char *)strdup("BZh91AY&SY");
	module_file_from_buffer(buf, strlen((char *)buf), MODULE_MAX_IMAGE, &m);
	assert_int_equal(m.comp, COMP_NONE);
	assert_string_equal(m.problem, "not an ELF file");
	module_file_free(&m);
	len = 0;
	assert_int_equal(module_file_read(fixture_path("absent.ko"), &m), -1);
	(void)len;
	fixture_end();
}

static void test_stripped_digest(void **state)
{
	struct allowlist al;
	unsigned char none[32] = { 0 }, digest[32], want[32];
	unsigned char *obj, *stripped;
	size_t obj_len, stripped_len;

	(void)state;
	fixture_start();
	assert_null(allowlist_build(HASH_ALGO_SHA256, none, 1, &al));
	assert_int_equal(fixture_sh("printf 'int f(void) { return 1; }\\n' > m.c && "
				    "cc -g -c -o m.o m.c && "
				    "strip --strip-debug -o m.stripped m.o"), 0);
	obj = fixture_read("m.o", &obj_len);
	stripped = fixture_read("m.stripped", &stripped_len);
	assert_non_null(obj);
	assert_non_null(stripped);
	assert_true(stripped_len < obj_len);
	assert_int_equal(module_stripped_digest(&al, obj, obj_len, "strip",
						"m.o", digest), 0);
	assert_int_equal(allowlist_digest(&al, stripped, stripped_len, want), 0);
	assert_memory_equal(digest, want, 32);
	/* strip cannot read it: 1, not an error. */
	assert_int_equal(module_stripped_digest(&al, (const unsigned char *)"x",
						1, "strip", "x", digest), 1);
	/* No such strip program: an error. */
	assert_int_equal(module_stripped_digest(&al, obj, obj_len,
						"/nonexistent/strip", "m.o",
						digest), -1);
	free(obj);
	free(stripped);
	allowlist_free(&al);
	fixture_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signature_trailer),
		cmocka_unit_test(test_compressed_and_trailing),
		cmocka_unit_test(test_stripped_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
