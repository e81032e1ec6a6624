/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpm-quote.h - a TPM 2.0 quote read from the TPM's own structures and
 * verified, for a verifier that holds the attestation key (AK) the quote
 * claims to be signed with, the nonce it sent and the PCR values the
 * attester reported.
 *
 * The inputs are the files tpm2-tools writes (they are the TPM's
 * structures, marshalled as the TPM returned them; libtss2-mu reads them):
 *  - the quote: TPMS_ATTEST, the bytes the TPM signed (tpm2_quote -m), or
 *    the same as a TPM2B_ATTEST (a 2-byte size first);
 *  - its signature: TPMT_SIGNATURE (tpm2_quote -s, format "tss");
 *  - the AK: TPM2B_PUBLIC (tpm2_createak -u, tpm2_readpublic -o);
 *  - the PCR values: each selected PCR's value, bank after bank in the
 *    quote's own selection order, PCRs in increasing order (tpm2_quote -o
 *    FILE -F values; tpm2_pcrread -F values -o FILE for the same list).
 *
 * A quote is accepted when all of these hold; each has its own refusal:
 *  - the AK is a restricted signing key fixed to its TPM: only such a
 *    key refuses to sign data that begins like a TPM-made structure, so
 *    only its signature shows that the TPM made the quote;
 *  - the AK's name is the one the verifier made its credential for (when
 *    given): the credential's activation showed that key lives in the TPM
 *    whose EK certificate the verifier checked;
 *  - the signature verifies with the AK's public key (RSASSA, RSAPSS or
 *    ECDSA, with the signature's hash; OpenSSL EVP);
 *  - the quote's extraData is the verifier's nonce (not a replay);
 *  - the PCR values hash, with the signature's hash algorithm, to the
 *    quote's pcrDigest (as TPM2_Quote computes it).
 */
#ifndef MODHASH_TPM_QUOTE_H
#define MODHASH_TPM_QUOTE_H

#include <stddef.h>

#include <tss2/tss2_tpm2_types.h>

/* Room for any reason a check gives. */
#define TPM_QUOTE_WHY 200

/* The quote, pointing into the caller's buffers. */
struct tpm_quote {
	TPMS_ATTEST attest;
	const unsigned char *signed_bytes;	/* the marshalled TPMS_ATTEST */
	size_t signed_len;
	TPMT_SIGNATURE sig;
};

/* The AK: its public area and its name (nameAlg, then the digest). */
struct tpm_ak {
	TPMT_PUBLIC pub;
	unsigned char name[sizeof(TPMI_ALG_HASH) + sizeof(TPMU_HA)];
	size_t name_len;
};

/*
 * Read the quote MSG (MSG_LEN bytes) and its signature SIG.  Returns 0,
 * or with WHY -1 when MSG, -2 when SIG is not what tpm2_quote writes:
 * truncated, followed by more bytes, without the TPM's magic, not a
 * quote, a signature scheme or hash this reader does not know.
 */
int tpm_quote_read(const unsigned char *msg, size_t msg_len,
		   const unsigned char *sig, size_t sig_len,
		   struct tpm_quote *q, char why[TPM_QUOTE_WHY]);

/* Read the AK from its TPM2B_PUBLIC and compute its name.  0, or -1. */
int tpm_ak_read(const unsigned char *buf, size_t len, struct tpm_ak *ak,
		char why[TPM_QUOTE_WHY]);

/*
 * Check Q against AK and NONCE (NONCE_LEN bytes) as above, and when
 * AK_NAME is not NULL that AK's name is AK_NAME (AK_NAME_LEN bytes).
 * Returns 0 when accepted, 1 refused with WHY (the first check that
 * failed), -1 when OpenSSL cannot even try (no memory).
 */
int tpm_quote_verify(const struct tpm_quote *q, const struct tpm_ak *ak,
		     const unsigned char *ak_name, size_t ak_name_len,
		     const unsigned char *nonce, size_t nonce_len,
		     char why[TPM_QUOTE_WHY]);

/*
 * Check the PCR values VALUES (LEN bytes, the form above) against Q's
 * selection and signed digest: -1 with WHY when LEN is not what the
 * selection needs (the file is not this quote's list) or a bank's
 * algorithm is unknown, 1 with WHY when the values do not hash to the
 * signed digest (a value was changed), 0 when they do.
 */
int tpm_quote_check_pcrs(const struct tpm_quote *q,
			 const unsigned char *values, size_t len,
			 char why[TPM_QUOTE_WHY]);

/*
 * Where PCR of BANK ("sha256") is in VALUES, checked by
 * tpm_quote_check_pcrs(): its offset there and its size.  0, or -1 when
 * the quote does not select it.
 */
int tpm_quote_pcr(const struct tpm_quote *q, const char *bank,
		  unsigned int pcr, size_t *offset, size_t *size);

/* The quote's selection, e.g. "sha1 PCRs 0-10, sha256 PCRs 0-10". */
void tpm_quote_selection(const struct tpm_quote *q, char *out, size_t size);

/* "rsassa-sha256" and the like: the signature's scheme and hash. */
const char *tpm_quote_scheme(const struct tpm_quote *q, char *out,
			     size_t size);

#endif
