/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.h - the built-in module allowlist, as defined by the series'
 * <linux/module_hashes.h> (the only definition of the format; the build
 * copies it from the patched kernel tree).  Validation follows the
 * kernel's own: a list it would refuse is refused here with the reason.
 */
#ifndef MODHASH_FORMAT_H
#define MODHASH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

/* Large enough for any digest the format allows (SHA-512). */
#define ALLOWLIST_MAX_DIGEST	64

struct allowlist {
	unsigned int algo;		/* enum hash_algo, <linux/hash_info.h> */
	unsigned int digest_size;
	uint32_t count;
	const unsigned char *digests;	/* count * digest_size, sorted */
	const unsigned char *blob;	/* the whole list, header first */
	size_t blob_len;
	unsigned char *owned;		/* freed by allowlist_free(), or NULL */
};

/*
 * Check BLOB as the kernel does at boot and fill AL (pointing into BLOB).
 * Returns NULL if the list is valid, or why not, with *OFFSET set to the
 * byte offset of the problem.
 */
const char *allowlist_parse(const unsigned char *blob, size_t len,
			    struct allowlist *al, size_t *offset);

/* Is DIGEST (of al->digest_size bytes) on the list?  Binary search. */
bool allowlist_contains(const struct allowlist *al,
			const unsigned char *digest);

/* Free what AL owns (a list built by allowlist_build). */
void allowlist_free(struct allowlist *al);

/*
 * Build a valid list in memory from COUNT digests in any order (used for
 * the securityfs text form).  Returns NULL or why not (duplicates).
 */
const char *allowlist_build(unsigned int algo, const unsigned char *digests,
			    uint32_t count, struct allowlist *al);

/*
 * Sort COUNT digests of SIZE bytes in place in the list's order and drop
 * repeats, as a list holds each digest once.  Returns how many remain.
 */
size_t digests_sort_unique(unsigned char *digests, size_t count,
			   unsigned int size);

/* Kernel algorithm numbers and names ("sha256"), as in hash_info.h. */
const char *hash_algo_name(unsigned int algo);
int hash_algo_by_name(const char *name);	/* -1 if unknown */
const EVP_MD *hash_algo_md(unsigned int algo);	/* NULL if unsupported */
unsigned int hash_algo_size(unsigned int algo);	/* 0 if unknown */

/* Hash LEN bytes with the list's algorithm into OUT. 0 or -1. */
int allowlist_digest(const struct allowlist *al, const void *buf,
		     size_t len, unsigned char *out);

#endif
