// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-keylime-base.c - libFuzzer target: the reader of the base policy
 * that "modhash export --format=keylime --base FILE" merges into (JSON
 * parse and the Keylime schema check), and the merge itself.  A base the
 * reader accepts must give a merged policy that passes the same check and
 * holds the exported module, the boot_aggregate and the allowlist entry.
 */
#include <stddef.h>
#include <stdint.h>

#include <linux/hash_info.h>

#include "export-policy.h"
#include "keylime-schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Does POLICY's object SECTION have the key NAME? */
static int has(json_object *policy, const char *section, const char *name)
{
	json_object *o, *x;

	return json_object_object_get_ex(policy, section, &o) &&
	       json_object_object_get_ex(o, name, &x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[] = "/lib/modules/6.12.0/kernel/fuzz.ko";
	static char aggregate[] =
		"0000000000000000000000000000000000000000000000000000000000000000";
	static unsigned char event[ALLOWLIST_MAX_DIGEST] = { 1 };
	char *aggregates[] = { aggregate };
	struct export_entry e = { .path = path, .digest = { 2 },
				  .buffer_digest = { 3 } };
	struct keylime_options o = {
		.algo = HASH_ALGO_SHA256, .allowlist_event = event,
		.boot_aggregates = aggregates, .n_boot_aggregates = 1,
	};
	json_object *merged;
	const char *why = NULL;
	char field[320];

	o.base = keylime_policy_parse(data, size, field, sizeof(field), &why);
	if (!o.base) {
		if (!why)	/* a refusal always says why */
			__builtin_trap();
		return 0;
	}
	merged = export_keylime(&e, 1, &o);
	if (!merged || keylime_policy_check(merged, field, sizeof(field)) ||
	    !has(merged, "digests", path) ||
	    !has(merged, "digests", "/usr/lib/modules/6.12.0/kernel/fuzz.ko") ||
	    !has(merged, "digests", BOOT_AGGREGATE_NAME) ||
	    !has(merged, "ima-buf", ALLOWLIST_EVENT_NAME))
		__builtin_trap();
	json_object_put(merged);
	json_object_put(o.base);
	return 0;
}
