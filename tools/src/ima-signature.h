/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ima-signature.h - check the signatures an IMA measurement list carries
 * against certificates the verifier trusts:
 *  - ima-sig's "sig" field: the file's security.ima, a signature of
 *    format version 2 over the file's digest (the d-ng field), checked by
 *    libimaevm (ima_verify_signature), which finds the key by its 4-byte
 *    key id;
 *  - ima-modsig's "modsig" field: the module's appended PKCS#7 signature
 *    (scripts/sign-file), read with OpenSSL's CMS functions; the kernel
 *    logs in "d-modsig" the digest that signature signs (that of the
 *    module without its signature, or of the signed attributes when there
 *    are any: pkcs7_get_digest()), so the signer's key verifies the
 *    signature over that digest with EVP_PKEY_verify.
 * A verified signature only says who signed; whether that signer is
 * trusted is the verifier's choice of certificates.
 */
#ifndef MODHASH_IMA_SIGNATURE_H
#define MODHASH_IMA_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>

#include "ima-log.h"

/* An IMA key id: the last 4 bytes of SHA-1 of the public key, as hex. */
#define SIG_KEYID_HEX	9

struct sig_cert {
	X509 *cert;
	char keyid[SIG_KEYID_HEX];
	char subject[160];
};

struct sig_keys {
	struct sig_cert *v;
	size_t n;
	bool imaevm_loaded;	/* libimaevm has the keys (ima-sig) */
};

/*
 * Add the certificates of PATH: one DER certificate, several DER
 * certificates one after the other (the kernel's built-in
 * certs/x509_certificate_list), or a PEM bundle.  0, or -1 after
 * fail_at() naming PATH and the reason.
 */
int sig_keys_add_file(struct sig_keys *k, const char *path);

void sig_keys_free(struct sig_keys *k);

/* What a signature check found. */
struct sig_result {
	bool verified;
	char keyid[SIG_KEYID_HEX];	/* the signer's, if known */
	const char *subject;		/* of the certificate that verified */
	const char *why;		/* not verified: why */
};

/*
 * The security.ima value SIG (an ima-sig "sig" field) over the file's
 * DIGEST of ALGO.
 */
void sig_check_ima(struct sig_keys *k, const struct ima_log_bytes *sig,
		   const char *algo, const struct ima_log_bytes *digest,
		   struct sig_result *r);

/*
 * The appended signature MODSIG (raw PKCS#7) over the d-modsig DIGEST
 * of ALGO.
 */
void sig_check_modsig(const struct sig_keys *k,
		      const struct ima_log_bytes *modsig, const char *algo,
		      const struct ima_log_bytes *digest, struct sig_result *r);

#endif
