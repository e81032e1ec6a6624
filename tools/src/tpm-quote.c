// SPDX-License-Identifier: GPL-2.0
/*
 * tpm-quote.c - read a TPM 2.0 quote with libtss2-mu and verify it with
 * OpenSSL (tpm-quote.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <tss2/tss2_mu.h>

#include "format.h"
#include "tpm-quote.h"

static int say(char why[TPM_QUOTE_WHY], int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char why[TPM_QUOTE_WHY], int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, TPM_QUOTE_WHY, fmt, ap);
	va_end(ap);
	return rc;
}

/* The TPM's hash algorithms, by the names the rest of modhash uses. */
static const struct {
	TPM2_ALG_ID alg;
	const char *name;
} tpm_hashes[] = {
	{ TPM2_ALG_SHA1, "sha1" },
	{ TPM2_ALG_SHA256, "sha256" },
	{ TPM2_ALG_SHA384, "sha384" },
	{ TPM2_ALG_SHA512, "sha512" },
};

static const char *hash_name(TPM2_ALG_ID alg)
{
	size_t i;

	for (i = 0; i < sizeof(tpm_hashes) / sizeof(tpm_hashes[0]); i++)
		if (tpm_hashes[i].alg == alg)
			return tpm_hashes[i].name;
	return NULL;
}

/* The OpenSSL digest of a TPM hash algorithm, NULL if unknown. */
static const EVP_MD *hash_md(TPM2_ALG_ID alg)
{
	const char *name = hash_name(alg);
	int algo = name ? hash_algo_by_name(name) : -1;

	return algo < 0 ? NULL : hash_algo_md((unsigned int)algo);
}

static size_t hash_size(TPM2_ALG_ID alg)
{
	const EVP_MD *md = hash_md(alg);

	return md ? (size_t)EVP_MD_get_size(md) : 0;
}

/* libtss2-mu's refusal, in words. */
static const char *mu_reason(TSS2_RC rc)
{
	switch (rc) {
	case TSS2_MU_RC_INSUFFICIENT_BUFFER:
		return "truncated";
	case TSS2_MU_RC_BAD_SIZE:
		return "a size field larger than its buffer";
	case TSS2_MU_RC_BAD_VALUE:
		return "a field with a value the structure does not allow";
	default:
		return "not a marshalled structure";
	}
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The hash of the signature, whatever its scheme. */
static TPMI_ALG_HASH sig_hash(const TPMT_SIGNATURE *sig)
{
	switch (sig->sigAlg) {
	case TPM2_ALG_RSASSA:
		return sig->signature.rsassa.hash;
	case TPM2_ALG_RSAPSS:
		return sig->signature.rsapss.hash;
	case TPM2_ALG_ECDSA:
		return sig->signature.ecdsa.hash;
	default:
		return TPM2_ALG_NULL;
	}
}

static const char *scheme_name(TPM2_ALG_ID alg)
{
	switch (alg) {
	case TPM2_ALG_RSASSA:
		return "rsassa";
	case TPM2_ALG_RSAPSS:
		return "rsapss";
	case TPM2_ALG_ECDSA:
		return "ecdsa";
	default:
		return NULL;
	}
}

static int read_attest(const unsigned char *msg, size_t len,
		       struct tpm_quote *q, char why[TPM_QUOTE_WHY])
{
	size_t off = 0;
	TSS2_RC rc;

	/* A TPM2B_ATTEST: its size, then the TPMS_ATTEST. */
	if (len >= 6 && be32(msg) != TPM2_GENERATED_VALUE &&
	    be32(msg + 2) == TPM2_GENERATED_VALUE &&
	    (size_t)(msg[0] << 8 | msg[1]) == len - 2) {
		msg += 2;
		len -= 2;
	}
	if (len < 4)
		return say(why, -1, "truncated: %zu bytes, not even a TPMS_ATTEST's magic", len);
	if (be32(msg) != TPM2_GENERATED_VALUE)
		return say(why, -1, "not made by a TPM: magic 0x%08x, not TPM_GENERATED_VALUE (0x%08x)",
			   be32(msg), TPM2_GENERATED_VALUE);
	rc = Tss2_MU_TPMS_ATTEST_Unmarshal(msg, len, &off, &q->attest);
	if (rc)
		return say(why, -1, "not a TPMS_ATTEST: %s (libtss2-mu 0x%x)", mu_reason(rc), rc);
	if (off != len)
		return say(why, -1, "%zu bytes after the TPMS_ATTEST", len - off);
	if (q->attest.type != TPM2_ST_ATTEST_QUOTE)
		return say(why, -1, "not a quote: attestation type 0x%04x, not TPM_ST_ATTEST_QUOTE (0x%04x)",
			   q->attest.type, TPM2_ST_ATTEST_QUOTE);
	if (q->attest.attested.quote.pcrSelect.count > TPM2_NUM_PCR_BANKS)
		return say(why, -1, "the PCR selection has %u banks", q->attest.attested.quote.pcrSelect.count);
	q->signed_bytes = msg;
	q->signed_len = len;
	return 0;
}

static int read_signature(const unsigned char *sig, size_t len,
			  struct tpm_quote *q, char why[TPM_QUOTE_WHY])
{
	size_t off = 0;
	TSS2_RC rc;

	rc = Tss2_MU_TPMT_SIGNATURE_Unmarshal(sig, len, &off, &q->sig);
	if (rc)
		return say(why, -1, "not a TPMT_SIGNATURE: %s (libtss2-mu 0x%x)", mu_reason(rc), rc);
	if (off != len)
		return say(why, -1, "%zu bytes after the TPMT_SIGNATURE", len - off);
	if (!scheme_name(q->sig.sigAlg))
		return say(why, -1, "signature scheme 0x%04x: only RSASSA, RSAPSS and ECDSA are read",
			   q->sig.sigAlg);
	if (!hash_md(sig_hash(&q->sig)))
		return say(why, -1, "signature hash 0x%04x: only sha1, sha256, sha384 and sha512 are read",
			   sig_hash(&q->sig));
	return 0;
}

int tpm_quote_read(const unsigned char *msg, size_t msg_len,
		   const unsigned char *sig, size_t sig_len,
		   struct tpm_quote *q, char why[TPM_QUOTE_WHY])
{
	memset(q, 0, sizeof(*q));
	if (read_attest(msg, msg_len, q, why))
		return -1;
	if (read_signature(sig, sig_len, q, why))
		return -2;
	return 0;
}

int tpm_ak_read(const unsigned char *buf, size_t len, struct tpm_ak *ak,
		char why[TPM_QUOTE_WHY])
{
	TPM2B_PUBLIC pub = { 0 };
	const EVP_MD *md;
	unsigned int n = 0;
	size_t off = 0;
	TSS2_RC rc;

	memset(ak, 0, sizeof(*ak));
	if (len >= 10 && !memcmp(buf, "-----BEGIN", 10))
		return say(why, -1, "a PEM key has neither the key's TPM attributes nor its name: give its TPM2B_PUBLIC (tpm2_createak -u, format tss)");
	rc = Tss2_MU_TPM2B_PUBLIC_Unmarshal(buf, len, &off, &pub);
	if (rc)
		return say(why, -1, "not a TPM2B_PUBLIC: %s (libtss2-mu 0x%x)", mu_reason(rc), rc);
	if (off != len || pub.size != len - 2)
		return say(why, -1, "a TPM2B_PUBLIC of %u bytes in a file of %zu", pub.size, len);
	if (pub.publicArea.type != TPM2_ALG_RSA && pub.publicArea.type != TPM2_ALG_ECC)
		return say(why, -1, "key type 0x%04x: an AK is an RSA or ECC key",
			   pub.publicArea.type);
	md = hash_md(pub.publicArea.nameAlg);
	if (!md)
		return say(why, -1, "name algorithm 0x%04x: only sha1, sha256, sha384 and sha512 are read",
			   pub.publicArea.nameAlg);
	/* The name: nameAlg, then its digest of the marshalled TPMT_PUBLIC. */
	ak->name[0] = (unsigned char)(pub.publicArea.nameAlg >> 8);
	ak->name[1] = (unsigned char)pub.publicArea.nameAlg;
	if (!EVP_Digest(buf + 2, len - 2, ak->name + 2, &n, md, NULL))
		return say(why, -1, "cannot hash the key for its name");
	ak->name_len = 2 + n;
	ak->pub = pub.publicArea;
	return 0;
}

/* The AK's public key for OpenSSL, NULL with WHY. */
static EVP_PKEY *ak_pkey(const TPMT_PUBLIC *p, char why[TPM_QUOTE_WHY])
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *n = NULL, *e = NULL;
	unsigned char point[1 + 2 * sizeof(p->unique.ecc.x.buffer)];
	const char *group = NULL;
	size_t coord = 0;

	if (!bld)
		goto out;
	if (p->type == TPM2_ALG_RSA) {
		uint32_t exponent = p->parameters.rsaDetail.exponent;

		n = BN_bin2bn(p->unique.rsa.buffer, p->unique.rsa.size, NULL);
		e = BN_new();
		if (!n || !e || !BN_set_word(e, exponent ? exponent : 65537) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
			goto out;
		ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	} else {
		switch (p->parameters.eccDetail.curveID) {
		case TPM2_ECC_NIST_P256: group = "prime256v1"; coord = 32; break;
		case TPM2_ECC_NIST_P384: group = "secp384r1"; coord = 48; break;
		case TPM2_ECC_NIST_P521: group = "secp521r1"; coord = 66; break;
		default:
			say(why, 1, "the AK's curve 0x%04x is not NIST P-256, P-384 or P-521",
			    p->parameters.eccDetail.curveID);
			goto out;
		}
		if (p->unique.ecc.x.size > coord || p->unique.ecc.y.size > coord) {
			say(why, 1, "the AK's public point is larger than its curve");
			goto out;
		}
		/* Uncompressed point: 04, then x and y, each left-padded. */
		memset(point, 0, sizeof(point));
		point[0] = 4;
		memcpy(point + 1 + coord - p->unique.ecc.x.size,
		       p->unique.ecc.x.buffer, p->unique.ecc.x.size);
		memcpy(point + 1 + 2 * coord - p->unique.ecc.y.size,
		       p->unique.ecc.y.buffer, p->unique.ecc.y.size);
		if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) ||
		    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * coord))
			goto out;
		ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	}
	params = OSSL_PARAM_BLD_to_param(bld);
	if (!ctx || !params || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
		pkey = NULL;
		say(why, 1, "OpenSSL refuses the AK's public key");
	}
out:
	if (!pkey && !why[0])
		say(why, -1, "out of memory");
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return pkey;
}

/* An ECDSA signature as OpenSSL verifies it: DER of (r, s).  Or NULL. */
static unsigned char *ecdsa_der(const TPMS_SIGNATURE_ECC *s, int *len)
{
	ECDSA_SIG *sig = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(s->signatureR.buffer, s->signatureR.size, NULL);
	BIGNUM *ss = BN_bin2bn(s->signatureS.buffer, s->signatureS.size, NULL);
	unsigned char *der = NULL;

	if (sig && r && ss && ECDSA_SIG_set0(sig, r, ss)) {
		r = ss = NULL;
		*len = i2d_ECDSA_SIG(sig, &der);
		if (*len <= 0)
			der = NULL;
	}
	BN_free(r);
	BN_free(ss);
	ECDSA_SIG_free(sig);
	return der;
}

/* Does Q's signature verify with AK?  0 yes, 1 no (WHY), -1 no memory. */
static int check_signature(const struct tpm_quote *q, const struct tpm_ak *ak,
			   char why[TPM_QUOTE_WHY])
{
	const TPMT_SIGNATURE *s = &q->sig;
	const EVP_MD *md = hash_md(sig_hash(s));
	EVP_MD_CTX *mdctx = NULL;
	EVP_PKEY_CTX *pctx = NULL;
	EVP_PKEY *pkey;
	unsigned char *der = NULL;
	const unsigned char *bytes;
	size_t len;
	int rc = -1, der_len = 0;
	bool rsa = s->sigAlg == TPM2_ALG_RSASSA || s->sigAlg == TPM2_ALG_RSAPSS;

	if (rsa != (ak->pub.type == TPM2_ALG_RSA))
		return say(why, 1, "a %s signature cannot come from the AK, an %s key",
			   scheme_name(s->sigAlg), ak->pub.type == TPM2_ALG_RSA ? "RSA" : "ECC");
	why[0] = '\0';
	pkey = ak_pkey(&ak->pub, why);
	if (!pkey)
		return why[0] ? 1 : -1;
	if (rsa) {
		bytes = s->signature.rsassa.sig.buffer;
		len = s->signature.rsassa.sig.size;
	} else {
		der = ecdsa_der(&s->signature.ecdsa, &der_len);
		if (!der)
			goto out;
		bytes = der;
		len = (size_t)der_len;
	}
	mdctx = EVP_MD_CTX_new();
	if (!mdctx || EVP_DigestVerifyInit(mdctx, &pctx, md, NULL, pkey) <= 0)
		goto out;
	if (s->sigAlg == TPM2_ALG_RSAPSS &&
	    (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) <= 0 ||
	     EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_AUTO) <= 0))
		goto out;
	if (EVP_DigestVerify(mdctx, bytes, len, q->signed_bytes, q->signed_len) == 1)
		rc = 0;
	else
		rc = say(why, 1, "the %s signature does not verify with the AK's public key (another key signed it, or the quote was changed)",
			 scheme_name(s->sigAlg));
out:
	if (rc < 0)
		say(why, -1, "OpenSSL cannot verify a signature (out of memory?)");
	ERR_clear_error();
	OPENSSL_free(der);
	EVP_MD_CTX_free(mdctx);
	EVP_PKEY_free(pkey);
	return rc;
}

int tpm_quote_verify(const struct tpm_quote *q, const struct tpm_ak *ak,
		     const unsigned char *ak_name, size_t ak_name_len,
		     const unsigned char *nonce, size_t nonce_len,
		     char why[TPM_QUOTE_WHY])
{
	const TPMA_OBJECT need = TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_SIGN_ENCRYPT |
				 TPMA_OBJECT_FIXEDTPM;
	const TPM2B_DATA *extra = &q->attest.extraData;
	TPMA_OBJECT attrs = ak->pub.objectAttributes;

	if ((attrs & need) != need || (attrs & TPMA_OBJECT_DECRYPT))
		return say(why, 1, "the AK (attributes 0x%08x) is not a restricted signing key fixed to its TPM: it could sign a forged quote",
			   attrs);
	if (ak_name && (ak_name_len != ak->name_len || memcmp(ak_name, ak->name, ak_name_len)))
		return say(why, 1, "the AK's name is not the one the credential was made for: the key is not the one its TPM activated");
	switch (check_signature(q, ak, why)) {
	case 0:
		break;
	case 1:
		return 1;
	default:
		return -1;
	}
	if (extra->size != nonce_len || memcmp(extra->buffer, nonce, nonce_len))
		return say(why, 1, "the quote's nonce (extraData, %u bytes) is not the one given: an old quote replayed, or another verifier's",
			   extra->size);
	return 0;
}

/* Calls FN for each selected PCR, in the order of the quote's digest. */
static int each_pcr(const struct tpm_quote *q,
		    int (*fn)(void *arg, TPMI_ALG_HASH bank, unsigned int pcr, size_t size),
		    void *arg)
{
	const TPML_PCR_SELECTION *sel = &q->attest.attested.quote.pcrSelect;
	unsigned int b, i, n;
	int rc;

	for (b = 0; b < sel->count && b < TPM2_NUM_PCR_BANKS; b++) {
		const TPMS_PCR_SELECTION *s = &sel->pcrSelections[b];
		size_t size = hash_size(s->hash);

		n = s->sizeofSelect < TPM2_PCR_SELECT_MAX ? s->sizeofSelect : TPM2_PCR_SELECT_MAX;
		for (i = 0; i < 8 * n; i++) {
			if (!(s->pcrSelect[i / 8] & (1u << (i % 8))))
				continue;
			rc = fn(arg, s->hash, i, size);
			if (rc)
				return rc;
		}
	}
	return 0;
}

struct pcr_walk {
	size_t total;
	TPMI_ALG_HASH unknown;
	/* For tpm_quote_pcr(): the one looked for, and where it is. */
	TPMI_ALG_HASH bank;
	unsigned int pcr;
	size_t offset, size;
};

static int add_pcr(void *arg, TPMI_ALG_HASH bank, unsigned int pcr, size_t size)
{
	struct pcr_walk *w = arg;

	if (!size) {
		w->unknown = bank;
		return -1;
	}
	if (bank == w->bank && pcr == w->pcr) {
		w->offset = w->total;
		w->size = size;
		return 1;
	}
	w->total += size;
	return 0;
}

int tpm_quote_check_pcrs(const struct tpm_quote *q,
			 const unsigned char *values, size_t len,
			 char why[TPM_QUOTE_WHY])
{
	struct pcr_walk w = { .bank = TPM2_ALG_NULL };
	const TPM2B_DIGEST *signed_digest = &q->attest.attested.quote.pcrDigest;
	const EVP_MD *md = hash_md(sig_hash(&q->sig));
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	char sel[128];

	if (each_pcr(q, add_pcr, &w))
		return say(why, -1, "the quote selects PCRs of bank 0x%04x, which this reader cannot hash",
			   w.unknown);
	tpm_quote_selection(q, sel, sizeof(sel));
	if (!w.total)
		return say(why, -1, "the quote selects no PCR");
	if (len != w.total)
		return say(why, -1, "%zu bytes of PCR values, but the quote's selection (%s) has %zu: not this quote's values",
			   len, sel, w.total);
	if (!md || !EVP_Digest(values, len, digest, &n, md, NULL))
		return say(why, -1, "cannot hash the PCR values");
	if (signed_digest->size != n || memcmp(signed_digest->buffer, digest, n))
		return say(why, 1, "the PCR values do not hash to the quote's signed digest: a value was changed");
	return 0;
}

int tpm_quote_pcr(const struct tpm_quote *q, const char *bank,
		  unsigned int pcr, size_t *offset, size_t *size)
{
	struct pcr_walk w = { .bank = TPM2_ALG_NULL, .pcr = pcr };
	size_t i;

	for (i = 0; i < sizeof(tpm_hashes) / sizeof(tpm_hashes[0]); i++)
		if (!strcmp(tpm_hashes[i].name, bank))
			w.bank = tpm_hashes[i].alg;
	if (w.bank == TPM2_ALG_NULL || each_pcr(q, add_pcr, &w) != 1)
		return -1;
	*offset = w.offset;
	*size = w.size;
	return 0;
}

void tpm_quote_selection(const struct tpm_quote *q, char *out, size_t size)
{
	const TPML_PCR_SELECTION *sel = &q->attest.attested.quote.pcrSelect;
	size_t used = 0;
	unsigned int b, i, n, first;

	out[0] = '\0';
	for (b = 0; b < sel->count && b < TPM2_NUM_PCR_BANKS && used < size; b++) {
		const TPMS_PCR_SELECTION *s = &sel->pcrSelections[b];
		const char *name = hash_name(s->hash);
		const char *sep = " ";

		n = 8 * (s->sizeofSelect < TPM2_PCR_SELECT_MAX ? s->sizeofSelect : TPM2_PCR_SELECT_MAX);
		if (name)
			used += (size_t)snprintf(out + used, size - used, "%s%s PCRs", b ? ", " : "", name);
		else
			used += (size_t)snprintf(out + used, size - used, "%sbank 0x%04x PCRs", b ? ", " : "", s->hash);
		for (i = 0; i < n && used < size; i++) {
			if (!(s->pcrSelect[i / 8] & (1u << (i % 8))))
				continue;
			first = i;
			while (i + 1 < n && (s->pcrSelect[(i + 1) / 8] & (1u << ((i + 1) % 8))))
				i++;
			if (used < size)
				used += (size_t)(first == i ?
					snprintf(out + used, size - used, "%s%u", sep, first) :
					snprintf(out + used, size - used, "%s%u-%u", sep, first, i));
			sep = ",";
		}
		if (!strcmp(sep, " ") && used < size)
			used += (size_t)snprintf(out + used, size - used, " none");
	}
}

const char *tpm_quote_scheme(const struct tpm_quote *q, char *out, size_t size)
{
	const char *scheme = scheme_name(q->sig.sigAlg);
	const char *hash = hash_name(sig_hash(&q->sig));

	snprintf(out, size, "%s-%s", scheme ? scheme : "unknown", hash ? hash : "unknown");
	return out;
}
