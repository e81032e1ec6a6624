// SPDX-License-Identifier: GPL-2.0
/* test-ima-log.c - the IMA binary measurement list parser. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ima-log.h"
#include "log-builder.h"
#include "captured.h"

static const unsigned char d32[32] = { 0xaa, 0xbb, [31] = 0xcc };

/* Parse every entry of LOG; returns the count, -1 after an error. */
static int parse_all(const struct blob *log, size_t hash_size,
		     struct ima_log_entry *entries, size_t max,
		     struct ima_log_error *err)
{
	struct ima_log it;
	size_t n = 0;
	int rc = 0;

	ima_log_init(&it, log->data, log->len, hash_size);
	while (n < max && (rc = ima_log_next(&it, &entries[n], err)) > 0)
		n++;
	return rc < 0 ? -1 : (int)n;
}

static void test_bank_size(void **state)
{
	(void)state;
	assert_int_equal(ima_log_bank_size("sha1"), 20);
	assert_int_equal(ima_log_bank_size("sha256"), 32);
	assert_int_equal(ima_log_bank_size("nonsense"), 0);
}

/* The bank is told from the entries: the template hash that fits. */
static void test_detect_bank(void **state)
{
	static const char *const banks[] = { "sha1", "sha256", "sha384", "sha512" };
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct blob log = { .len = 0 };

		/* A violation first: its all-zero hash tells nothing. */
		log_add_file(&log, banks[i], 10, "/v", "sha256", d32, 32, true);
		log_add_ng(&log, banks[i], "/lib/modules/x/a.ko", "sha256", d32, 32);
		assert_string_equal(ima_log_detect_bank(log.data, log.len, &why), banks[i]);
	}
	{
		struct blob log = { .len = 0 };

		log_add_file(&log, "sha256", 10, "/v", "sha256", d32, 32, true);
		assert_null(ima_log_detect_bank(log.data, log.len, &why));
		assert_string_equal(why, "no bank's template hash matches the first entry that is not a violation");
		assert_null(ima_log_detect_bank(log.data, 0, &why));
		assert_string_equal(why, "empty list");
		memset(log.data, 0xee, 64);
		assert_null(ima_log_detect_bank(log.data, 64, &why));
		assert_non_null(strstr(why, "no entry can be read"));
	}
}

static void test_captured_sha256_list(void **state)
{
	struct blob log = { .len = sizeof(listed_sha256_log) };
	struct ima_log_entry e[8];
	struct ima_log_error err;

	(void)state;
	memcpy(log.data, listed_sha256_log, log.len);
	assert_int_equal(parse_all(&log, 32, e, 8, &err), 5);
	assert_string_equal(e[0].name, "boot_aggregate");
	assert_string_equal(e[0].template_name, "ima-ng");
	assert_int_equal(e[0].pcr, 10);
	assert_false(e[0].violation);
	assert_string_equal(e[1].template_name, "ima-buf");
	assert_string_equal(e[1].name, "module-allowlist");
	assert_int_equal(e[1].buf.len, 32);
	assert_int_equal(e[1].offset, e[0].offset + e[0].size);
	assert_string_equal(e[2].name, "/lib/modules/6.12.118/kernel/lib/crc7.ko");
	assert_string_equal(e[2].digest_algo, "sha256");
	assert_int_equal(e[2].digest.len, 32);
	assert_string_equal(e[4].name, "/lib/modules/6.12.118/kernel/lib/crc8.ko");
	assert_int_equal(e[4].index, 4);
	assert_int_equal(e[4].offset + e[4].size, sizeof(listed_sha256_log));
}

static void test_templates(void **state)
{
	static const unsigned char d20[20] = { 1, 2, 3 };
	struct blob log = { .len = 0 }, t = { .len = 0 };
	struct ima_log_entry e[8];
	struct ima_log_error err;

	(void)state;
	/* ima-sig with a signature */
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "/a");
	field(&t, "\x03\x02sig", 5);
	log_add(&log, "sha1", 10, "ima-sig", &t, false);
	/* ima-buf */
	t.len = 0;
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "module-allowlist");
	field(&t, "BUF", 3);
	log_add(&log, "sha1", 10, "ima-buf", &t, false);
	/* ima-modsig: sig empty, d-modsig, modsig */
	t.len = 0;
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "/m.ko");
	field(&t, "", 0);
	field_dng(&t, "sha256", d32, 32);
	field(&t, "MODSIG", 6);
	log_add(&log, "sha1", 11, "ima-modsig", &t, false);
	/* ima-ngv2 */
	t.len = 0;
	{
		struct blob f = { .len = 0 };

		blob_put(&f, "verity:sha256:", 15);
		blob_put(&f, d32, 32);
		field(&t, f.data, f.len);
	}
	field_name(&t, "/v");
	log_add(&log, "sha1", 10, "ima-ngv2", &t, false);
	/* the old "ima" template, an unknown one, a custom format */
	log_add_ima(&log, "sha1", d20, "/old");
	t.len = 0;
	field(&t, "xyz", 3);
	log_add(&log, "sha1", 10, "vendor-tmpl", &t, false);
	t.len = 0;
	field_dng(&t, "sha1", d20, 20);
	field_name(&t, "/c");
	log_add(&log, "sha1", 10, "d-ng|n-ng", &t, true);

	assert_int_equal(parse_all(&log, 20, e, 8, &err), 7);
	assert_int_equal(e[0].sig.len, 5);
	assert_memory_equal(e[0].sig.data, "\x03\x02sig", 5);
	assert_string_equal(e[1].name, "module-allowlist");
	assert_memory_equal(e[1].buf.data, "BUF", 3);
	assert_int_equal(e[2].pcr, 11);
	assert_int_equal(e[2].sig.len, 0);
	assert_memory_equal(e[2].modsig.data, "MODSIG", 6);
	assert_string_equal(e[2].modsig_algo, "sha256");
	assert_int_equal(e[2].modsig_digest.len, 32);
	assert_memory_equal(e[2].modsig_digest.data, d32, 32);
	assert_int_equal(e[0].modsig_digest.len, 0);
	assert_true(e[2].decoded);
	assert_string_equal(e[3].digest_type, "verity");
	assert_string_equal(e[3].digest_algo, "sha256");
	assert_memory_equal(e[3].digest.data, d32, 32);
	assert_string_equal(e[4].template_name, "ima");
	assert_string_equal(e[4].name, "/old");
	assert_memory_equal(e[4].digest.data, d20, 20);
	assert_int_equal(e[4].template_data.len, 20 + 4 + 4);
	assert_false(e[5].decoded);
	assert_int_equal(e[5].template_data.len, 7);
	assert_true(e[6].violation);
	assert_string_equal(e[6].name, "/c");
	assert_false(e[0].violation);
}

/* One malformed list: the entry, its offset and the byte at fault. */
static void expect_error(const struct blob *log, size_t hash_size,
			 size_t index, size_t entry_offset, size_t offset,
			 const char *why)
{
	struct ima_log_entry e[8];
	struct ima_log_error err;

	assert_int_equal(parse_all(log, hash_size, e, 8, &err), -1);
	assert_string_equal(err.why, why);
	assert_int_equal(err.index, index);
	assert_int_equal(err.entry_offset, entry_offset);
	assert_int_equal(err.offset, offset);
}

static void test_truncations(void **state)
{
	struct blob log = { .len = 0 }, cut;
	size_t second;

	(void)state;
	log_add_ng(&log, "sha256", "/a.ko", "sha256", d32, 32);
	second = log_add_ng(&log, "sha256", "/b.ko", "sha256", d32, 32);
	/* second entry: pcr 4 | hash 32 | len 4 | "ima-ng" 6 | len 4 | data */
	cut = log;
	cut.len = second + 2;
	expect_error(&cut, 32, 1, second, second, "truncated PCR index");
	cut.len = second + 4 + 31;
	expect_error(&cut, 32, 1, second, second + 4, "truncated template hash");
	cut.len = second + 36 + 3;
	expect_error(&cut, 32, 1, second, second + 36, "truncated template name length");
	cut.len = second + 40 + 5;
	expect_error(&cut, 32, 1, second, second + 40, "truncated template name");
	cut.len = second + 46 + 1;
	expect_error(&cut, 32, 1, second, second + 46, "truncated template data length");
	cut.len = log.len - 1;
	expect_error(&cut, 32, 1, second, second + 50, "truncated template data");
	/* the sha256 list read as the sha1 bank */
	expect_error(&log, 20, 0, 0, 24, "template name length out of range");
}

static void test_malformed(void **state)
{
	struct blob log = { .len = 0 }, bad, t = { .len = 0 };
	size_t second;

	(void)state;
	log_add_ng(&log, "sha256", "/a.ko", "sha256", d32, 32);
	second = log_add_ng(&log, "sha256", "/b.ko", "sha256", d32, 32);
	bad = log;
	bad.data[second + 3] = 0x0a;	/* big-endian 10 */
	expect_error(&bad, 32, 1, second, second,
		     "PCR index out of range (a big-endian list without ima_canonical_fmt?)");
	bad = log;
	memset(bad.data + second + 36, 0, 4);
	expect_error(&bad, 32, 1, second, second + 36, "template name length out of range");
	bad = log;
	bad.data[second + 40 + 3] = ' ';
	expect_error(&bad, 32, 1, second, second + 43, "template name not printable");
	/* data: u32 len | "sha256:\0" digest (d-ng field at second + 50) */
	bad = log;
	bad.data[second + 50 + 4 + 6] = '-';
	expect_error(&bad, 32, 1, second, second + 54, "digest field without \"algo:\" prefix");
	bad = log;
	bad.data[second + 50 + 4 + 8 + 32 + 4 + 5] = 'x';	/* the name's NUL */
	expect_error(&bad, 32, 1, second, second + 50 + 4 + 40 + 4,
		     "event name not NUL-terminated");

	/* a digest of the wrong length for its algorithm */
	bad.len = 0;
	field_dng(&t, "sha256", d32, 31);
	field_name(&t, "/x");
	log_add(&bad, "sha256", 10, "ima-ng", &t, false);
	expect_error(&bad, 32, 0, 0, 50 + 4, "digest length does not match its algorithm");
	/* a field too many */
	t.len = 0;
	bad.len = 0;
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "/x");
	field(&t, "", 0);
	log_add(&bad, "sha256", 10, "ima-ng", &t, false);
	expect_error(&bad, 32, 0, 0, 50 + 44 + 7, "template data longer than its fields");
	/* a NUL inside a name */
	t.len = 0;
	bad.len = 0;
	field_dng(&t, "sha256", d32, 32);
	field(&t, "/a\0b", 5);
	log_add(&bad, "sha256", 10, "ima-ng", &t, false);
	expect_error(&bad, 32, 0, 0, 50 + 44 + 4, "NUL byte inside the event name");
}

/* n-ng names are whole paths (the 255-byte limit is the ima template's). */
static void test_long_names(void **state)
{
	static char path[5000];
	struct blob log = { .len = 0 };
	struct ima_log_entry e[2];
	struct ima_log_error err;

	(void)state;
	memset(path, 'a', 4096);
	path[0] = '/';
	log_add_ng(&log, "sha1", path, "sha256", d32, 32);
	assert_int_equal(parse_all(&log, 20, e, 2, &err), 1);
	assert_int_equal(strlen(e[0].name), 4096);
	path[4096] = 'b';
	log.len = 0;
	log_add_ng(&log, "sha1", path, "sha256", d32, 32);
	expect_error(&log, 20, 0, 0, 4 + 20 + 4 + 6 + 4 + 44 + 4, "event name too long");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bank_size),
		cmocka_unit_test(test_detect_bank),
		cmocka_unit_test(test_captured_sha256_list),
		cmocka_unit_test(test_templates),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_long_names),
	};

	return cmocka_run_group_tests_name("ima-log", tests, NULL, NULL);
}
