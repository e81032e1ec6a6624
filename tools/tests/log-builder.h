/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log-builder.h - build IMA binary measurement lists in memory for the
 * tests, entry by entry, as a 6.12 x86 kernel writes them (little endian;
 * template hash = the bank's digest of the template data; all zero for a
 * violation).
 */
#ifndef MODHASH_TEST_LOG_BUILDER_H
#define MODHASH_TEST_LOG_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <openssl/evp.h>

struct blob {
	unsigned char data[16384];
	size_t len;
};

static inline void blob_put(struct blob *b, const void *p, size_t n)
{
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static inline void blob_u32(struct blob *b, uint32_t v)
{
	unsigned char le[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
				v >> 24 };

	blob_put(b, le, 4);
}

/* A template field: u32 length and the bytes. */
static inline void field(struct blob *t, const void *p, size_t n)
{
	blob_u32(t, (uint32_t)n);
	blob_put(t, p, n);
}

/* d-ng: "algo:" NUL digest. */
static inline void field_dng(struct blob *t, const char *algo,
			     const unsigned char *digest, size_t n)
{
	struct blob f = { .len = 0 };

	blob_put(&f, algo, strlen(algo));
	blob_put(&f, ":", 2);
	blob_put(&f, digest, n);
	field(t, f.data, f.len);
}

/* n-ng: the name with its NUL. */
static inline void field_name(struct blob *t, const char *name)
{
	field(t, name, strlen(name) + 1);
}

static inline size_t hash_of(const char *bank, const void *p, size_t n,
			     unsigned char *out)
{
	unsigned int len = 0;

	EVP_Digest(p, n, out, &len, EVP_get_digestbyname(bank), NULL);
	return len;
}

/*
 * Append an entry of template TNAME with template data T to LOG for
 * BANK.  Returns the entry's offset.
 */
static inline size_t log_add(struct blob *log, const char *bank, uint32_t pcr,
			     const char *tname, const struct blob *t,
			     bool violation)
{
	unsigned char hash[EVP_MAX_MD_SIZE];
	size_t size = hash_of(bank, t->data, t->len, hash), at = log->len;

	if (violation)
		memset(hash, 0, size);
	blob_u32(log, pcr);
	blob_put(log, hash, size);
	blob_u32(log, (uint32_t)strlen(tname));
	blob_put(log, tname, strlen(tname));
	blob_u32(log, (uint32_t)t->len);
	blob_put(log, t->data, t->len);
	return at;
}

/* An ima-ng entry in PCR for a file NAME with a DIGEST of ALGO. */
static inline size_t log_add_file(struct blob *log, const char *bank,
				  uint32_t pcr, const char *name,
				  const char *algo, const unsigned char *digest,
				  size_t n, bool violation)
{
	struct blob t = { .len = 0 };

	field_dng(&t, algo, digest, n);
	field_name(&t, name);
	return log_add(log, bank, pcr, "ima-ng", &t, violation);
}

/* The same in PCR 10, not a violation. */
static inline size_t log_add_ng(struct blob *log, const char *bank,
				const char *name, const char *algo,
				const unsigned char *digest, size_t n)
{
	return log_add_file(log, bank, 10, name, algo, digest, n, false);
}

/* The "ima" template: SHA-1 digest, u32 length, name without NUL. */
static inline size_t log_add_ima(struct blob *log, const char *bank,
				 const unsigned char digest[20],
				 const char *name)
{
	unsigned char padded[256] = { 0 }, hash[EVP_MAX_MD_SIZE];
	size_t at = log->len, size;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int n = 0;

	memcpy(padded, name, strlen(name));
	EVP_DigestInit_ex(ctx, EVP_get_digestbyname(bank), NULL);
	EVP_DigestUpdate(ctx, digest, 20);
	EVP_DigestUpdate(ctx, padded, sizeof(padded));
	EVP_DigestFinal_ex(ctx, hash, &n);
	EVP_MD_CTX_free(ctx);
	size = n;
	blob_u32(log, 10);
	blob_put(log, hash, size);
	blob_u32(log, 3);
	blob_put(log, "ima", 3);
	blob_put(log, digest, 20);
	blob_u32(log, (uint32_t)strlen(name));
	blob_put(log, name, strlen(name));
	return at;
}

#endif
