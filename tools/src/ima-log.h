/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ima-log.h - IMA binary measurement lists, as Linux 6.12 writes them in
 * securityfs: binary_runtime_measurements (a link to the SHA-1 bank) and
 * binary_runtime_measurements_<algo> (one file per PCR bank).
 *
 * An entry is
 *   u32 pcr | template hash (the bank's digest size) | u32 name length |
 *   template name | [u32 data length] | template data
 * where the data length is absent for the "ima" template, whose data is a
 * 20-byte digest followed by u32 length + file name (no NUL).  Every other
 * template's data is a sequence of fields, each u32 length + bytes.
 *
 * Integers are little endian: what an x86 kernel writes, and what any
 * kernel booted with ima_canonical_fmt writes.  A big-endian log written
 * without ima_canonical_fmt is refused (its PCR index is out of range).
 *
 * The parser keeps pointers into the caller's buffer; nothing is copied.
 */
#ifndef MODHASH_IMA_LOG_H
#define MODHASH_IMA_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

/* The kernel's limits: PCR indexes fit IMA's measured_pcrs bitmap. */
#define IMA_LOG_MAX_PCR		63
#define IMA_LOG_MAX_NAME	255	/* IMA_EVENT_NAME_LEN_MAX: "ima" only */
#define IMA_LOG_MAX_PATH	4096	/* PATH_MAX: n-ng names are whole */
#define IMA_LOG_MAX_TEMPLATE	255
#define IMA_LOG_MAX_FIELDS	15	/* IMA_TEMPLATE_NUM_FIELDS_MAX */
#define IMA_LOG_MAX_DIGEST	64
#define IMA_LOG_DIGEST_ALGO	32	/* room for an algorithm's name */
#define IMA_LOG_DIGEST_TYPE	8	/* d-ngv2: "ima" or "verity" */

struct ima_log_bytes {
	const unsigned char *data;
	size_t len;
};

struct ima_log_entry {
	size_t index;			/* 0 for the first entry */
	size_t offset;			/* of the entry's first byte */
	size_t size;			/* of the whole entry */
	uint32_t pcr;
	struct ima_log_bytes template_hash;	/* the bank's digest size */
	char template_name[IMA_LOG_MAX_TEMPLATE + 1];
	/*
	 * What the template hash covers: for the "ima" template, the 20-byte
	 * digest and the name (the hash pads the name to 256 bytes, see
	 * ima_log_template_digest); for the others, the bytes after the data
	 * length.
	 */
	struct ima_log_bytes template_data;
	bool violation;			/* the template hash is all zero */
	bool decoded;			/* the fields below were found */

	/* d, d-ng, d-ngv2: "algo" (empty for "ima") and the digest. */
	char digest_algo[IMA_LOG_DIGEST_ALGO];
	char digest_type[IMA_LOG_DIGEST_TYPE];	/* d-ngv2 */
	struct ima_log_bytes digest;
	/* n, n-ng: the event name (a path, a critical-data name). */
	char name[IMA_LOG_MAX_PATH + 1];
	struct ima_log_bytes sig;	/* sig: empty if none */
	struct ima_log_bytes buf;	/* buf: the measured buffer */
	struct ima_log_bytes modsig;	/* modsig: the PKCS#7 signature */
	/*
	 * d-modsig: the digest the appended signature signs (that of the
	 * module without its signature, with the signature's algorithm);
	 * empty when the module has no appended signature.
	 */
	char modsig_algo[IMA_LOG_DIGEST_ALGO];
	struct ima_log_bytes modsig_digest;
};

/* Where and why a list is malformed. */
struct ima_log_error {
	size_t index;		/* of the malformed entry */
	size_t entry_offset;	/* where that entry starts */
	size_t offset;		/* the byte at fault */
	const char *why;
};

struct ima_log {
	const unsigned char *data;
	size_t len;
	size_t hash_size;	/* template hash width of this bank */
	size_t pos;
	size_t index;
};

/*
 * The template hash width of a bank: from its algorithm name ("sha1",
 * "sha256", ...), 0 if unknown.
 */
size_t ima_log_bank_size(const char *algo);

/*
 * The PCR bank whose template hashes the binary list LOG of LEN bytes
 * carries, told from its entries, never from a file name: the first
 * entry that is not a violation is read with the template hash width of
 * each of sha1, sha256, sha384 and sha512 in turn, and the bank whose
 * algorithm gives that template hash over the entry's data is the one.
 * Returns its name, or NULL with *WHY.
 */
const char *ima_log_detect_bank(const unsigned char *log, size_t len,
				const char **why);

/*
 * The fields of template NAME as IMA names them ("d-ng|n-ng|sig"): a
 * built-in template of 6.12 ("d|n" for "ima"), a custom format given as
 * the name itself, or NULL if unknown.
 */
const char *ima_log_template_fields(const char *name);

void ima_log_init(struct ima_log *log, const unsigned char *data, size_t len,
		  size_t hash_size);

/*
 * Parse the next entry into E.  Returns 1 with an entry, 0 at the end of
 * the list, -1 if the entry at log->pos is malformed, with ERR filled.
 * The log cannot be continued after an error.
 */
int ima_log_next(struct ima_log *log, struct ima_log_entry *e,
		 struct ima_log_error *err);

/*
 * The template hash of E recomputed with MD (the bank's algorithm) into
 * OUT.  Returns the digest size, or 0 on failure.
 */
size_t ima_log_template_digest(const struct ima_log_entry *e,
			       const EVP_MD *md, unsigned char *out);

#endif
