/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcr-replay.h - replay IMA measurements into a PCR the way Linux 6.12
 * extends the TPM: PCR := H(PCR || template hash) in each bank, with the
 * bank's own template hash (the per-bank measurement list file holds it:
 * the SHA-1 file for the sha1 bank, binary_runtime_measurements_sha256 for
 * the sha256 bank).  A violation is logged with an all-zero template hash
 * and extended as all 0xff bytes.  PCRs start at all zero.
 */
#ifndef MODHASH_PCR_REPLAY_H
#define MODHASH_PCR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/evp.h>

#include "ima-log.h"

struct pcr_replay {
	const EVP_MD *md;
	size_t size;
	unsigned int pcr;		/* the PCR replayed, usually 10 */
	unsigned char value[IMA_LOG_MAX_DIGEST];
	size_t extends;			/* entries extended so far */
};

/* Start replaying PCR of BANK ("sha256").  0, or -1 if BANK is unknown. */
int pcr_replay_init(struct pcr_replay *r, const char *bank, unsigned int pcr);

/*
 * Extend with E if it belongs to the replayed PCR.  Returns 1 if it was
 * extended, 0 if E is for another PCR, -1 if E's template hash is not of
 * the bank's size or the digest failed.
 */
int pcr_replay_extend(struct pcr_replay *r, const struct ima_log_entry *e);

/* Does the running value equal EXPECTED (of r->size bytes)? */
bool pcr_replay_matches(const struct pcr_replay *r,
			const unsigned char *expected);

/*
 * Does E's template hash match its template data, hashed with the bank's
 * algorithm?  Violations (all-zero hash) match by definition.
 */
bool pcr_replay_template_ok(const struct pcr_replay *r,
			    const struct ima_log_entry *e);

/*
 * Replay a whole measurement list LOG of LEN bytes.  With EXPECTED, stop
 * at the first entry after which the PCR equals it: *MATCHED is then true
 * and *ENTRIES the number of entries read up to and including that one
 * (any PCR).  Without EXPECTED or without a match, *ENTRIES counts all
 * entries.  Returns 0, or -1 on a malformed entry with ERR filled.
 */
int pcr_replay_log(struct pcr_replay *r, const unsigned char *log,
		   size_t len, const unsigned char *expected, bool *matched,
		   size_t *entries, struct ima_log_error *err);

#endif
