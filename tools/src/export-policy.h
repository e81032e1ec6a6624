/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export-policy.h - reference values for attestation: sha256sum-style
 * lines and a Keylime runtime policy (format version 1: meta, release,
 * digests, excludes, keyrings, ima, ima-buf, verification-keys), made
 * alone or merged into a base policy.  The Keylime rules it follows are
 * in NOTES.md, "Keylime runtime policies".
 */
#ifndef MODHASH_EXPORT_POLICY_H
#define MODHASH_EXPORT_POLICY_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "format.h"

/* The name IMA gives the allowlist's critical-data measurement. */
#define ALLOWLIST_EVENT_NAME "module-allowlist"
/*
 * The name of the critical-data entry of an init_module() buffer (6.12's
 * ima_post_load_data(), policy rule "measure func=CRITICAL_DATA
 * label=modules").
 */
#define INIT_MODULE_EVENT_NAME "init_module"
/* The name of IMA's first entry. */
#define BOOT_AGGREGATE_NAME "boot_aggregate"

struct export_entry {
	char *path;	/* as IMA logs it: /lib/modules/RELEASE/... */
	unsigned char digest[ALLOWLIST_MAX_DIGEST];	/* of the file */
	/* The digest of the init_module entry of the decompressed image. */
	unsigned char buffer_digest[ALLOWLIST_MAX_DIGEST];
	/* A compressed file's decompressed image, as a file (unpacked). */
	bool compressed;
	unsigned char image_digest[ALLOWLIST_MAX_DIGEST];
};

/*
 * The digest IMA's ima-buf entry carries (its d-ng field, which Keylime
 * compares) for LEN bytes of BUF measured as critical data with hashing,
 * as the allowlist and init_module buffers are: the event data is H(BUF)
 * and the entry's digest H(H(BUF)), H being IMA's hash ALGO.  0 or -1.
 */
int ima_hashed_buffer_digest(unsigned int algo, const void *buf, size_t len,
			     unsigned char *out);

/* The same for the allowlist AL's own entry (module-allowlist). */
int allowlist_event_digest(const struct allowlist *al, unsigned int algo,
			   unsigned char *out);

/*
 * PATH's twin on the other /usr layout: /usr/lib/X for /lib/X and the
 * reverse (malloc'ed), or NULL if PATH is under neither.
 */
char *export_twin_path(const char *path);

/* "hex  path" lines, what sha256sum -c and keylime-policy take. */
/*
 * PATH without its compression suffix (".xz", ".zst", ".gz" after
 * ".ko"), malloc'ed, or NULL when it has none: the name under which
 * initramfs-tools (Debian 12) puts a decompressed copy into the initrd.
 */
char *export_unpacked_path(const char *path);

void export_sha256sum(FILE *fp, const struct export_entry *v, size_t n,
		      unsigned int algo);

struct keylime_options {
	unsigned int algo;		/* IMA's file hash (ima_hash=) */
	const char *log_hash_alg;	/* NULL: the base's, else sha1 */
	const unsigned char *allowlist_event;	/* its entry's digest */
	char *const *boot_aggregates;	/* lower-case hex */
	size_t n_boot_aggregates;
	json_object *base;		/* a checked policy to merge into */
};

/*
 * The Keylime runtime policy of N modules: each file's digest under its
 * path and its twin path (digests), each image's init_module digest and
 * the allowlist's (ima-buf), the boot aggregates (digests), merged into
 * a copy of O->base when there is one.  NULL when out of memory.
 */
json_object *export_keylime(const struct export_entry *v, size_t n,
			    const struct keylime_options *o);

#endif
