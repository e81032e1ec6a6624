/* SPDX-License-Identifier: GPL-2.0 */
/*
 * quote-check.h - the TPM quote verify-log checks a measurement list
 * against: read the files a verifier holds (tpm-quote.h), verify the
 * quote, and hand verify-log the PCR values it vouches for.
 */
#ifndef MODHASH_QUOTE_CHECK_H
#define MODHASH_QUOTE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "verify-log.h"

/* The command line's quote options; NULL when not given. */
struct quote_files {
	const char *quote;	/* --quote: TPMS_ATTEST (tpm2_quote -m) */
	const char *sig;	/* --quote-sig: TPMT_SIGNATURE (tpm2_quote -s) */
	const char *ak_pub;	/* --ak-pub: TPM2B_PUBLIC (tpm2_createak -u) */
	const char *ak_name;	/* --ak-name HEX|FILE (tpm2_createak -n) */
	const char *nonce;	/* --nonce HEX (tpm2_quote -q) */
	const char *pcr_values;	/* --pcr-values FILE (tpm2_quote -o -F values) */
};

/* Was any of them given? */
bool quote_files_any(const struct quote_files *f);

/*
 * With any given, all but --ak-name must be: NULL, or the first one
 * missing ("--quote-sig FILE").
 */
const char *quote_files_missing(const struct quote_files *f);

/* The longest "quote: ..." line quote_check() writes. */
#define QUOTE_LINE_MAX 512

/*
 * Verify the quote.  When accepted, write one "quote: verified: ..."
 * line (no newline) into LINE (of LINE_SIZE), put the quoted value of PCR of BANK in EXPECTED and PCRs 0-9
 * of each bank the quote has all of in BOOT (at most MAX_BOOT banks, the
 * number in *N_BOOT), and return EXIT_ACCEPTED.  A quote refused (wrong
 * AK, nonce, signature or PCR values): "quote: refused: WHY" in LINE,
 * EXIT_REFUSED.  Unreadable or malformed input, or a quote without that
 * PCR: one line on stderr naming the file, EXIT_ERROR.
 */
int quote_check(const struct quote_files *f, const char *bank,
		unsigned int pcr, unsigned char *expected,
		struct verify_boot_pcrs *boot, size_t max_boot,
		size_t *n_boot, char *line, size_t line_size);

#endif
