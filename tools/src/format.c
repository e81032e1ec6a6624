// SPDX-License-Identifier: GPL-2.0
/* format.c - parse, validate and search the built-in module allowlist. */
#include <stdlib.h>
#include <string.h>

#include <linux/hash_info.h>
#include <linux/module_hashes.h>

#include "format.h"

static const struct {
	unsigned int algo;
	const char *name;
	const char *evp_name;
	unsigned int size;
} algos[] = {
	{ HASH_ALGO_SHA1, "sha1", "SHA1", 20 },
	{ HASH_ALGO_SHA256, "sha256", "SHA256", 32 },
	{ HASH_ALGO_SHA384, "sha384", "SHA384", 48 },
	{ HASH_ALGO_SHA512, "sha512", "SHA512", 64 },
	{ HASH_ALGO_SHA224, "sha224", "SHA224", 28 },
};

#define N_ALGOS (sizeof(algos) / sizeof(algos[0]))

const char *hash_algo_name(unsigned int algo)
{
	size_t i;

	for (i = 0; i < N_ALGOS; i++)
		if (algos[i].algo == algo)
			return algos[i].name;
	return NULL;
}

int hash_algo_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < N_ALGOS; i++)
		if (strcmp(algos[i].name, name) == 0)
			return (int)algos[i].algo;
	return -1;
}

const EVP_MD *hash_algo_md(unsigned int algo)
{
	size_t i;

	for (i = 0; i < N_ALGOS; i++)
		if (algos[i].algo == algo)
			return EVP_get_digestbyname(algos[i].evp_name);
	return NULL;
}

unsigned int hash_algo_size(unsigned int algo)
{
	size_t i;

	for (i = 0; i < N_ALGOS; i++)
		if (algos[i].algo == algo)
			return algos[i].size;
	return 0;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define HDR_FIELD(f) offsetof(struct module_hashes_header, f)

const char *allowlist_parse(const unsigned char *blob, size_t len,
			    struct allowlist *al, size_t *offset)
{
	unsigned int algo, digest_size;
	uint32_t count, i;
	const unsigned char *digests = blob + sizeof(struct module_hashes_header);

	memset(al, 0, sizeof(*al));
	*offset = 0;
	if (len < sizeof(struct module_hashes_header)) {
		*offset = len;
		return "truncated header";
	}
	if (memcmp(blob, MODULE_HASHES_MAGIC, MODULE_HASHES_MAGIC_LEN))
		return "bad magic";
	*offset = HDR_FIELD(version);
	if (le16(blob + HDR_FIELD(version)) != MODULE_HASHES_VERSION)
		return "unknown version";
	*offset = HDR_FIELD(hash_algo);
	algo = le16(blob + HDR_FIELD(hash_algo));
	if (algo != HASH_ALGO_SHA256 && algo != HASH_ALGO_SHA384 &&
	    algo != HASH_ALGO_SHA512)
		return "unsupported hash algorithm";
	*offset = HDR_FIELD(digest_size);
	digest_size = le16(blob + HDR_FIELD(digest_size));
	if (digest_size != hash_algo_size(algo))
		return "digest size does not match the algorithm";
	*offset = HDR_FIELD(reserved);
	if (le16(blob + HDR_FIELD(reserved)))
		return "reserved field not zero";
	*offset = HDR_FIELD(count);
	count = le32(blob + HDR_FIELD(count));
	if (len != module_hashes_size(count, (uint16_t)digest_size)) {
		*offset = len;
		return "size does not match the digest count";
	}
	for (i = 1; i < count; i++) {
		int order = memcmp(digests + (size_t)(i - 1) * digest_size,
				   digests + (size_t)i * digest_size,
				   digest_size);

		*offset = sizeof(struct module_hashes_header) +
			  (size_t)i * digest_size;
		if (order == 0)
			return "duplicate digest";
		if (order > 0)
			return "digests not sorted";
	}
	*offset = 0;
	al->algo = algo;
	al->digest_size = digest_size;
	al->count = count;
	al->digests = digests;
	al->blob = blob;
	al->blob_len = len;
	return NULL;
}

static size_t cmp_size;

static int digest_cmp(const void *a, const void *b)
{
	return memcmp(a, b, cmp_size);
}

bool allowlist_contains(const struct allowlist *al,
			const unsigned char *digest)
{
	cmp_size = al->digest_size;
	return al->count &&
	       bsearch(digest, al->digests, al->count, al->digest_size,
		       digest_cmp);
}

size_t digests_sort_unique(unsigned char *digests, size_t count,
			   unsigned int size)
{
	size_t i, kept = 0;

	if (!count)
		return 0;
	cmp_size = size;
	qsort(digests, count, size, digest_cmp);
	for (i = 1; i < count; i++) {
		if (!memcmp(digests + kept * size, digests + i * size, size))
			continue;
		kept++;
		if (kept != i)
			memcpy(digests + kept * size, digests + i * size, size);
	}
	return kept + 1;
}

void allowlist_free(struct allowlist *al)
{
	free(al->owned);
	memset(al, 0, sizeof(*al));
}

static void put_le16(unsigned char *p, unsigned int v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

const char *allowlist_build(unsigned int algo, const unsigned char *digests,
			    uint32_t count, struct allowlist *al)
{
	unsigned int size = hash_algo_size(algo);
	size_t hdr = sizeof(struct module_hashes_header);
	size_t total = module_hashes_size(count, (uint16_t)size);
	unsigned char *blob;
	const char *why;
	size_t offset;

	memset(al, 0, sizeof(*al));
	if (!size)
		return "unsupported hash algorithm";
	blob = calloc(1, total);
	if (!blob)
		return "out of memory";
	memcpy(blob, MODULE_HASHES_MAGIC, MODULE_HASHES_MAGIC_LEN);
	put_le16(blob + HDR_FIELD(version), MODULE_HASHES_VERSION);
	put_le16(blob + HDR_FIELD(hash_algo), algo);
	put_le16(blob + HDR_FIELD(digest_size), size);
	blob[HDR_FIELD(count)] = count & 0xff;
	blob[HDR_FIELD(count) + 1] = (count >> 8) & 0xff;
	blob[HDR_FIELD(count) + 2] = (count >> 16) & 0xff;
	blob[HDR_FIELD(count) + 3] = (count >> 24) & 0xff;
	/* An empty list is valid (a build without modules) and may come
	 * with no array at all.
	 */
	if (count)
		memcpy(blob + hdr, digests, (size_t)count * size);
	cmp_size = size;
	qsort(blob + hdr, count, size, digest_cmp);
	why = allowlist_parse(blob, total, al, &offset);
	if (why) {
		free(blob);
		return why;
	}
	al->owned = blob;
	return NULL;
}

int allowlist_digest(const struct allowlist *al, const void *buf,
		     size_t len, unsigned char *out)
{
	const EVP_MD *md = hash_algo_md(al->algo);
	unsigned int n = 0;

	if (!md || !EVP_Digest(buf, len, out, &n, md, NULL) ||
	    n != al->digest_size)
		return -1;
	return 0;
}
