// SPDX-License-Identifier: GPL-2.0
/* test-verify-log.c - verify-log's judgement of measurement lists. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/hash_info.h>

#include "commands.h"
#include "format.h"
#include "util.h"
#include "verify-log.h"
#include "log-builder.h"
#include "captured.h"
#include "run-command.h"

static unsigned char listed[2][32] = { { 0x11 }, { 0x22 } };
static const unsigned char unlisted[32] = { 0x33 };

static void make_list(struct allowlist *al)
{
	assert_null(allowlist_build(HASH_ALGO_SHA256, &listed[0][0], 2, al));
}

/* The module-allowlist entry as the series writes it: the list's digest. */
static size_t add_allowlist_entry(struct blob *log, const struct allowlist *al)
{
	unsigned char list_digest[32], entry_digest[32];
	struct blob t = { .len = 0 };

	hash_of("sha256", al->blob, al->blob_len, list_digest);
	hash_of("sha256", list_digest, 32, entry_digest);
	field_dng(&t, "sha256", entry_digest, 32);
	field_name(&t, VERIFY_ALLOWLIST_EVENT);
	field(&t, list_digest, 32);
	return log_add(log, "sha256", 10, "ima-buf", &t, false);
}

static int run(const struct blob *log, const struct allowlist *al,
	       const unsigned char *expected, struct verify_report *rep)
{
	struct verify_options o = { .bank = "sha256", .pcr = 10,
				    .expected = expected };
	struct ima_log_error err;

	return verify_log(log->data, log->len, al, &o, rep, &err);
}

static void test_module_paths(void **state)
{
	static const char *const mine[] = { "/opt/mods/" };
	struct verify_options o = { .bank = "sha256" };

	(void)state;
	assert_true(verify_is_module_path("/lib/modules/6.12/kernel/x.ko", &o));
	assert_true(verify_is_module_path("/usr/lib/modules/6.12/extra/y", &o));
	assert_true(verify_is_module_path("/tmp/z.ko", &o));
	assert_true(verify_is_module_path("/tmp/z.ko.zst", &o));
	assert_true(verify_is_module_path("/tmp/z.ko.gz", &o));
	assert_false(verify_is_module_path("/tmp/z.ko.bak", &o));
	assert_false(verify_is_module_path("/etc/passwd", &o));
	assert_false(verify_is_module_path("boot_aggregate", &o));
	o.prefixes = mine;
	o.n_prefixes = 1;
	assert_true(verify_is_module_path("/opt/mods/a", &o));
	assert_false(verify_is_module_path("/lib/modules/6.12/b", &o));
	assert_true(verify_is_module_path("/lib/modules/6.12/b.ko.xz", &o));
}

/* The list captured from the hashes kernel checks out against its list. */
static void test_captured_boot(void **state)
{
	struct blob log = { .len = sizeof(listed_sha256_log) };
	unsigned char tpm[32];
	struct verify_report rep;
	struct allowlist al;
	size_t offset;

	(void)state;
	memcpy(log.data, listed_sha256_log, log.len);
	assert_true(hex_decode("41a6a4fabc275b62f1ac3e5b7e17253ce9184da9aad9871b4b46812a8e30dcca",
			       tpm, 32));
	assert_null(allowlist_parse(hashes_list, sizeof(hashes_list), &al, &offset));
	assert_int_equal(run(&log, &al, tpm, &rep), 0);
	assert_int_equal(rep.n_findings, 0);
	assert_true(rep.pcr_matched);
	assert_int_equal(rep.entries, 5);
	assert_int_equal(rep.modules, 3);
	assert_int_equal(rep.modules_listed, 3);
	assert_int_equal(rep.allowlist_index, 1);
	assert_int_equal(verify_verdict(&rep), EXIT_ACCEPTED);
	verify_report_free(&rep);
}

static void test_offending_entries(void **state)
{
	static const unsigned char d20[20] = { 9 };
	struct blob log = { .len = 0 };
	struct verify_report rep;
	struct allowlist al;
	char hex[65];
	size_t bad;

	(void)state;
	make_list(&al);
	add_allowlist_entry(&log, &al);
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/a.ko", "sha256", listed[0], 32);
	bad = log_add_ng(&log, "sha256", "/tmp/evil.ko", "sha256", unlisted, 32);
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/b.ko.xz", "sha256", listed[1], 32);
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/c.ko", "sha1", d20, 20);
	log_add_file(&log, "sha256", 10, "/lib/modules/6.12/kernel/d.ko", "sha256", listed[1], 32, true);
	log_add_ng(&log, "sha256", "/etc/hosts", "sha256", unlisted, 32);
	assert_int_equal(run(&log, &al, NULL, &rep), 0);
	assert_int_equal(rep.modules, 5);
	assert_int_equal(rep.modules_listed, 1);
	assert_int_equal(rep.allowlist_index, 0);
	assert_int_equal(rep.n_findings, 4);
	assert_int_equal(rep.findings[0].index, 2);
	assert_int_equal(rep.findings[0].offset, bad);
	assert_string_equal(rep.findings[0].path, "/tmp/evil.ko");
	hex_encode(unlisted, 32, hex);
	assert_string_equal(rep.findings[0].digest + strlen("sha256:"), hex);
	assert_string_equal(rep.findings[0].reason, "not on the kernel's allowlist");
	assert_int_equal(rep.findings[1].index, 3);
	assert_non_null(strstr(rep.findings[1].reason, "compressed module"));
	assert_int_equal(rep.findings[2].index, 4);
	assert_non_null(strstr(rep.findings[2].reason, "digest algorithm differs"));
	assert_int_equal(rep.findings[3].index, 5);
	assert_non_null(strstr(rep.findings[3].reason, "violation"));
	assert_int_equal(verify_verdict(&rep), EXIT_REFUSED);
	verify_report_free(&rep);
	allowlist_free(&al);
}

static void test_allowlist_entry(void **state)
{
	struct blob log = { .len = 0 }, t = { .len = 0 };
	unsigned char raw_digest[32];
	struct verify_report rep;
	struct allowlist al, other;

	(void)state;
	make_list(&al);
	/* absent: one finding without an entry */
	log_add_ng(&log, "sha256", "/lib/modules/x/a.ko", "sha256", listed[0], 32);
	assert_int_equal(run(&log, &al, NULL, &rep), 0);
	assert_int_equal(rep.n_findings, 1);
	assert_int_equal(rep.findings[0].index, SIZE_MAX);
	assert_non_null(strstr(rep.findings[0].reason, "no module-allowlist entry"));
	verify_report_free(&rep);

	/* another kernel's list */
	listed[1][0] = 0x23;
	assert_null(allowlist_build(HASH_ALGO_SHA256, &listed[0][0], 2, &other));
	listed[1][0] = 0x22;
	add_allowlist_entry(&log, &other);
	assert_int_equal(run(&log, &al, NULL, &rep), 0);
	assert_int_equal(rep.n_findings, 2);
	assert_int_equal(rep.findings[0].index, 1);
	assert_string_equal(rep.findings[0].reason, "module-allowlist entry differs from the kernel's list");
	verify_report_free(&rep);

	/* the raw list as the buffer (hash=false) is accepted */
	log.len = 0;
	hash_of("sha256", al.blob, al.blob_len, raw_digest);
	field_dng(&t, "sha256", raw_digest, 32);
	field_name(&t, VERIFY_ALLOWLIST_EVENT);
	field(&t, al.blob, al.blob_len);
	log_add(&log, "sha256", 10, "ima-buf", &t, false);
	assert_int_equal(run(&log, &al, NULL, &rep), 0);
	assert_int_equal(rep.n_findings, 0);
	assert_int_equal(rep.allowlist_index, 0);
	verify_report_free(&rep);
	allowlist_free(&other);
	allowlist_free(&al);
}

/* A changed file digest with the old template hash is caught. */
static void test_altered_entry(void **state)
{
	struct blob log = { .len = 0 };
	struct verify_report rep;
	struct allowlist al;
	size_t at;

	(void)state;
	make_list(&al);
	add_allowlist_entry(&log, &al);
	at = log_add_ng(&log, "sha256", "/tmp/evil.ko", "sha256", unlisted, 32);
	/* the digest: after pcr, hash, name, data length, field length, "sha256:\0" */
	memcpy(log.data + at + 4 + 32 + 4 + 6 + 4 + 4 + 8, listed[0], 32);
	assert_int_equal(run(&log, &al, NULL, &rep), 0);
	assert_int_equal(rep.n_findings, 1);
	assert_int_equal(rep.findings[0].index, 1);
	assert_string_equal(rep.findings[0].reason, "template hash does not match the entry's data");
	verify_report_free(&rep);
	allowlist_free(&al);
}

/* Entries after the quoted PCR value are not judged; a miss is refused. */
static void test_quoted_pcr(void **state)
{
	struct blob log = { .len = 0 };
	struct verify_report rep;
	struct allowlist al;
	unsigned char pcr[32] = { 0 }, buf[64];
	size_t at[2], later, i;

	(void)state;
	make_list(&al);
	at[0] = add_allowlist_entry(&log, &al);
	at[1] = log_add_ng(&log, "sha256", "/lib/modules/x/a.ko", "sha256", listed[0], 32);
	later = log_add_ng(&log, "sha256", "/tmp/later.ko", "sha256", unlisted, 32);
	for (i = 0; i < 2; i++) {
		memcpy(buf, pcr, 32);
		memcpy(buf + 32, log.data + at[i] + 4, 32);
		hash_of("sha256", buf, 64, pcr);
	}
	assert_int_equal(run(&log, &al, pcr, &rep), 0);
	assert_true(rep.pcr_matched);
	assert_int_equal(rep.entries, 2);
	assert_int_equal(rep.n_findings, 0);
	assert_int_equal(rep.rest, log.len - later);
	assert_int_equal(verify_verdict(&rep), EXIT_ACCEPTED);
	verify_report_free(&rep);

	pcr[0] ^= 1;
	assert_int_equal(run(&log, &al, pcr, &rep), 0);
	assert_false(rep.pcr_matched);
	assert_int_equal(rep.entries, 3);
	assert_int_equal(rep.n_findings, 1);
	assert_int_equal(verify_verdict(&rep), EXIT_REFUSED);
	verify_report_free(&rep);
	allowlist_free(&al);
}

/* The boot_aggregate as IMA computes it from PCRs 0-9 of B. */
static void boot_aggregate_of(const struct verify_boot_pcrs *b, unsigned char *out)
{
	unsigned char cat[10 * 32];
	size_t count = strcmp(b->algo, "sha1") ? 10 : 8, i;

	for (i = 0; i < count; i++)
		memcpy(cat + i * b->size, b->value[i], b->size);
	hash_of(b->algo, cat, count * b->size, out);
}

static void test_boot_aggregate(void **state)
{
	static struct verify_boot_pcrs banks[2] = {
		{ .algo = "sha1", .size = 20 }, { .algo = "sha256", .size = 32 },
	};
	struct verify_options o = { .bank = "sha256", .pcr = 10,
				    .boot_pcrs = banks, .n_boot_pcrs = 2 };
	struct ima_log_error err;
	struct verify_report rep;
	struct allowlist al;
	unsigned char agg[32];
	size_t b, i;

	(void)state;
	make_list(&al);
	for (b = 0; b < 2; b++)
		for (i = 0; i < 10; i++)
			memset(banks[b].value[i], (int)(0x10 * b + i), banks[b].size);
	for (b = 0; b < 2; b++) {
		struct blob log = { .len = 0 };

		boot_aggregate_of(&banks[b], agg);
		log_add_ng(&log, "sha256", VERIFY_BOOT_AGGREGATE, banks[b].algo, agg, banks[b].size);
		add_allowlist_entry(&log, &al);
		assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
		assert_true(rep.boot_checked);
		assert_true(rep.boot_matched);
		assert_string_equal(rep.boot_algo, banks[b].algo);
		assert_int_equal(rep.n_findings, 0);
		verify_report_free(&rep);

		/* PCR 8 counts for sha256, not for sha1. */
		banks[b].value[8][0] ^= 1;
		assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
		assert_int_equal(rep.boot_matched, b == 0);
		assert_int_equal(rep.n_findings, b == 0 ? 0 : 1);
		if (b)
			assert_int_equal(rep.findings[0].index, 0);
		verify_report_free(&rep);
		banks[b].value[8][0] ^= 1;

		/* Without PCRs of its bank, it is not checked. */
		o.n_boot_pcrs = 0;
		assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
		assert_false(rep.boot_checked);
		assert_int_equal(rep.n_findings, 0);
		verify_report_free(&rep);
		o.n_boot_pcrs = 2;
	}

	/* IMA without a TPM logs zeros: not what the quote says. */
	{
		struct blob log = { .len = 0 };

		memset(agg, 0, sizeof(agg));
		log_add_ng(&log, "sha256", VERIFY_BOOT_AGGREGATE, "sha256", agg, 32);
		add_allowlist_entry(&log, &al);
		assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
		assert_true(rep.boot_checked);
		assert_false(rep.boot_matched);
		assert_int_equal(verify_verdict(&rep), EXIT_REFUSED);
		verify_report_free(&rep);
	}
	allowlist_free(&al);
}

static void test_malformed_list(void **state)
{
	struct verify_options o = { .bank = "sha256", .pcr = 10 };
	struct blob log = { .len = 0 };
	struct ima_log_error err;
	struct verify_report rep;
	struct allowlist al;
	size_t second;

	(void)state;
	make_list(&al);
	add_allowlist_entry(&log, &al);
	second = log_add_ng(&log, "sha256", "/lib/modules/x/a.ko", "sha256", listed[0], 32);
	assert_int_equal(verify_log(log.data, second + 20, &al, &o, &rep, &err), -1);
	assert_int_equal(err.index, 1);
	assert_int_equal(err.entry_offset, second);
	assert_int_equal(err.offset, second + 4);
	assert_string_equal(err.why, "truncated template hash");
	o.bank = "sha999";
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), -1);
	assert_string_equal(err.why, "unknown PCR bank");
	allowlist_free(&al);
}

/* The command on the captured boot's files, as a verifier runs it. */
static void test_command(void **state)
{
	char dir[] = "/tmp/modhash-verify.XXXXXX", out[4096], pcrs[2048];
	const char *list, *log, *pcr, *pcrs_file, *cut, *other;
	struct blob more = { .len = sizeof(listed_sha256_log) };
	size_t extra, n = 0;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	list = write_file(dir, "list.bin", hashes_list, sizeof(hashes_list));
	pcr = write_file(dir, "pcr-sha256-10", listed_sha256_pcr10, strlen(listed_sha256_pcr10));
	for (i = 0; i < 24; i++)
		n += (size_t)snprintf(pcrs + n, sizeof(pcrs) - n, "PCR-%02d: %s\n", i,
				      i == 10 ? listed_sha256_pcr10 :
				      "0000000000000000000000000000000000000000000000000000000000000000");
	pcrs_file = write_file(dir, "pcrs", pcrs, n);
	/* The captured list and one more load of an unlisted module. */
	memcpy(more.data, listed_sha256_log, more.len);
	extra = log_add_ng(&more, "sha256", "/tmp/evil.ko", "sha256", unlisted, 32);
	log = write_file(dir, "binary_runtime_measurements_sha256", more.data, more.len);
	other = write_file(dir, "log.bin", more.data, more.len);
	cut = write_file(dir, "binary_runtime_measurements_sha256.cut", more.data, extra + 10);

	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "--kernel", (char *)list, "--pcr10", (char *)pcr, (char *)log, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	assert_non_null(strstr(out, "sha256 PCR-10: 41a6a4fabc275b62f1ac3e5b7e17253ce9184da9aad9871b4b46812a8e30dcca after 5 entries: matches the quoted value"));
	assert_non_null(strstr(out, "modules: 3 loads, 3 on the allowlist (8 sha256 digests)\n"));
	assert_non_null(strstr(out, "module-allowlist: entry 1 matches the kernel's list\n"));
	assert_null(strstr(out, "offending"));
	{
		/* An empty --pcrs file (a device such as /dev/null is refused). */
		char arg[600];

		snprintf(arg, sizeof(arg), "sha1,%s", write_file(dir, "no-pcrs", "", 0));
		assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--pcrs", arg, "--pcrs", (char *)pcrs_file, "--bank", "sha1", (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
		assert_non_null(strstr(out, "/no-pcrs: PCR-10: no such PCR in the file"));
		assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--pcrs", arg, "-p", "sha256,", NULL }, out, sizeof(out)), EXIT_ERROR);
	}
	{
		char arg[600];

		snprintf(arg, sizeof(arg), "sha256,%s", pcrs_file);
		assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--pcrs", arg, (char *)log, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	}
	/* Without the quote, every entry is judged. */
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, (char *)log, NULL }, out, sizeof(out)), EXIT_REFUSED);
	{
		char line[200];

		snprintf(line, sizeof(line), "offending: entry 5 (offset %zu): /tmp/evil.ko: sha256:33", extra);
		assert_non_null(strstr(out, line));
	}
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--pcr10", "00", (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "--pcr10 00: value shorter than the bank's digest"));
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, (char *)other, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "cannot tell the PCR bank from the file name; give --bank"));
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "-b", "sha256", (char *)other, NULL }, out, sizeof(out)), EXIT_REFUSED);
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "-b", "sha256", (char *)cut, NULL }, out, sizeof(out)), EXIT_ERROR);
	{
		char msg[200];

		snprintf(msg, sizeof(msg), ": entry 5 (offset %zu): truncated template hash at offset %zu\n", extra, extra + 4);
		assert_non_null(strstr(out, msg));
	}
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)log, (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "--help", NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	assert_non_null(strstr(out, "Usage: modhash verify-log"));
	unlink(list);
	unlink(pcr);
	unlink(pcrs_file);
	unlink(log);
	unlink(other);
	unlink(cut);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_paths),
		cmocka_unit_test(test_captured_boot),
		cmocka_unit_test(test_offending_entries),
		cmocka_unit_test(test_allowlist_entry),
		cmocka_unit_test(test_altered_entry),
		cmocka_unit_test(test_quoted_pcr),
		cmocka_unit_test(test_boot_aggregate),
		cmocka_unit_test(test_malformed_list),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests_name("verify-log", tests, NULL, NULL);
}
