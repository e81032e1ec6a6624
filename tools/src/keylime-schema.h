/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keylime-schema.h - read a Keylime runtime policy and check that it is
 * one (format version 1) Keylime's verifier would take.  The rules are those of
 * Keylime 7.14 (keylime/ima/ima.py and keylime/ima/file_signatures.py),
 * written down in NOTES.md, "Keylime runtime policies", rules S1 to S8.
 */
#ifndef MODHASH_KEYLIME_SCHEMA_H
#define MODHASH_KEYLIME_SCHEMA_H

#include <stddef.h>

#include <json-c/json.h>

/* The log_hash_alg values Keylime knows (rule S6). */
extern const char *const keylime_log_hash_algs[];

/*
 * Check POLICY.  Returns NULL if it is a runtime policy, or why not, with
 * FIELD (SIZE bytes) naming the offending field as a path from the top:
 * ima.log_hash_alg, digests["/lib/x.ko"][0], ...
 */
const char *keylime_policy_check(json_object *policy, char *field,
				 size_t size);

/*
 * Parse LEN bytes of BUF as a runtime policy (JSON, nothing after it)
 * and check it.  Returns it, or NULL with *WHY saying why not and, for a
 * policy of the wrong form, FIELD (SIZE bytes) naming the field, else
 * FIELD empty.
 */
json_object *keylime_policy_parse(const unsigned char *buf, size_t len,
				  char *field, size_t size, const char **why);

/*
 * Read the runtime policy FILE (JSON, nothing after it) and check it.
 * Returns it, or NULL after fail_at() naming FILE and, for a policy of
 * the wrong form, the field and why.
 */
json_object *keylime_policy_read(const char *file);

/* Is NAME one of keylime_log_hash_algs? */
int keylime_log_hash_alg_known(const char *name);

#endif
