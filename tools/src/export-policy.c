// SPDX-License-Identifier: GPL-2.0
/* export-policy.c - sha256sum lines and Keylime runtime policies. */
#include <string.h>

#include "export-policy.h"
#include "util.h"

/* Keylime's RUNTIME_POLICY_CURRENT_VERSION, and its "Unknown" generator. */
#define KEYLIME_POLICY_VERSION 1
#define KEYLIME_GENERATOR_UNKNOWN 0
/* The template hash of IMA's log, which keylime-policy also assumes. */
#define KEYLIME_LOG_HASH_ALG "sha1"

int allowlist_event_digest(const struct allowlist *al, unsigned int algo,
			   unsigned char *out)
{
	const EVP_MD *md = hash_algo_md(algo);
	unsigned char inner[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (!md || !EVP_Digest(al->blob, al->blob_len, inner, &n, md, NULL))
		return -1;
	return EVP_Digest(inner, n, out, &n, md, NULL) ? 0 : -1;
}

void export_sha256sum(FILE *fp, const struct export_entry *v, size_t n,
		      unsigned int algo)
{
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	size_t i;

	for (i = 0; i < n; i++) {
		hex_encode(v[i].digest, hash_algo_size(algo), hex);
		fprintf(fp, "%s  %s\n", hex, v[i].path);
	}
}

static json_object *digest_array(const unsigned char *digest, size_t size)
{
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	json_object *array = json_object_new_array();

	hex_encode(digest, size, hex);
	json_object_array_add(array, json_object_new_string(hex));
	return array;
}

json_object *export_keylime(const struct export_entry *v, size_t n,
			    unsigned int algo,
			    const unsigned char *event_digest)
{
	json_object *policy = json_object_new_object();
	json_object *meta = json_object_new_object();
	json_object *digests = json_object_new_object();
	json_object *ima = json_object_new_object();
	json_object *ima_buf = json_object_new_object();
	size_t i, size = hash_algo_size(algo);

	json_object_object_add(meta, "version",
			       json_object_new_int(KEYLIME_POLICY_VERSION));
	json_object_object_add(meta, "generator",
			       json_object_new_int(KEYLIME_GENERATOR_UNKNOWN));
	json_object_object_add(policy, "meta", meta);
	json_object_object_add(policy, "release", json_object_new_int(0));
	for (i = 0; i < n; i++) {
		json_object *have;

		/* Two files of one path cannot be: keep the first. */
		if (!json_object_object_get_ex(digests, v[i].path, &have))
			json_object_object_add(digests, v[i].path,
					       digest_array(v[i].digest, size));
	}
	json_object_object_add(policy, "digests", digests);
	json_object_object_add(policy, "excludes", json_object_new_array());
	json_object_object_add(policy, "keyrings", json_object_new_object());
	json_object_object_add(ima, "ignored_keyrings", json_object_new_array());
	json_object_object_add(ima, "log_hash_alg",
			       json_object_new_string(KEYLIME_LOG_HASH_ALG));
	json_object_object_add(ima, "dm_policy", NULL);
	json_object_object_add(policy, "ima", ima);
	json_object_object_add(ima_buf, ALLOWLIST_EVENT_NAME,
			       digest_array(event_digest, size));
	json_object_object_add(policy, "ima-buf", ima_buf);
	json_object_object_add(policy, "verification-keys",
			       json_object_new_string(""));
	return policy;
}
