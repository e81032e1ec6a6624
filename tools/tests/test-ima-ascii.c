// SPDX-License-Identifier: GPL-2.0
/* test-ima-ascii.c - ASCII measurement lists read back as binary ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>

#include "ima-ascii.h"
#include "ima-log.h"
#include "util.h"
#include "log-builder.h"

static const unsigned char d32[32] = { 0xaa, 0xbb, [31] = 0xcc };
static const unsigned char d20[20] = { 0x01, 0x02, [19] = 0x03 };

struct text {
	char data[16384];
	size_t len;
};

static void hex_of(const void *p, size_t n, char *out)
{
	hex_encode(p, n, out);
}

/*
 * The ASCII line of the entry at OFFSET of LOG (BANK's hash of HASH_LEN
 * bytes), with the fields FIELDS as IMA prints them.
 */
static void line(struct text *t, const struct blob *log, size_t offset,
		 size_t hash_len, const char *fields)
{
	char hex[2 * 64 + 1];
	uint32_t pcr, name_len;

	memcpy(&pcr, log->data + offset, 4);
	memcpy(&name_len, log->data + offset + 4 + hash_len, 4);
	hex_of(log->data + offset + 4, hash_len, hex);
	t->len += (size_t)snprintf(t->data + t->len, sizeof(t->data) - t->len,
				   "%2u %s %.*s %s\n", pcr, hex, (int)name_len,
				   (const char *)log->data + offset + 8 + hash_len,
				   fields);
}

/*
 * Append the entry of template TNAME with data T (emptied after) to LOG
 * (PCR 10, sha256 bank), and its ASCII line with the fields printed as
 * FMT says to TEXT.
 */
static void both(struct blob *log, struct text *text, const char *tname,
		 struct blob *t, const char *fmt, ...)
{
	char fields[512];
	va_list ap;
	size_t at = log_add(log, "sha256", 10, tname, t, false);

	va_start(ap, fmt);
	vsnprintf(fields, sizeof(fields), fmt, ap);
	va_end(ap);
	line(text, log, at, 32, fields);
	t->len = 0;
}

/* The list of every template with an exact ASCII form, both ways. */
static void test_round_trip(void **state)
{
	struct blob log = { .len = 0 }, t = { .len = 0 }, d = { .len = 0 };
	struct text text = { .len = 0 };
	char h32[65], h20[41], f[512];
	struct ima_ascii_error err;
	unsigned char *bin;
	size_t at, bin_len;

	(void)state;
	hex_of(d32, 32, h32);
	hex_of(d20, 20, h20);
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "boot_aggregate");
	both(&log, &text, "ima-ng", &t, "sha256:%s boot_aggregate", h32);
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "init_module");
	field(&t, d20, 20);
	both(&log, &text, "ima-buf", &t, "sha256:%s init_module %s", h32, h20);
	/* ima-sig with a signature, a name with spaces */
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "/lib/modules/a b/x.ko");
	field(&t, "\x03\x02\xfe", 3);
	both(&log, &text, "ima-sig", &t, "sha256:%s /lib/modules/a b/x.ko 0302fe", h32);
	/* ima-sig without: an empty last field */
	field_dng(&t, "sha1", d20, 20);
	field_name(&t, "/y");
	field(&t, "", 0);
	both(&log, &text, "ima-sig", &t, "sha1:%s /y ", h20);
	/* ima-modsig: sig empty, d-modsig and modsig */
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "/m.ko");
	field(&t, "", 0);
	field_dng(&t, "sha512", d32, 32);	/* any length: the field as printed */
	field(&t, "\x30\x82", 2);
	both(&log, &text, "ima-modsig", &t, "sha256:%s /m.ko  sha512:%s 3082", h32, h32);
	/* ima-modsig of a file without appended signature */
	field_dng(&t, "sha256", d32, 32);
	field_name(&t, "/n.ko");
	field(&t, "", 0);
	field(&t, "", 0);
	field(&t, "", 0);
	both(&log, &text, "ima-modsig", &t, "sha256:%s /n.ko   ", h32);
	/* ima-ngv2 */
	blob_put(&d, "ima:sha256:", 12);
	blob_put(&d, d32, 32);
	field(&t, d.data, d.len);
	field_name(&t, "/v");
	both(&log, &text, "ima-ngv2", &t, "ima:sha256:%s /v", h32);
	/* a violation, in PCR 11 */
	at = log_add_file(&log, "sha256", 11, "/w", "sha256", d32, 32, true);
	snprintf(f, sizeof(f), "sha256:%s /w", h32);
	line(&text, &log, at, 32, f);

	assert_true(ima_ascii_detect((unsigned char *)text.data, text.len));
	assert_false(ima_ascii_detect(log.data, log.len));
	assert_int_equal(ima_ascii_to_binary(text.data, text.len, &bin, &bin_len, &err), 0);
	assert_int_equal(bin_len, log.len);
	assert_memory_equal(bin, log.data, log.len);
	free(bin);
}

/* The old "ima" template: bare SHA-1 digest, name without NUL. */
static void test_ima_template(void **state)
{
	struct blob log = { .len = 0 };
	struct text text = { .len = 0 };
	char h20[41], f[128];
	struct ima_ascii_error err;
	unsigned char *bin;
	size_t bin_len, at;

	(void)state;
	hex_of(d20, 20, h20);
	at = log_add_ima(&log, "sha1", d20, "/old name");
	snprintf(f, sizeof(f), "%s /old name", h20);
	line(&text, &log, at, 20, f);
	assert_int_equal(ima_ascii_to_binary(text.data, text.len, &bin, &bin_len, &err), 0);
	assert_int_equal(bin_len, log.len);
	assert_memory_equal(bin, log.data, log.len);
	free(bin);
}

static void expect(const char *text, size_t line_no, const char *why)
{
	struct ima_ascii_error err;
	unsigned char *bin = NULL;
	size_t len = 0;

	assert_int_equal(ima_ascii_to_binary(text, strlen(text), &bin, &len, &err), -1);
	assert_null(bin);
	assert_int_equal(err.line, line_no);
	assert_string_equal(err.why, why);
}

static void test_malformed(void **state)
{
	static const char h[] = "0000000000000000000000000000000000000000";
	char buf[1024];

	(void)state;
	snprintf(buf, sizeof(buf), "10 %s evm-sig sha1:%s /x   %s %s 0 0 420\n", h, h, "", "");
	expect(buf, 1, "template field without an exact ASCII form; read the binary list");
	snprintf(buf, sizeof(buf), "10 %s ima-ng sha1:%s /x\n10 %s ima-ng sha1:%s /y", h, h, h, h);
	expect(buf, 2, "last line without a newline (cut short?)");
	snprintf(buf, sizeof(buf), "10 %s ima-ng sha1:%s /x\n10 %s00 ima-ng sha1:%s /y\n", h, h, h, h);
	expect(buf, 2, "template hash of another width than the first line's");
	snprintf(buf, sizeof(buf), "10 %s vendor sha1:%s /x\n", h, h);
	expect(buf, 1, "unknown template: its fields cannot be read from the ASCII list");
	snprintf(buf, sizeof(buf), "99 %s ima-ng sha1:%s /x\n", h, h);
	expect(buf, 1, "PCR index out of range");
	snprintf(buf, sizeof(buf), "10 %s ima-sig sha1:%s /x 0g\n", h, h);
	expect(buf, 1, "field: not hex");
	snprintf(buf, sizeof(buf), "10 %s ima-buf sha1:%s\n", h, h);
	expect(buf, 1, "fewer fields than the template has");
	snprintf(buf, sizeof(buf), "10 %s ima-ng %s /x\n", h, h);
	expect(buf, 1, "digest field without \"algo:\" prefix");
	expect("", 0, "no entry");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_ima_template),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests_name("ima-ascii", tests, NULL, NULL);
}
