// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-tpm-quote.c - libFuzzer target: the TPM quote reader and verifier
 * (tpm-quote.c).  The input is the quote, its signature and the AK, each
 * preceded by its size (2 bytes, big-endian), then the PCR values to the
 * end (tools/tests/capture-quotes.sh corpus writes the seeds so).  The
 * quote's own extraData stands for the nonce, so that a quote that reads
 * goes on to the signature, the nonce and the PCR values.
 */
#include <stddef.h>
#include <stdint.h>

#include "tpm-quote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next part: its size first.  NULL when the input ends before it. */
static const uint8_t *part(const uint8_t **p, const uint8_t *end, size_t *len)
{
	const uint8_t *start;

	if (end - *p < 2)
		return NULL;
	*len = (size_t)((*p)[0] << 8 | (*p)[1]);
	start = *p + 2;
	if ((size_t)(end - start) < *len)
		return NULL;
	*p = start + *len;
	return start;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *msg, *sig, *pub;
	size_t msg_len, sig_len, pub_len, off, len;
	char why[TPM_QUOTE_WHY] = "", text[128];
	struct tpm_quote q;
	struct tpm_ak ak;
	int rc;

	msg = part(&p, end, &msg_len);
	sig = msg ? part(&p, end, &sig_len) : NULL;
	pub = sig ? part(&p, end, &pub_len) : NULL;
	if (!pub)
		return 0;
	rc = tpm_quote_read(msg, msg_len, sig, sig_len, &q, why);
	if (rc && !why[0])
		__builtin_trap();
	tpm_ak_read(pub, pub_len, &ak, why);
	if (rc)
		return 0;
	tpm_quote_selection(&q, text, sizeof(text));
	tpm_quote_scheme(&q, text, sizeof(text));
	if (q.signed_bytes < msg || q.signed_bytes + q.signed_len > msg + msg_len)
		__builtin_trap();
	rc = tpm_quote_check_pcrs(&q, p, (size_t)(end - p), why);
	if (!rc && (tpm_quote_pcr(&q, "sha256", 10, &off, &len) == 0) &&
	    off + len > (size_t)(end - p))
		__builtin_trap();
	why[0] = '\0';
	if (tpm_ak_read(pub, pub_len, &ak, why) == 0 &&
	    tpm_quote_verify(&q, &ak, ak.name, ak.name_len,
			     q.attest.extraData.buffer, q.attest.extraData.size,
			     why) && !why[0])
		__builtin_trap();
	return 0;
}
