// SPDX-License-Identifier: GPL-2.0
/*
 * test-tpm-quote.c - the TPM quote reader and verifier (tpm-quote.c) and
 * verify-log's use of it (quote-check.c), on quotes made by swtpm.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <openssl/evp.h>

#include "commands.h"
#include "quote-check.h"
#include "tpm-quote.h"
#include "util.h"
#include "captured-quotes.h"
#include "fixtures.h"
#include "run-command.h"

struct capture {
	const char *name;
	const unsigned char *msg, *sig, *pcrs, *pub, *ak_name;
	size_t msg_len, sig_len, pcrs_len, pub_len, ak_name_len;
	const char *nonce;
};

#define CAPTURE(n) {							\
	#n, QUOTE_##n##_quote_msg, QUOTE_##n##_quote_sig,		\
	QUOTE_##n##_quote_pcrs, QUOTE_##n##_ak_pub, QUOTE_##n##_ak_name, \
	sizeof(QUOTE_##n##_quote_msg), sizeof(QUOTE_##n##_quote_sig),	\
	sizeof(QUOTE_##n##_quote_pcrs), sizeof(QUOTE_##n##_ak_pub),	\
	sizeof(QUOTE_##n##_ak_name), QUOTE_##n##_nonce }

/* One TPM's AKs of each scheme; an unrestricted key; another TPM's AK. */
static const struct capture rsassa = CAPTURE(rsassa);
static const struct capture rsapss = CAPTURE(rsapss);
static const struct capture ecdsa = CAPTURE(ecdsa);
static const struct capture unrestricted = CAPTURE(unrestricted);
static const struct capture other_tpm = CAPTURE(other_tpm);
/* The attest suite's clean boot (tests/vm/run-attest.sh, 2026-12-07). */
static const struct capture guest = CAPTURE(guest);

static const struct capture *const good[] = { &rsassa, &rsapss, &ecdsa };

struct loaded {
	struct tpm_quote q;
	struct tpm_ak ak;
	unsigned char nonce[20];
};

static void load(const struct capture *c, struct loaded *l)
{
	char why[TPM_QUOTE_WHY];

	assert_int_equal(tpm_quote_read(c->msg, c->msg_len, c->sig, c->sig_len,
					&l->q, why), 0);
	assert_int_equal(tpm_ak_read(c->pub, c->pub_len, &l->ak, why), 0);
	assert_int_equal(strlen(c->nonce), 40);
	assert_true(hex_decode(c->nonce, l->nonce, 20));
}

/* Verify C's quote with AK and NONCE; the status, the reason in WHY. */
static int verify(const struct capture *c, const struct capture *ak,
		  const unsigned char *nonce, size_t nonce_len,
		  char why[TPM_QUOTE_WHY])
{
	struct loaded l, k;

	load(c, &l);
	load(ak, &k);
	why[0] = '\0';
	return tpm_quote_verify(&l.q, &k.ak, ak->ak_name, ak->ak_name_len,
				nonce, nonce_len, why);
}

/* Each scheme verifies with its AK, its name and the nonce. */
static void test_each_scheme_is_accepted(void **state)
{
	static const char *const schemes[] = {
		"rsassa-sha256", "rsapss-sha256", "ecdsa-sha256",
	};
	char why[TPM_QUOTE_WHY], text[128];
	size_t i, off, size;
	struct loaded l;

	(void)state;
	for (i = 0; i < 3; i++) {
		const struct capture *c = good[i];

		load(c, &l);
		assert_int_equal(tpm_quote_verify(&l.q, &l.ak, c->ak_name, c->ak_name_len,
						  l.nonce, 20, why), 0);
		assert_int_equal(tpm_quote_check_pcrs(&l.q, c->pcrs, c->pcrs_len, why), 0);
		assert_string_equal(tpm_quote_scheme(&l.q, text, sizeof(text)), schemes[i]);
		tpm_quote_selection(&l.q, text, sizeof(text));
		assert_string_equal(text, "sha1 PCRs 0-10, sha256 PCRs 0-10");
		/* Bank after bank in the selection's order. */
		assert_int_equal(tpm_quote_pcr(&l.q, "sha1", 10, &off, &size), 0);
		assert_int_equal(off, 10 * 20);
		assert_int_equal(size, 20);
		assert_int_equal(tpm_quote_pcr(&l.q, "sha256", 10, &off, &size), 0);
		assert_int_equal(off, 11 * 20 + 10 * 32);
		assert_int_equal(size, 32);
		assert_int_equal(tpm_quote_pcr(&l.q, "sha256", 11, &off, &size), -1);
		assert_int_equal(tpm_quote_pcr(&l.q, "sha384", 10, &off, &size), -1);
	}
}

/*
 * The guest's quote, made through /dev/tpmrm0 in a boot of the hashes
 * kernel, verifies; its sha256 PCRs 0-9 hash to the boot_aggregate IMA
 * logged in that boot (entry 0 of its list), and its sha256 PCR 10 is
 * where verify-log's replay of that list stopped (after 5 entries).
 */
static void test_guest_quote(void **state)
{
	static const char aggregate[] = "5145a758a34a02e3775e03b099135424a5eb01d78a2624fc0a04ce612f74a16c";
	static const char pcr10[] = "427b4c517c9e3b9eca1e7500ba1aa3a526f3025cc20dff25fe863f35bb1cca8a";
	unsigned char digest[32];
	char why[TPM_QUOTE_WHY], hex[65];
	unsigned int n = 0;
	size_t off, size;
	struct loaded l;

	(void)state;
	load(&guest, &l);
	assert_int_equal(tpm_quote_verify(&l.q, &l.ak, guest.ak_name, guest.ak_name_len,
					  l.nonce, 20, why), 0);
	assert_int_equal(tpm_quote_check_pcrs(&l.q, guest.pcrs, guest.pcrs_len, why), 0);
	assert_int_equal(tpm_quote_pcr(&l.q, "sha256", 0, &off, &size), 0);
	assert_int_equal(EVP_Digest(guest.pcrs + off, 10 * size, digest, &n, EVP_sha256(), NULL), 1);
	hex_encode(digest, 32, hex);
	assert_string_equal(hex, aggregate);
	assert_int_equal(tpm_quote_pcr(&l.q, "sha256", 10, &off, &size), 0);
	hex_encode(guest.pcrs + off, size, hex);
	assert_string_equal(hex, pcr10);
}

/* The name computed from the public area is the one tpm2-tools printed. */
static void test_ak_name_is_tpm2_tools_name(void **state)
{
	struct loaded l;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		load(good[i], &l);
		assert_int_equal(l.ak.name_len, good[i]->ak_name_len);
		assert_memory_equal(l.ak.name, good[i]->ak_name, l.ak.name_len);
	}
	/* Without a name to compare with, only the name check is skipped. */
	load(&rsassa, &l);
	assert_int_equal(tpm_quote_verify(&l.q, &l.ak, NULL, 0, l.nonce, 20,
					  (char[TPM_QUOTE_WHY]){ 0 }), 0);
}

/* Another TPM's AK: with its own key its name is not the one given;
 * with the given AK's key the signature does not verify. */
static void test_other_tpm_is_refused(void **state)
{
	char why[TPM_QUOTE_WHY];
	struct loaded o, a;

	(void)state;
	load(&other_tpm, &o);
	load(&rsassa, &a);
	assert_int_equal(tpm_quote_verify(&o.q, &o.ak, rsassa.ak_name, rsassa.ak_name_len,
					  o.nonce, 20, why), 1);
	assert_non_null(strstr(why, "the AK's name is not the one the credential was made for"));
	assert_int_equal(tpm_quote_verify(&o.q, &a.ak, rsassa.ak_name, rsassa.ak_name_len,
					  o.nonce, 20, why), 1);
	assert_non_null(strstr(why, "signature does not verify"));
	/* An ECDSA AK and an RSA signature do not go together. */
	assert_int_equal(verify(&rsassa, &ecdsa, a.nonce, 20, why), 1);
	assert_non_null(strstr(why, "cannot come from the AK"));
	/* It verifies with its own AK: the refusals above are not a bad quote. */
	assert_int_equal(verify(&other_tpm, &other_tpm, o.nonce, 20, why), 0);
}

static void test_replayed_nonce_is_refused(void **state)
{
	char why[TPM_QUOTE_WHY];
	unsigned char nonce[20];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_true(hex_decode(good[i]->nonce, nonce, 20));
		nonce[19] ^= 1;
		assert_int_equal(verify(good[i], good[i], nonce, 20, why), 1);
		assert_non_null(strstr(why, "nonce"));
		nonce[19] ^= 1;
		/* A prefix of the nonce is another nonce. */
		assert_int_equal(verify(good[i], good[i], nonce, 19, why), 1);
		assert_non_null(strstr(why, "nonce"));
		assert_int_equal(verify(good[i], good[i], nonce, 20, why), 0);
	}
}

/* Any changed PCR value is refused; a list of another length is no
 * list of this quote. */
static void test_changed_pcr_is_refused(void **state)
{
	char why[TPM_QUOTE_WHY];
	unsigned char values[sizeof(QUOTE_rsassa_quote_pcrs)];
	struct loaded l;
	size_t i;

	(void)state;
	load(&rsassa, &l);
	for (i = 0; i < sizeof(values); i += 7) {
		memcpy(values, rsassa.pcrs, sizeof(values));
		values[i] ^= 0x80;
		assert_int_equal(tpm_quote_check_pcrs(&l.q, values, sizeof(values), why), 1);
		assert_string_equal(why, "the PCR values do not hash to the quote's signed digest: a value was changed");
	}
	/* The other TPM's values, same selection: refused as well. */
	assert_int_equal(tpm_quote_check_pcrs(&l.q, other_tpm.pcrs, other_tpm.pcrs_len, why), 1);
	assert_int_equal(tpm_quote_check_pcrs(&l.q, rsassa.pcrs, sizeof(values) - 1, why), -1);
	assert_non_null(strstr(why, "571 bytes of PCR values, but the quote's selection (sha1 PCRs 0-10, sha256 PCRs 0-10) has 572"));
}

/* A key that is not a restricted signing key can sign anything. */
static void test_unrestricted_key_is_refused(void **state)
{
	char why[TPM_QUOTE_WHY];
	struct loaded l;

	(void)state;
	load(&unrestricted, &l);
	assert_int_equal(verify(&unrestricted, &unrestricted, l.nonce, 20, why), 1);
	assert_non_null(strstr(why, "is not a restricted signing key fixed to its TPM"));
}

/* A byte changed in the signed quote, or in the signature: refused. */
static void test_changed_bytes_are_refused(void **state)
{
	char why[TPM_QUOTE_WHY];
	unsigned char buf[512];
	struct tpm_quote q;
	struct loaded l;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		const struct capture *c = good[i];

		load(c, &l);
		/* clockInfo.clock, after the 20-byte nonce: still a quote. */
		memcpy(buf, c->msg, c->msg_len);
		buf[4 + 2 + 2 + 34 + 2 + 20 + 3] ^= 1;
		assert_int_equal(tpm_quote_read(buf, c->msg_len, c->sig, c->sig_len, &q, why), 0);
		assert_int_equal(tpm_quote_verify(&q, &l.ak, NULL, 0, l.nonce, 20, why), 1);
		assert_non_null(strstr(why, "signature does not verify"));
		/* The signature's last byte. */
		memcpy(buf, c->sig, c->sig_len);
		buf[c->sig_len - 1] ^= 1;
		assert_int_equal(tpm_quote_read(c->msg, c->msg_len, buf, c->sig_len, &q, why), 0);
		assert_int_equal(tpm_quote_verify(&q, &l.ak, NULL, 0, l.nonce, 20, why), 1);
		assert_non_null(strstr(why, "signature does not verify"));
	}
}

/* Truncated or garbled input is an error with its reason, never a quote. */
static void test_truncated_or_garbled_is_an_error(void **state)
{
	char why[TPM_QUOTE_WHY];
	unsigned char buf[1024];
	struct tpm_quote q;
	struct tpm_ak ak;
	size_t n;

	(void)state;
	for (n = 0; n < rsassa.msg_len; n++)
		assert_int_equal(tpm_quote_read(rsassa.msg, n, rsassa.sig, rsassa.sig_len, &q, why), -1);
	assert_string_equal(why, "not a TPMS_ATTEST: truncated (libtss2-mu 0x90006)");
	for (n = 0; n < rsassa.sig_len; n++)
		assert_int_equal(tpm_quote_read(rsassa.msg, rsassa.msg_len, rsassa.sig, n, &q, why), -2);
	for (n = 0; n < rsassa.pub_len; n++)
		assert_int_equal(tpm_ak_read(rsassa.pub, n, &ak, why), -1);
	assert_int_equal(tpm_ak_read((const unsigned char *)"-----BEGIN PUBLIC KEY-----\n", 27, &ak, why), -1);
	assert_non_null(strstr(why, "a PEM key has neither"));

	memcpy(buf, rsassa.msg, rsassa.msg_len);
	buf[0] = 0;
	assert_int_equal(tpm_quote_read(buf, rsassa.msg_len, rsassa.sig, rsassa.sig_len, &q, why), -1);
	assert_string_equal(why, "not made by a TPM: magic 0x00544347, not TPM_GENERATED_VALUE (0xff544347)");
	/* TPM_ST_ATTEST_CERTIFY instead of QUOTE. */
	memcpy(buf, rsassa.msg, rsassa.msg_len);
	buf[5] = 0x17;
	assert_int_equal(tpm_quote_read(buf, rsassa.msg_len, rsassa.sig, rsassa.sig_len, &q, why), -1);
	memcpy(buf, rsassa.msg, rsassa.msg_len);
	buf[rsassa.msg_len] = 0;
	assert_int_equal(tpm_quote_read(buf, rsassa.msg_len + 1, rsassa.sig, rsassa.sig_len, &q, why), -1);
	assert_string_equal(why, "1 bytes after the TPMS_ATTEST");
	/* A signature scheme not read: HMAC (0x0005). */
	memcpy(buf, rsassa.sig, rsassa.sig_len);
	buf[1] = 0x05;
	assert_int_equal(tpm_quote_read(rsassa.msg, rsassa.msg_len, buf, rsassa.sig_len, &q, why), -2);

	/* The same quote as a TPM2B_ATTEST (its size first) is read. */
	buf[0] = (unsigned char)(rsassa.msg_len >> 8);
	buf[1] = (unsigned char)rsassa.msg_len;
	memcpy(buf + 2, rsassa.msg, rsassa.msg_len);
	assert_int_equal(tpm_quote_read(buf, rsassa.msg_len + 2, rsassa.sig, rsassa.sig_len, &q, why), 0);
	assert_int_equal(q.signed_len, rsassa.msg_len);
}

/* verify-log's side: the files, the exit codes, the values it gets. */
static void write_capture(const struct capture *c, const struct capture *ak)
{
	assert_int_equal(fixture_write("quote.msg", c->msg, c->msg_len), 0);
	assert_int_equal(fixture_write("quote.sig", c->sig, c->sig_len), 0);
	assert_int_equal(fixture_write("quote.pcrs", c->pcrs, c->pcrs_len), 0);
	assert_int_equal(fixture_write("ak.pub", ak->pub, ak->pub_len), 0);
	assert_int_equal(fixture_write("ak.name", ak->ak_name, ak->ak_name_len), 0);
}

/* quote_check() as a command, for run_command(): its files in F. */
static struct quote_files f;
static const char *bank = "sha256";
static unsigned int pcr = 10;
static unsigned char expected[64];
static struct verify_boot_pcrs boot[4];
static size_t n_boot;

/* Its output as verify-log gives it: the "quote: ..." line on stdout. */
static int quote_command(int argc, char **argv)
{
	char line[QUOTE_LINE_MAX];
	int rc;

	(void)argc;
	(void)argv;
	rc = quote_check(&f, bank, pcr, expected, boot, 4, &n_boot, line,
			 sizeof(line));
	if (line[0])
		printf("%s\n", line);
	return rc;
}

/* Run quote_check(): its exit status is RC and its output has WANT. */
static void check(int rc, const char *want)
{
	char *argv[] = { "quote", NULL };
	char out[1024];

	assert_int_equal(run_command(quote_command, argv, out, sizeof(out)), rc);
	if (!strstr(out, want))
		fail_msg("\"%s\" not in \"%s\"", want, out);
}

static void test_quote_check_exit_codes(void **state)
{
	static char paths[5][512];
	char other[41], name[2 * 66 + 1], want[256];

	(void)state;
	fixture_start();
	snprintf(paths[0], sizeof(paths[0]), "%s", fixture_path("quote.msg"));
	snprintf(paths[1], sizeof(paths[1]), "%s", fixture_path("quote.sig"));
	snprintf(paths[2], sizeof(paths[2]), "%s", fixture_path("quote.pcrs"));
	snprintf(paths[3], sizeof(paths[3]), "%s", fixture_path("ak.pub"));
	snprintf(paths[4], sizeof(paths[4]), "%s", fixture_path("ak.name"));
	f.quote = paths[0];
	f.sig = paths[1];
	f.pcr_values = paths[2];
	f.ak_pub = paths[3];
	f.ak_name = paths[4];
	f.nonce = rsassa.nonce;

	write_capture(&rsassa, &rsassa);
	hex_encode(rsassa.ak_name, rsassa.ak_name_len, name);
	snprintf(want, sizeof(want), "quote: verified: rsassa-sha256 signature by the AK %s (the name given)", name);
	check(EXIT_ACCEPTED, want);
	assert_memory_equal(expected, rsassa.pcrs + 11 * 20 + 10 * 32, 32);
	assert_int_equal(n_boot, 2);
	assert_string_equal(boot[0].algo, "sha1");
	assert_int_equal(boot[0].size, 20);
	assert_memory_equal(boot[0].value[9], rsassa.pcrs + 9 * 20, 20);
	assert_string_equal(boot[1].algo, "sha256");
	assert_memory_equal(boot[1].value[9], rsassa.pcrs + 11 * 20 + 9 * 32, 32);
	bank = "sha1";
	check(EXIT_ACCEPTED, "(the name given)");
	assert_memory_equal(expected, rsassa.pcrs + 10 * 20, 20);
	/* No sha384 bank in the quote; no PCR 11. */
	bank = "sha384";
	check(EXIT_ERROR, "quote.msg: the quote does not cover sha384 PCR 10");
	bank = "sha256";
	pcr = 11;
	check(EXIT_ERROR, "quote.msg: the quote does not cover sha256 PCR 11");
	pcr = 10;

	/* Another nonce. */
	snprintf(other, sizeof(other), "%s", rsassa.nonce);
	other[0] = other[0] == '0' ? '1' : '0';
	f.nonce = other;
	check(EXIT_REFUSED, "quote: refused: the quote's nonce (extraData, 20 bytes) is not the one given");
	f.nonce = "abc";
	check(EXIT_ERROR, "--nonce abc: not hex digits for 1 to 64 bytes");
	f.nonce = rsassa.nonce;

	/* The other TPM's quote, with the AK the credential was made for. */
	write_capture(&other_tpm, &rsassa);
	check(EXIT_REFUSED, "quote: refused: the rsassa signature does not verify");
	/* Its own AK, but the name given is the activated AK's. */
	assert_int_equal(fixture_write("ak.pub", other_tpm.pub, other_tpm.pub_len), 0);
	check(EXIT_REFUSED, "quote: refused: the AK's name is not the one the credential was made for");
	/* An --ak-name as hex works as the file does. */
	f.ak_name = "000b";
	check(EXIT_REFUSED, "quote: refused: the AK's name is not the one");
	f.ak_name = NULL;
	check(EXIT_ACCEPTED, "(its name not checked: no --ak-name)");

	/* A truncated quote; PCR values of another length. */
	f.ak_name = paths[4];
	write_capture(&rsassa, &rsassa);
	assert_int_equal(fixture_write("quote.msg", rsassa.msg, 40), 0);
	check(EXIT_ERROR, "quote.msg: not a TPMS_ATTEST: truncated");
	write_capture(&rsassa, &rsassa);
	assert_int_equal(fixture_write("quote.pcrs", rsassa.pcrs, 20), 0);
	check(EXIT_ERROR, "quote.pcrs: 20 bytes of PCR values, but the quote's selection");
	fixture_end();
}

/* The command line: all of the quote's files or none; not with --pcr10. */
static void test_verify_log_options(void **state)
{
	char out[4096];
	char *missing[] = { "verify-log", "--kernel", "k", "--quote", "q", "--quote-sig", "s",
			    "--ak-pub", "a", "--pcr-values", "v", "log", NULL };
	char *both[] = { "verify-log", "--kernel", "k", "--pcr10", "00", "--quote", "q", "log", NULL };

	(void)state;
	assert_int_equal(run_command(cmd_verify_log, missing, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "checking a quote needs --nonce HEX too"));
	assert_int_equal(run_command(cmd_verify_log, both, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "--pcr10, --pcrs and --quote exclude each other"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_scheme_is_accepted),
		cmocka_unit_test(test_guest_quote),
		cmocka_unit_test(test_ak_name_is_tpm2_tools_name),
		cmocka_unit_test(test_other_tpm_is_refused),
		cmocka_unit_test(test_replayed_nonce_is_refused),
		cmocka_unit_test(test_changed_pcr_is_refused),
		cmocka_unit_test(test_unrestricted_key_is_refused),
		cmocka_unit_test(test_changed_bytes_are_refused),
		cmocka_unit_test(test_truncated_or_garbled_is_an_error),
		cmocka_unit_test(test_quote_check_exit_codes),
		cmocka_unit_test(test_verify_log_options),
	};

	progname = "modhash verify-log";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
