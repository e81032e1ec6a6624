// SPDX-License-Identifier: GPL-2.0
/* ima-signature.c - IMA and appended module signatures (ima-signature.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <imaevm.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "ima-signature.h"
#include "util.h"

/* The first byte of a security.ima value (the kernel's evm_ima_xattr_type). */
#define XATTR_DIGSIG		0x03	/* a signature, format in byte 1 */
#define XATTR_DIGEST_NG		0x04	/* a bare digest */
#define XATTR_VERITY_DIGSIG	0x06

static int add_cert(struct sig_keys *k, X509 *cert)
{
	struct sig_cert *more = realloc(k->v, (k->n + 1) * sizeof(*k->v));
	struct sig_cert *c;
	EVP_PKEY *key = X509_get0_pubkey(cert);
	uint32_t id;
	char str[32];

	if (!more || !key) {
		X509_free(cert);
		if (more)
			k->v = more;
		return -1;
	}
	k->v = more;
	c = &k->v[k->n++];
	memset(c, 0, sizeof(*c));
	c->cert = cert;
	/* libimaevm's own key id, so that both checks name keys alike. */
	calc_keyid_v2(&id, str, key);
	hex_encode((const unsigned char *)&id, 4, c->keyid);
	X509_NAME_oneline(X509_get_subject_name(cert), c->subject,
			  sizeof(c->subject));
	return 0;
}

int sig_keys_add_file(struct sig_keys *k, const char *path)
{
	const unsigned char *p;
	unsigned char *buf;
	size_t len, before = k->n;
	X509 *cert;
	BIO *bio;

	if (read_whole_file(path, &INPUT_TEXT, &buf, &len))
		return -1;
	if (memmem(buf, len, "-----BEGIN", 10)) {
		bio = BIO_new_mem_buf(buf, (int)len);
		while (bio && (cert = PEM_read_bio_X509(bio, NULL, NULL, NULL)))
			if (add_cert(k, cert))
				break;
		BIO_free(bio);
	} else {
		p = buf;
		while (p < buf + len &&
		       (cert = d2i_X509(NULL, &p, (long)(buf + len - p))))
			if (add_cert(k, cert))
				break;
		if (p != buf + len && k->n > before) {
			fail_at(path, "bytes after certificate %zu are no certificate",
				k->n - before);
			free(buf);
			return -1;
		}
	}
	ERR_clear_error();
	free(buf);
	if (k->n == before) {
		fail_at(path, "no X.509 certificate (DER, DER ones after another, or PEM)");
		return -1;
	}
	return 0;
}

void sig_keys_free(struct sig_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		X509_free(k->v[i].cert);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/*
 * Give libimaevm the certificates: it reads keys from files only, so
 * each goes, in DER, to a private temporary directory that is removed
 * once it has read them (init_public_keys reads them at once).
 */
static int load_imaevm(struct sig_keys *k)
{
	char dir[] = "/tmp/modhash-keys.XXXXXX", *list = NULL, *more;
	size_t i, used = 0;
	int ret = -1;

	if (k->imaevm_loaded)
		return 0;
	if (!mkdtemp(dir))
		return -1;
	for (i = 0; i < k->n; i++) {
		char path[sizeof(dir) + 32];
		FILE *fp;
		int ok;

		snprintf(path, sizeof(path), "%s/%zu.der", dir, i);
		fp = fopen(path, "wb");
		ok = fp && i2d_X509_fp(fp, k->v[i].cert);
		if (fp && fclose(fp))
			ok = 0;
		more = ok ? realloc(list, used + strlen(path) + 2) : NULL;
		if (!more)
			goto out;
		list = more;
		used += (size_t)sprintf(list + used, "%s%s", used ? "," : "", path);
	}
	imaevm_params.x509 = 1;
	if (list) {
		int verbose = imaevm_params.verbose;

		imaevm_params.verbose = LOG_EMERG;	/* it lists the keys */
		init_public_keys(list);
		imaevm_params.verbose = verbose;
	}
	k->imaevm_loaded = true;
	ret = 0;
out:
	for (i = 0; i < k->n; i++) {
		char path[sizeof(dir) + 32];

		snprintf(path, sizeof(path), "%s/%zu.der", dir, i);
		unlink(path);
	}
	rmdir(dir);
	free(list);
	return ret;
}

static const struct sig_cert *cert_by_keyid(const struct sig_keys *k,
					    const char *keyid)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].keyid, keyid))
			return &k->v[i];
	return NULL;
}

void sig_check_ima(struct sig_keys *k, const struct ima_log_bytes *sig,
		   const char *algo, const struct ima_log_bytes *digest,
		   struct sig_result *r)
{
	struct signature_v2_hdr hdr;
	const struct sig_cert *c;
	unsigned char *copy;
	int verbose, rc;

	memset(r, 0, sizeof(*r));
	if (sig->len && sig->data[0] == XATTR_DIGEST_NG) {
		r->why = "security.ima holds a digest, not a signature";
		return;
	}
	if (sig->len < 1 + sizeof(hdr) || (sig->data[0] != XATTR_DIGSIG &&
					   sig->data[0] != XATTR_VERITY_DIGSIG)) {
		r->why = "security.ima is no signature IMA knows";
		return;
	}
	memcpy(&hdr, sig->data + 1, sizeof(hdr));
	hex_encode((const unsigned char *)&hdr.keyid, 4, r->keyid);
	if (sig->data[0] != XATTR_DIGSIG || hdr.version != DIGSIG_VERSION_2) {
		r->why = "security.ima signature of a format other than version 2 (libimaevm 1.4 checks version 2 only)";
		return;
	}
	c = cert_by_keyid(k, r->keyid);
	if (!c) {
		r->why = k->n ? "security.ima signed by a key of no given certificate"
			      : "security.ima signature, and no certificate given (--cert)";
		return;
	}
	if (load_imaevm(k)) {
		r->why = "cannot hand the certificates to libimaevm";
		return;
	}
	copy = malloc(sig->len);
	if (!copy) {
		r->why = "out of memory";
		return;
	}
	memcpy(copy, sig->data, sig->len);
	imaevm_params.hash_algo = algo;
	verbose = imaevm_params.verbose;
	imaevm_params.verbose = LOG_EMERG;	/* the reason is ours to give */
	rc = ima_verify_signature("measurement list entry", copy, (int)sig->len,
				  (unsigned char *)digest->data,
				  (int)digest->len);
	imaevm_params.verbose = verbose;
	free(copy);
	if (rc) {
		r->why = "security.ima signature does not verify with its key";
		return;
	}
	r->verified = true;
	r->subject = c->subject;
}

/* The signature of SI over DIGEST with the key of C, as EVP verifies it. */
static bool modsig_verifies(CMS_SignerInfo *si, const struct sig_cert *c,
			    const EVP_MD *md, const struct ima_log_bytes *digest)
{
	ASN1_OCTET_STRING *sig = CMS_SignerInfo_get0_signature(si);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(X509_get0_pubkey(c->cert), NULL);
	bool ok;

	ok = ctx && sig && EVP_PKEY_verify_init(ctx) == 1 &&
	     EVP_PKEY_CTX_set_signature_md(ctx, md) == 1 &&
	     EVP_PKEY_verify(ctx, ASN1_STRING_get0_data(sig),
			     (size_t)ASN1_STRING_length(sig), digest->data,
			     digest->len) == 1;
	EVP_PKEY_CTX_free(ctx);
	return ok;
}

void sig_check_modsig(const struct sig_keys *k,
		      const struct ima_log_bytes *modsig, const char *algo,
		      const struct ima_log_bytes *digest, struct sig_result *r)
{
	const unsigned char *p = modsig->data;
	STACK_OF(CMS_SignerInfo) *signers;
	const EVP_MD *md = EVP_get_digestbyname(algo);
	CMS_ContentInfo *cms;
	CMS_SignerInfo *si;
	X509_ALGOR *dig = NULL;
	bool matched = false;
	size_t i;

	memset(r, 0, sizeof(*r));
	cms = d2i_CMS_ContentInfo(NULL, &p, (long)modsig->len);
	signers = cms ? CMS_get0_SignerInfos(cms) : NULL;
	if (!signers || sk_CMS_SignerInfo_num(signers) != 1) {
		r->why = "appended signature is not PKCS#7 with one signer (the kernel wants exactly one)";
		goto out;
	}
	si = sk_CMS_SignerInfo_value(signers, 0);
	CMS_SignerInfo_get0_algs(si, NULL, NULL, &dig, NULL);
	if (!md || !digest->len || (size_t)EVP_MD_get_size(md) != digest->len) {
		r->why = "appended signature without a usable d-modsig digest";
		goto out;
	}
	if (dig && OBJ_obj2nid(dig->algorithm) != EVP_MD_get_type(md)) {
		r->why = "d-modsig is not of the appended signature's digest algorithm";
		goto out;
	}
	for (i = 0; i < k->n; i++) {
		if (CMS_SignerInfo_cert_cmp(si, k->v[i].cert))
			continue;
		matched = true;
		snprintf(r->keyid, sizeof(r->keyid), "%s", k->v[i].keyid);
		if (modsig_verifies(si, &k->v[i], md, digest)) {
			r->verified = true;
			r->subject = k->v[i].subject;
			goto out;
		}
	}
	if (matched)
		r->why = "appended signature does not verify with its signer's certificate";
	else
		r->why = k->n ? "appended signature by a key of no given certificate"
			      : "appended signature, and no certificate given (--cert)";
out:
	CMS_ContentInfo_free(cms);
	ERR_clear_error();
}
