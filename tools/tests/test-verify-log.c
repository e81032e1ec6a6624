// SPDX-License-Identifier: GPL-2.0
/* test-verify-log.c - verify-log's judgement of measurement lists. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>

#include <linux/hash_info.h>

#include <json-c/json.h>

#include "commands.h"
#include "format.h"
#include "ima-signature.h"
#include "reference.h"
#include "util.h"
#include "verify-log.h"
#include "log-builder.h"
#include "captured.h"
#include "run-command.h"
#include "kernel-fixture.h"
#include "sig-builder.h"

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
	static const unsigned char d20[20] = { 9 }, d32[32] = { 0x44 };
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
	/* A compressed file's digest (its decompressed image may be listed). */
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/b.ko.xz", "sha256", d32, 32);
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

		snprintf(arg, sizeof(arg), "sha256,%s", write_file(dir, "no-pcrs", "", 0));
		assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--pcrs", arg, "--pcrs", (char *)pcrs_file, (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
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
	/* The bank comes from the entries, whatever the file's name. */
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, (char *)other, NULL }, out, sizeof(out)), EXIT_REFUSED);
	assert_non_null(strstr(out, "sha256 PCR-10: "));
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--bank", "sha1", (char *)other, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "/log.bin: its entries are of the sha256 bank, not of sha1 (--bank)\n"));
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

/* An ima-buf entry NAME with BUF, d-ng of ALGO over DNG_OF (BUF if NULL). */
static size_t add_buf(struct blob *log, const char *name, const char *algo,
		      const void *buf, size_t len, const void *dng_of,
		      size_t dng_len)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	struct blob t = { .len = 0 };
	size_t n;

	n = dng_of ? hash_of(algo, dng_of, dng_len, d) : hash_of(algo, buf, len, d);
	field_dng(&t, algo, d, n);
	field_name(&t, name);
	field(&t, buf, len);
	return log_add(log, "sha256", 10, "ima-buf", &t, false);
}

/* init_module loads: critical data whose buffer is the image's digest. */
static void test_init_module(void **state)
{
	static const unsigned char raw[] = "\177ELF a module image";
	unsigned char d64[64] = { 7 }, raw_digest[32], digests[3][32];
	struct blob log = { .len = 0 };
	struct verify_report rep;
	struct allowlist al;
	char hex[65], want[80];

	(void)state;
	hash_of("sha256", raw, sizeof(raw), raw_digest);
	memcpy(digests[0], listed[0], 32);
	memcpy(digests[1], listed[1], 32);
	memcpy(digests[2], raw_digest, 32);
	assert_null(allowlist_build(HASH_ALGO_SHA256, &digests[0][0], 3, &al));
	add_allowlist_entry(&log, &al);
	add_buf(&log, "init_module", "sha256", listed[0], 32, NULL, 0);
	add_buf(&log, "init_module", "sha256", unlisted, 32, NULL, 0);
	add_buf(&log, "init_module", "sha256", listed[1], 32, unlisted, 32);
	add_buf(&log, "init_module", "sha512", d64, 64, NULL, 0);
	add_buf(&log, "init_module", "sha256", raw, sizeof(raw), NULL, 0);
	/* Other critical data is no module load. */
	add_buf(&log, "kernel_version", "sha256", "6.12", 4, NULL, 0);
	assert_int_equal(run(&log, &al, NULL, &rep), 0);
	assert_int_equal(rep.modules, 5);
	assert_int_equal(rep.modules_listed, 2);
	assert_int_equal(rep.n_results, 5);
	assert_int_equal(rep.results[0].index, 1);
	assert_int_equal(rep.results[0].status, VERIFY_LISTED);
	assert_string_equal(rep.results[0].path, "init_module");
	hex_encode(listed[0], 32, hex);
	snprintf(want, sizeof(want), "sha256:%s", hex);
	assert_string_equal(rep.results[0].digest, want);
	assert_string_equal(rep.results[1].reason, "not on the kernel's allowlist");
	assert_string_equal(rep.results[2].reason, "init_module entry: its digest is not that of its buffer");
	assert_non_null(strstr(rep.results[3].reason, "IMA's hash algorithm differs"));
	/* The raw image as the buffer: judged by its digest. */
	assert_int_equal(rep.results[4].status, VERIFY_LISTED);
	hex_encode(raw_digest, 32, hex);
	snprintf(want, sizeof(want), "sha256:%s", hex);
	assert_string_equal(rep.results[4].digest, want);
	assert_int_equal(rep.n_findings, 3);
	assert_int_equal(verify_verdict(&rep), EXIT_REFUSED);
	verify_report_free(&rep);
	allowlist_free(&al);
}

/* Compressed modules, accepted by the installed files' digests. */
static void test_reference(void **state)
{
	static const unsigned char xz[32] = { 0x77 }, zst[32] = { 0x78 };
	struct verify_options o = { .bank = "sha256", .pcr = 10 };
	char dir[] = "/tmp/modhash-ref.XXXXXX", text[512], hex[65];
	struct blob log = { .len = 0 };
	struct ima_log_error err;
	struct verify_report rep;
	struct reference ref;
	struct allowlist al;
	const char *path;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_list(&al);
	add_allowlist_entry(&log, &al);
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/a.ko.xz", "sha256", xz, 32);
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/b.ko.zst", "sha256", zst, 32);
	hex_encode(xz, 32, hex);
	snprintf(text, sizeof(text), "# modhash export\n%s  /lib/modules/6.12/kernel/a.ko.xz\n", hex);
	path = write_file(dir, "ref.sha256sum", text, strlen(text));
	assert_int_equal(reference_load(path, &ref), 0);
	assert_int_equal(ref.n, 1);
	o.reference = &ref;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_int_equal(rep.modules, 2);
	assert_int_equal(rep.modules_listed, 1);
	assert_int_equal(rep.results[0].status, VERIFY_LISTED);
	assert_string_equal(rep.results[0].reference, "/lib/modules/6.12/kernel/a.ko.xz");
	assert_int_equal(rep.results[1].status, VERIFY_OFFENDING);
	assert_string_equal(rep.results[1].reason, "compressed module whose file is not in the reference");
	verify_report_free(&rep);
	reference_free(&ref);
	unlink(path);

	/* The same from a Keylime runtime policy. */
	hex_encode(zst, 32, hex);
	snprintf(text, sizeof(text), "{ \"meta\": { \"version\": 1 }, \"digests\": { \"/usr/lib/modules/6.12/kernel/b.ko.zst\": [ \"%s\" ] } }", hex);
	path = write_file(dir, "ref.json", text, strlen(text));
	assert_int_equal(reference_load(path, &ref), 0);
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_int_equal(rep.results[0].status, VERIFY_OFFENDING);
	assert_int_equal(rep.results[1].status, VERIFY_LISTED);
	verify_report_free(&rep);
	reference_free(&ref);
	unlink(path);

	/* Without a reference, a compressed module says how to verify it. */
	o.reference = NULL;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_int_equal(rep.n_findings, 2);
	assert_non_null(strstr(rep.findings[0].reason, "--reference"));
	verify_report_free(&rep);

	path = write_file(dir, "bad", "abc /x\n", 7);
	assert_int_equal(reference_load(path, &ref), -1);
	unlink(path);
	allowlist_free(&al);
	rmdir(dir);
}

/* The reference made from the module files: a compressed one listed. */
static void test_reference_from_modules(void **state)
{
	unsigned char digests[2][32], xz_digest[32], *mod, *xz;
	struct verify_options o = { .bank = "sha256", .pcr = 10 };
	struct blob log = { .len = 0 };
	struct ima_log_error err;
	struct verify_report rep;
	struct reference ref;
	struct allowlist al;
	size_t len, xz_len;
	char dir[128];

	(void)state;
	fixture_start();
	assert_int_equal(fixture_sh("mkdir t && printf 'int f(void) { return 5; }' > m.c && "
				    "cc -c -o t/m.ko m.c && xz -k t/m.ko && "
				    "printf 'int g(void) { return 6; }' > n.c && cc -c -o n.ko n.c && "
				    "xz -c n.ko > t/n.ko.xz"), 0);
	mod = fixture_read("t/m.ko", &len);
	xz = fixture_read("t/m.ko.xz", &xz_len);
	assert_non_null(mod);
	assert_non_null(xz);
	hash_of("sha256", mod, len, digests[0]);
	hash_of("sha256", xz, xz_len, xz_digest);
	memset(digests[1], 0xfe, 32);
	assert_null(allowlist_build(HASH_ALGO_SHA256, &digests[0][0], 2, &al));
	snprintf(dir, sizeof(dir), "%s/t", fixture_dir);
	assert_int_equal(reference_from_modules(dir, &al, "sha256", &ref), 0);
	/* m.ko and m.ko.xz, not n.ko.xz (not listed). */
	assert_int_equal(ref.n, 2);
	add_allowlist_entry(&log, &al);
	log_add_ng(&log, "sha256", "/lib/modules/6.12/kernel/m.ko.xz", "sha256", xz_digest, 32);
	o.reference = &ref;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_int_equal(rep.modules_listed, 1);
	assert_int_equal(rep.n_findings, 0);
	assert_non_null(strstr(rep.results[0].reference, "/t/m.ko.xz"));
	verify_report_free(&rep);
	reference_free(&ref);
	assert_int_equal(reference_from_modules(dir, &al, "sha999", &ref), -1);
	free(mod);
	free(xz);
	allowlist_free(&al);
	fixture_end();
}

/* ima-modsig or ima-sig entry NAME: file DIGEST, SIG, D-MODSIG, MODSIG. */
static size_t add_signed(struct blob *log, const char *tname, const char *name,
			 const unsigned char *digest, const unsigned char *sig,
			 size_t sig_len, const unsigned char *dmodsig,
			 const unsigned char *modsig, size_t modsig_len)
{
	struct blob t = { .len = 0 };

	field_dng(&t, "sha256", digest, 32);
	field_name(&t, name);
	field(&t, sig ? (const void *)sig : "", sig_len);
	if (!strcmp(tname, "ima-modsig")) {
		field_dng(&t, "sha256", dmodsig, 32);
		field(&t, modsig, modsig_len);
	}
	return log_add(log, "sha256", 10, tname, &t, false);
}

static void test_signatures(void **state)
{
	static const char content[] = "a DKMS module", listed_content[] = "an in-tree module";
	static const unsigned char file[32] = { 0x51 }, other_file[32] = { 0x52 };
	unsigned char modsig[2048], modsig2[2048], imasig[1024], dcontent[32];
	unsigned char dlisted[32], dother[32], digests[2][32];
	char dir[] = "/tmp/modhash-sig.XXXXXX", id[9];
	struct verify_options o = { .bank = "sha256", .pcr = 10 };
	struct sig_keys a_keys = { 0 }, b_keys = { 0 };
	size_t n_modsig, n_modsig2, n_imasig;
	struct blob log = { .len = 0 };
	struct signer a, b;
	struct ima_log_error err;
	struct verify_report rep;
	struct allowlist al;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(signer_make(&a, dir, "dkms"), 0);
	assert_int_equal(signer_make(&b, dir, "other"), 0);
	assert_int_equal(sig_keys_add_file(&a_keys, a.cert_path), 0);
	assert_int_equal(sig_keys_add_file(&b_keys, b.cert_path), 0);
	hash_of("sha256", content, sizeof(content), dcontent);
	hash_of("sha256", listed_content, sizeof(listed_content), dlisted);
	hash_of("sha256", "changed", 7, dother);
	memcpy(digests[0], listed[0], 32);
	memcpy(digests[1], dlisted, 32);
	assert_null(allowlist_build(HASH_ALGO_SHA256, &digests[0][0], 2, &al));
	n_modsig = signer_modsig(&a, content, sizeof(content), modsig, sizeof(modsig));
	n_modsig2 = signer_modsig(&b, listed_content, sizeof(listed_content), modsig2, sizeof(modsig2));
	n_imasig = signer_imasig(&a, other_file, imasig);
	assert_true(n_modsig && n_modsig2 && n_imasig);
	/* libimaevm's key id in the signature is the certificate's. */
	hex_encode(imasig + 3, 4, id);
	assert_string_equal(id, a_keys.v[0].keyid);

	add_allowlist_entry(&log, &al);
	add_signed(&log, "ima-modsig", "/lib/modules/6.12/updates/dkms/a.ko", file, NULL, 0, dcontent, modsig, n_modsig);
	add_signed(&log, "ima-sig", "/lib/modules/6.12/updates/dkms/b.ko", other_file, imasig, n_imasig, NULL, NULL, 0);
	/* A d-modsig the signature was not made over. */
	add_signed(&log, "ima-modsig", "/lib/modules/6.12/updates/dkms/c.ko", file, NULL, 0, dother, modsig, n_modsig);
	/* Signed by anybody, but the content is listed. */
	add_signed(&log, "ima-modsig", "/lib/modules/6.12/kernel/d.ko", file, NULL, 0, dlisted, modsig2, n_modsig2);

	o.keys = &a_keys;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_int_equal(rep.modules, 4);
	assert_int_equal(rep.modules_signed, 2);
	assert_int_equal(rep.modules_listed, 1);
	assert_int_equal(rep.results[0].status, VERIFY_SIGNED);
	assert_string_equal(rep.results[0].key, a_keys.v[0].keyid);
	assert_string_equal(rep.results[0].reason, "/CN=dkms");
	assert_int_equal(rep.results[1].status, VERIFY_SIGNED);
	assert_string_equal(rep.results[1].key, a_keys.v[0].keyid);
	assert_int_equal(rep.results[2].status, VERIFY_OFFENDING);
	assert_string_equal(rep.results[2].reason, "appended signature does not verify with its signer's certificate");
	assert_int_equal(rep.results[3].status, VERIFY_LISTED);
	assert_string_equal(rep.results[3].reason, "on the allowlist without its appended signature");
	assert_int_equal(verify_verdict(&rep), EXIT_REFUSED);
	verify_report_free(&rep);

	o.keys = &b_keys;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_int_equal(rep.modules_signed, 0);
	assert_string_equal(rep.results[0].reason, "appended signature by a key of no given certificate");
	assert_string_equal(rep.results[1].reason, "security.ima signed by a key of no given certificate");
	verify_report_free(&rep);

	o.keys = NULL;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_string_equal(rep.results[0].reason, "appended signature, and no certificate given (--cert)");
	assert_string_equal(rep.results[1].reason, "security.ima signature, and no certificate given (--cert)");
	verify_report_free(&rep);

	/* A wrong digest under a right key id: libimaevm refuses it. */
	log.len = 0;
	add_allowlist_entry(&log, &al);
	add_signed(&log, "ima-sig", "/lib/modules/6.12/updates/dkms/b.ko", file, imasig, n_imasig, NULL, NULL, 0);
	o.keys = &a_keys;
	assert_int_equal(verify_log(log.data, log.len, &al, &o, &rep, &err), 0);
	assert_string_equal(rep.results[0].reason, "security.ima signature does not verify with its key");
	verify_report_free(&rep);

	sig_keys_free(&a_keys);
	sig_keys_free(&b_keys);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
	signer_free(&a);
	signer_free(&b);
	allowlist_free(&al);
}

/* The ASCII list of the ima-ng and ima-buf entries of LOG (sha256 bank). */
static size_t to_ascii(const struct blob *log, char *out, size_t size)
{
	struct ima_log_error err;
	struct ima_log_entry e;
	struct ima_log it;
	size_t n = 0;

	ima_log_init(&it, log->data, log->len, 32);
	while (ima_log_next(&it, &e, &err) > 0) {
		char th[65], d[129], b[129];

		hex_encode(e.template_hash.data, 32, th);
		hex_encode(e.digest.data, e.digest.len, d);
		n += (size_t)snprintf(out + n, size - n, "%2u %s %s %s:%s %s", e.pcr, th,
				      e.template_name, e.digest_algo, d, e.name);
		if (e.buf.len) {
			hex_encode(e.buf.data, e.buf.len, b);
			n += (size_t)snprintf(out + n, size - n, " %s", b);
		}
		n += (size_t)snprintf(out + n, size - n, "\n");
	}
	return n;
}

/* The command: ASCII lists, JSON, a stripped vmlinux with --system-map. */
static void test_command_forms(void **state)
{
	char dir[] = "/tmp/modhash-forms.XXXXXX", out[16384], ascii[8192], sub[128];
	const char *list, *log, *pcr, *alog, *stripped;
	struct blob more = { .len = sizeof(listed_sha256_log) };
	json_object *root, *v, *results;
	unsigned char *bin;
	size_t n, len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	list = write_file(dir, "list.bin", hashes_list, sizeof(hashes_list));
	pcr = write_file(dir, "pcr", listed_sha256_pcr10, strlen(listed_sha256_pcr10));
	memcpy(more.data, listed_sha256_log, more.len);
	log_add_ng(&more, "sha256", "/tmp/evil.ko", "sha256", unlisted, 32);
	log = write_file(dir, "log", more.data, more.len);
	n = to_ascii(&more, ascii, sizeof(ascii));
	alog = write_file(dir, "ascii_runtime_measurements", ascii, n);

	/* The ASCII list reads as the binary one. */
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--pcr10", (char *)pcr, (char *)alog, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	assert_non_null(strstr(out, "sha256 PCR-10: 41a6a4fabc275b62f1ac3e5b7e17253ce9184da9aad9871b4b46812a8e30dcca after 5 entries: matches the quoted value"));
	assert_non_null(strstr(out, "listed: entry 2 (offset "));
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, (char *)alog, NULL }, out, sizeof(out)), EXIT_REFUSED);
	assert_non_null(strstr(out, "offending: entry 5 "));
	ascii[n - 1] = 'x';
	alog = write_file(dir, "ascii_runtime_measurements", ascii, n);
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, (char *)alog, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "ascii_runtime_measurements: line 6: last line without a newline (cut short?)"));

	/* JSON: one document, an entry per module load. */
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--format=json", (char *)log, NULL }, out, sizeof(out)), EXIT_REFUSED);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "bank", &v));
	assert_string_equal(json_object_get_string(v), "sha256");
	assert_true(json_object_object_get_ex(root, "verdict", &v));
	assert_string_equal(json_object_get_string(v), "refused");
	assert_true(json_object_object_get_ex(root, "results", &results));
	assert_int_equal(json_object_array_length(results), 4);
	v = json_object_array_get_idx(results, 3);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "verdict")), "offending");
	assert_string_equal(json_object_get_string(json_object_object_get(v, "path")), "/tmp/evil.ko");
	assert_int_equal(json_object_get_int(json_object_object_get(v, "entry")), 5);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "reason")), "not on the kernel's allowlist");
	v = json_object_array_get_idx(results, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "verdict")), "listed");
	json_object_put(root);
	assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)list, "--format=yaml", (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "--format: yaml is neither text nor json"));

	/* A vmlinux without symbols, its System.map elsewhere. */
	fixture_start();
	assert_int_equal(kernel_fixture_make(), 0);
	snprintf(sub, sizeof(sub), "%s/sub", fixture_dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	bin = fixture_read("vmlinux.stripped", &len);
	stripped = write_file(sub, "vmlinux", bin, len);
	free(bin);
	{
		struct blob l = { .len = 0 };
		char map[128];

		add_allowlist_entry(&l, &fixture_list);
		log = write_file(dir, "log", l.data, l.len);
		assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)stripped, (char *)log, NULL }, out, sizeof(out)), EXIT_ERROR);
		assert_non_null(strstr(out, "--system-map"));
		snprintf(map, sizeof(map), "%s/System.map", fixture_dir);
		assert_int_equal(run_command(cmd_verify_log, (char *[]){ "verify-log", "-k", (char *)stripped, "--system-map", map, (char *)log, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
		assert_non_null(strstr(out, "module-allowlist: entry 0 matches the kernel's list"));
	}
	unlink(stripped);
	rmdir(sub);
	fixture_end();
	allowlist_free(&fixture_list);
	unlink(list);
	unlink(pcr);
	unlink(log);
	unlink(alog);
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
		cmocka_unit_test(test_command_forms),
		cmocka_unit_test(test_init_module),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_reference_from_modules),
		cmocka_unit_test(test_signatures),
	};

	return cmocka_run_group_tests_name("verify-log", tests, NULL, NULL);
}
