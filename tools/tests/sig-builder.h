/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sig-builder.h - signers for the tests, made at test time: an RSA key
 * and its self-signed certificate, an appended module signature as
 * scripts/sign-file makes it (PKCS#7, detached, no signed attributes,
 * no certificates) and a security.ima signature as evmctl ima_sign makes
 * it (libimaevm's sign_hash, format version 2).
 */
#ifndef MODHASH_TEST_SIG_BUILDER_H
#define MODHASH_TEST_SIG_BUILDER_H

#include <stdio.h>
#include <string.h>

#include <imaevm.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

struct signer {
	EVP_PKEY *key;
	X509 *cert;
	char key_path[256], cert_path[256];
};

/* A 2048-bit RSA key and a certificate for CN, written below DIR. */
static inline int signer_make(struct signer *s, const char *dir,
			      const char *cn)
{
	X509_NAME *name;
	FILE *fp;
	int ok;

	s->key = EVP_RSA_gen(2048);
	s->cert = X509_new();
	if (!s->key || !s->cert)
		return -1;
	X509_set_version(s->cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(s->cert), 1);
	X509_gmtime_adj(X509_getm_notBefore(s->cert), 0);
	X509_gmtime_adj(X509_getm_notAfter(s->cert), 3600);
	X509_set_pubkey(s->cert, s->key);
	name = X509_get_subject_name(s->cert);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(s->cert, name);
	if (!X509_sign(s->cert, s->key, EVP_sha256()))
		return -1;
	snprintf(s->key_path, sizeof(s->key_path), "%s/%s.key", dir, cn);
	snprintf(s->cert_path, sizeof(s->cert_path), "%s/%s.pem", dir, cn);
	fp = fopen(s->key_path, "w");
	ok = fp && PEM_write_PrivateKey(fp, s->key, NULL, NULL, 0, NULL, NULL);
	if (fp)
		fclose(fp);
	fp = fopen(s->cert_path, "w");
	ok = ok && fp && PEM_write_X509(fp, s->cert);
	if (fp)
		fclose(fp);
	return ok ? 0 : -1;
}

static inline void signer_free(struct signer *s)
{
	EVP_PKEY_free(s->key);
	X509_free(s->cert);
}

/* The PKCS#7 signature of LEN bytes of CONTENT, DER, into OUT; its size. */
static inline size_t signer_modsig(const struct signer *s, const void *content,
				   size_t len, unsigned char *out, size_t size)
{
	unsigned int flags = CMS_DETACHED | CMS_BINARY | CMS_NOATTR |
			     CMS_NOCERTS | CMS_NOSMIMECAP;
	BIO *bio = BIO_new_mem_buf(content, (int)len);
	CMS_ContentInfo *cms = CMS_sign(s->cert, s->key, NULL, bio, flags);
	unsigned char *der = NULL;
	int n = cms ? i2d_CMS_ContentInfo(cms, &der) : -1;

	BIO_free(bio);
	CMS_ContentInfo_free(cms);
	if (n <= 0 || (size_t)n > size) {
		OPENSSL_free(der);
		return 0;
	}
	memcpy(out, der, (size_t)n);
	OPENSSL_free(der);
	return (size_t)n;
}

/* security.ima (type byte and v2 signature) over DIGEST (sha256); size. */
static inline size_t signer_imasig(const struct signer *s,
				   const unsigned char *digest,
				   unsigned char *out)
{
	int n;

	imaevm_params.x509 = 1;
	imaevm_params.verbose = LOG_EMERG;
	n = sign_hash("sha256", digest, 32, s->key_path, NULL, out + 1);
	if (n <= 0)
		return 0;
	out[0] = 0x03;
	return (size_t)n + 1;
}

#endif
