/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export-policy.h - reference values for attestation: sha256sum-style
 * lines and a Keylime runtime policy (format version 1: meta, release,
 * digests, excludes, keyrings, ima, ima-buf, verification-keys).
 */
#ifndef MODHASH_EXPORT_POLICY_H
#define MODHASH_EXPORT_POLICY_H

#include <stdio.h>

#include <json-c/json.h>

#include "format.h"

/* The name IMA gives the allowlist's critical-data measurement. */
#define ALLOWLIST_EVENT_NAME "module-allowlist"

struct export_entry {
	char *path;	/* as IMA logs it: /lib/modules/RELEASE/... */
	unsigned char digest[ALLOWLIST_MAX_DIGEST];	/* of the file */
};

/*
 * The digest IMA's ima-buf entry for the list carries (its template's
 * d-ng field, which a Keylime ima-buf rule matches): the kernel measures
 * the list with hash=true, so the event data is H(list) and the entry's
 * digest H(H(list)), H being IMA's hash algorithm ALGO.  0 or -1.
 */
int allowlist_event_digest(const struct allowlist *al, unsigned int algo,
			   unsigned char *out);

/* "hex  path" lines, what sha256sum -c and keylime-policy take. */
void export_sha256sum(FILE *fp, const struct export_entry *v, size_t n,
		      unsigned int algo);

/*
 * The Keylime runtime policy of N modules whose files IMA hashes with
 * ALGO, and the allowlist's measurement EVENT_DIGEST.
 */
json_object *export_keylime(const struct export_entry *v, size_t n,
			    unsigned int algo,
			    const unsigned char *event_digest);

#endif
