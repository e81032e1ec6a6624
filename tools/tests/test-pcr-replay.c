// SPDX-License-Identifier: GPL-2.0
/* test-pcr-replay.c - replaying measurement lists into PCR banks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pcr-replay.h"
#include "pcr-values.h"
#include "log-builder.h"
#include "captured.h"

static const unsigned char d32[32] = { 7 };

/* Replay LOG into PCR 10 of BANK, stopping at EXPECTED if given. */
static void replay(const struct blob *log, const char *bank,
		   const unsigned char *expected, struct pcr_replay *r,
		   bool *matched, size_t *entries)
{
	struct ima_log_error err;

	assert_int_equal(pcr_replay_init(r, bank, 10), 0);
	assert_int_equal(pcr_replay_log(r, log->data, log->len, expected,
					matched, entries, &err), 0);
}

/*
 * The sha1 bank's list of the captured boot, as the kernel wrote it: the
 * sha256 list's entries with their template data hashed with SHA-1.
 */
static void captured_sha1_list(struct blob *sha1)
{
	struct ima_log_error err;
	struct ima_log_entry e;
	struct ima_log it;

	sha1->len = 0;
	ima_log_init(&it, listed_sha256_log, sizeof(listed_sha256_log), 32);
	while (ima_log_next(&it, &e, &err) > 0) {
		struct blob t = { .len = e.template_data.len };

		memcpy(t.data, e.template_data.data, t.len);
		log_add(sha1, "sha1", e.pcr, e.template_name, &t, false);
	}
	assert_int_equal(sha1->len, sizeof(listed_sha256_log) - 5 * 12);
}

/* The captured lists replay to the TPM's PCR 10, in both banks. */
static void test_captured_lists_reach_the_tpm(void **state)
{
	static const char *const banks[] = { "sha1", "sha256" };
	const char *pcrs[] = { listed_sha1_pcr10, listed_sha256_pcr10 };
	unsigned char tpm[32];
	struct blob log;
	struct pcr_replay r;
	const char *why;
	bool matched;
	size_t i, entries;

	(void)state;
	for (i = 0; i < 2; i++) {
		size_t size = ima_log_bank_size(banks[i]);

		assert_int_equal(pcr_values_from_hex(pcrs[i], strlen(pcrs[i]),
						     size, tpm, &why), 0);
		if (i == 0) {
			captured_sha1_list(&log);
		} else {
			memcpy(log.data, listed_sha256_log, sizeof(listed_sha256_log));
			log.len = sizeof(listed_sha256_log);
		}
		replay(&log, banks[i], tpm, &r, &matched, &entries);
		assert_true(matched);
		assert_int_equal(entries, 5);
		assert_int_equal(r.extends, 5);
		assert_memory_equal(r.value, tpm, size);
	}
}

/* PCR := SHA-256(PCR || HASH), computed here on its own. */
static void extend(unsigned char pcr[32], const unsigned char hash[32])
{
	unsigned char buf[64];

	memcpy(buf, pcr, 32);
	memcpy(buf + 32, hash, 32);
	hash_of("sha256", buf, 64, pcr);
}

/* PCR := H(PCR || hash); a violation extends all 0xff. */
static void test_extend_rule_and_violations(void **state)
{
	struct blob log = { .len = 0 };
	unsigned char expected[32] = { 0 }, ff[32];
	struct pcr_replay r;
	bool matched;
	size_t entries;

	(void)state;
	log_add_ng(&log, "sha256", "/a", "sha256", d32, 32);
	log_add_file(&log, "sha256", 10, "/b", "sha256", d32, 32, true);
	memset(ff, 0xff, 32);
	extend(expected, log.data + 4);
	extend(expected, ff);
	replay(&log, "sha256", NULL, &r, &matched, &entries);
	assert_false(matched);
	assert_int_equal(entries, 2);
	assert_memory_equal(r.value, expected, 32);
}

/* The replay stops at the first match; other PCRs are not extended. */
static void test_stops_at_the_quoted_value(void **state)
{
	struct blob log = { .len = 0 };
	unsigned char after_b[32] = { 0 };
	size_t a, b, entries;
	struct pcr_replay r;
	bool matched;

	(void)state;
	a = log_add_ng(&log, "sha256", "/a", "sha256", d32, 32);
	log_add_file(&log, "sha256", 11, "/other-pcr", "sha256", d32, 32, false);
	b = log_add_ng(&log, "sha256", "/b", "sha256", d32, 32);
	log_add_ng(&log, "sha256", "/c", "sha256", d32, 32);
	replay(&log, "sha256", NULL, &r, &matched, &entries);
	assert_int_equal(r.extends, 3);
	assert_int_equal(entries, 4);
	assert_false(matched);

	extend(after_b, log.data + a + 4);
	extend(after_b, log.data + b + 4);
	replay(&log, "sha256", after_b, &r, &matched, &entries);
	assert_true(matched);
	assert_int_equal(entries, 3);
	assert_int_equal(r.extends, 2);
}

static void test_template_hash_check(void **state)
{
	struct blob log = { .len = 0 };
	struct ima_log_entry e;
	struct ima_log_error err;
	struct pcr_replay r;
	struct ima_log it;

	(void)state;
	log_add_ng(&log, "sha1", "/a", "sha256", d32, 32);
	assert_int_equal(pcr_replay_init(&r, "sha1", 10), 0);
	ima_log_init(&it, log.data, log.len, r.size);
	assert_int_equal(ima_log_next(&it, &e, &err), 1);
	assert_true(pcr_replay_template_ok(&r, &e));
	log.data[log.len - 8] ^= 1;	/* the file digest's last byte */
	ima_log_init(&it, log.data, log.len, r.size);
	assert_int_equal(ima_log_next(&it, &e, &err), 1);
	assert_false(pcr_replay_template_ok(&r, &e));
	assert_int_equal(pcr_replay_init(&r, "sha999", 10), -1);
}

static void test_quoted_values(void **state)
{
	static const char evmctl[] =
		"PCR-00: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"
		"PCR-09: 0000000000000000000000000000000000000000\n"
		"PCR-10: 3A3F780F11A4B49969FCAA80CD6E3957C33B2275\n"
		"PCR-11: zz\n";
	unsigned char v[20];
	const char *why;
	size_t line;

	(void)state;
	assert_int_equal(pcr_values_from_evmctl(evmctl, strlen(evmctl), 10, 20,
						v, &why, &line), 0);
	assert_int_equal(v[0], 0x3a);
	assert_int_equal(v[19], 0x75);
	assert_int_equal(pcr_values_from_evmctl(evmctl, strlen(evmctl), 0, 20,
						v, &why, &line), 0);
	assert_int_equal(pcr_values_from_evmctl(evmctl, strlen(evmctl), 11, 20,
						v, &why, &line), -1);
	assert_int_equal(line, 4);
	assert_string_equal(why, "not a hex digit");
	assert_int_equal(pcr_values_from_evmctl(evmctl, strlen(evmctl), 10, 32,
						v, &why, &line), -1);
	assert_string_equal(why, "value shorter than the bank's digest");
	assert_int_equal(pcr_values_from_evmctl(evmctl, strlen(evmctl), 12, 20,
						v, &why, &line), -1);
	assert_int_equal(line, 0);
	assert_int_equal(pcr_values_from_hex("ab\n", 3, 1, v, &why), 0);
	assert_int_equal(pcr_values_from_hex("abcd\n", 5, 1, v, &why), -1);
	assert_string_equal(why, "value longer than the bank's digest");
	assert_int_equal(pcr_values_from_hex("g0", 2, 1, v, &why), -1);
	assert_string_equal(why, "not a hex digit");
	assert_int_equal(pcr_values_from_hex("a", 1, 1, v, &why), -1);
	assert_string_equal(why, "odd number of hex digits");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured_lists_reach_the_tpm),
		cmocka_unit_test(test_extend_rule_and_violations),
		cmocka_unit_test(test_stops_at_the_quoted_value),
		cmocka_unit_test(test_template_hash_check),
		cmocka_unit_test(test_quoted_values),
	};

	return cmocka_run_group_tests_name("pcr-replay", tests, NULL, NULL);
}
