// SPDX-License-Identifier: GPL-2.0
/* quote-check.c - the quote verify-log checks a list against (quote-check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima-log.h"
#include "quote-check.h"
#include "tpm-quote.h"
#include "util.h"

/*
 * The quote, its signature, the AK and the PCR values are each at most a
 * few kB (24 PCRs of 16 banks of sha512 are 24 kB).
 */
static const struct input_kind INPUT_TPM = { "a TPM structure", 65536 };

bool quote_files_any(const struct quote_files *f)
{
	return f->quote || f->sig || f->ak_pub || f->ak_name || f->nonce ||
	       f->pcr_values;
}

const char *quote_files_missing(const struct quote_files *f)
{
	return !f->quote ? "--quote FILE" :
	       !f->sig ? "--quote-sig FILE" :
	       !f->ak_pub ? "--ak-pub FILE" :
	       !f->nonce ? "--nonce HEX" :
	       !f->pcr_values ? "--pcr-values FILE" : NULL;
}

/* Is ARG an even number of hex digits, at most 2 * MAX? */
static bool hex_arg(const char *arg, size_t max)
{
	size_t n = strlen(arg);

	return n && n % 2 == 0 && n <= 2 * max &&
	       strspn(arg, "0123456789abcdefABCDEF") == n;
}

/* The AK's name from --ak-name: hex, or a file with the binary name. */
static int read_name(const char *arg, unsigned char *out, size_t max,
		     size_t *len)
{
	unsigned char *data;

	if (hex_arg(arg, max)) {
		*len = strlen(arg) / 2;
		return hex_decode(arg, out, *len) ? 0 : -1;
	}
	if (read_whole_file(arg, &INPUT_TPM, &data, len))
		return -1;
	if (*len < 4 || *len > max) {
		fail_at(arg, "%zu bytes: not a TPM object's name (tpm2_createak -n)", *len);
		free(data);
		return -1;
	}
	memcpy(out, data, *len);
	free(data);
	return 0;
}

/* PCRs 0-9 of every bank the quote has all of, for the boot_aggregate. */
static void boot_pcrs(const struct tpm_quote *q, const unsigned char *values,
		      struct verify_boot_pcrs *boot, size_t max_boot,
		      size_t *n_boot)
{
	static const char *const banks[] = { "sha1", "sha256", "sha384", "sha512" };
	size_t k, off, size;
	unsigned int i;

	*n_boot = 0;
	for (k = 0; k < sizeof(banks) / sizeof(banks[0]) && *n_boot < max_boot; k++) {
		struct verify_boot_pcrs *b = &boot[*n_boot];

		for (i = 0; i < 10; i++) {
			if (tpm_quote_pcr(q, banks[k], i, &off, &size) ||
			    size > sizeof(b->value[i]))
				break;
			memcpy(b->value[i], values + off, size);
		}
		if (i < 10)
			continue;
		snprintf(b->algo, sizeof(b->algo), "%s", banks[k]);
		b->size = size;
		(*n_boot)++;
	}
}

/* The accepted quote's line, into LINE (of SIZE). */
static void accepted_line(const struct tpm_quote *q, const struct tpm_ak *ak,
			  bool named, char *line, size_t size)
{
	char name[2 * sizeof(ak->name) + 1], scheme[32], sel[128];

	hex_encode(ak->name, ak->name_len, name);
	tpm_quote_selection(q, sel, sizeof(sel));
	snprintf(line, size, "quote: verified: %s signature by the AK %s%s, the nonce given, PCR values hash to the signed digest (%s)",
	       tpm_quote_scheme(q, scheme, sizeof(scheme)), name,
	       named ? " (the name given)" : " (its name not checked: no --ak-name)",
	       sel);
}

struct quote_inputs {
	unsigned char *msg, *sig, *pub, *values;
	size_t msg_len, sig_len, pub_len, values_len;
};

static void free_inputs(struct quote_inputs *in)
{
	free(in->msg);
	free(in->sig);
	free(in->pub);
	free(in->values);
}

static int read_inputs(const struct quote_files *f, struct quote_inputs *in)
{
	memset(in, 0, sizeof(*in));
	return read_whole_file(f->quote, &INPUT_TPM, &in->msg, &in->msg_len) ||
	       read_whole_file(f->sig, &INPUT_TPM, &in->sig, &in->sig_len) ||
	       read_whole_file(f->ak_pub, &INPUT_TPM, &in->pub, &in->pub_len) ||
	       read_whole_file(f->pcr_values, &INPUT_TPM, &in->values, &in->values_len) ? -1 : 0;
}

/* Read and verify; EXIT_* as quote_check(), and the quote in Q. */
static int verify(const struct quote_files *f, const struct quote_inputs *in,
		  struct tpm_quote *q, char *line, size_t line_size)
{
	unsigned char nonce[sizeof(TPMU_HA)], name[sizeof(((struct tpm_ak *)0)->name)];
	size_t nonce_len, name_len = 0;
	char why[TPM_QUOTE_WHY];
	struct tpm_ak ak;
	int rc;

	if (!hex_arg(f->nonce, sizeof(nonce))) {
		fail_at(NULL, "--nonce %s: not hex digits for 1 to %zu bytes", f->nonce, sizeof(nonce));
		return EXIT_ERROR;
	}
	nonce_len = strlen(f->nonce) / 2;
	if (!hex_decode(f->nonce, nonce, nonce_len) ||
	    (f->ak_name && read_name(f->ak_name, name, sizeof(name), &name_len)))
		return EXIT_ERROR;
	rc = tpm_quote_read(in->msg, in->msg_len, in->sig, in->sig_len, q, why);
	if (rc) {
		fail_at(rc == -1 ? f->quote : f->sig, "%s", why);
		return EXIT_ERROR;
	}
	if (tpm_ak_read(in->pub, in->pub_len, &ak, why)) {
		fail_at(f->ak_pub, "%s", why);
		return EXIT_ERROR;
	}
	rc = tpm_quote_verify(q, &ak, f->ak_name ? name : NULL, name_len,
			      nonce, nonce_len, why);
	if (rc < 0) {
		fail_at(NULL, "%s", why);
		return EXIT_ERROR;
	}
	if (!rc) {
		rc = tpm_quote_check_pcrs(q, in->values, in->values_len, why);
		if (rc < 0) {
			fail_at(f->pcr_values, "%s", why);
			return EXIT_ERROR;
		}
	}
	if (rc) {
		snprintf(line, line_size, "quote: refused: %s", why);
		return EXIT_REFUSED;
	}
	accepted_line(q, &ak, f->ak_name, line, line_size);
	return EXIT_ACCEPTED;
}

int quote_check(const struct quote_files *f, const char *bank,
		unsigned int pcr, unsigned char *expected,
		struct verify_boot_pcrs *boot, size_t max_boot,
		size_t *n_boot, char *line, size_t line_size)
{
	struct quote_inputs in;
	struct tpm_quote q;
	size_t off, size;
	int rc = EXIT_ERROR;

	line[0] = '\0';
	if (read_inputs(f, &in))
		goto out;
	rc = verify(f, &in, &q, line, line_size);
	if (rc != EXIT_ACCEPTED)
		goto out;
	if (tpm_quote_pcr(&q, bank, pcr, &off, &size) ||
	    size != ima_log_bank_size(bank)) {
		fail_at(f->quote, "the quote does not cover %s PCR %u", bank, pcr);
		rc = EXIT_ERROR;
		goto out;
	}
	memcpy(expected, in.values + off, size);
	boot_pcrs(&q, in.values, boot, max_boot, n_boot);
out:
	free_inputs(&in);
	return rc;
}
