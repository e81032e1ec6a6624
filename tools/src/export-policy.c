// SPDX-License-Identifier: GPL-2.0
/* export-policy.c - sha256sum lines and Keylime runtime policies. */
#include <stdlib.h>
#include <string.h>

#include "export-policy.h"
#include "module-tree.h"
#include "util.h"

/* Keylime's RUNTIME_POLICY_CURRENT_VERSION, and its "Unknown" generator. */
#define KEYLIME_POLICY_VERSION 1
#define KEYLIME_GENERATOR_UNKNOWN 0
/*
 * The template hash of the list the agent sends by default (the rust
 * agent's ima_ml_path: ascii_runtime_measurements, the SHA-1 bank).
 */
#define KEYLIME_LOG_HASH_ALG "sha1"

int ima_hashed_buffer_digest(unsigned int algo, const void *buf, size_t len,
			     unsigned char *out)
{
	const EVP_MD *md = hash_algo_md(algo);
	unsigned char inner[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (!md || !EVP_Digest(buf, len, inner, &n, md, NULL))
		return -1;
	return EVP_Digest(inner, n, out, &n, md, NULL) ? 0 : -1;
}

int allowlist_event_digest(const struct allowlist *al, unsigned int algo,
			   unsigned char *out)
{
	return ima_hashed_buffer_digest(algo, al->blob, al->blob_len, out);
}

char *export_twin_path(const char *path)
{
	char *twin;

	if (!strncmp(path, "/usr/lib/", 9))
		return strdup(path + 4);
	if (strncmp(path, "/lib/", 5))
		return NULL;
	twin = malloc(strlen(path) + 5);
	if (twin)
		sprintf(twin, "/usr%s", path);
	return twin;
}

char *export_unpacked_path(const char *path)
{
	size_t base = module_name_base_len(path);

	/* Compressed, a module's name, and a name before the ".ko". */
	if (base == strlen(path) || !module_name_is_module(path) || base <= 3)
		return NULL;
	return strndup(path, base);
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

/* Add HEX to the digest list NAME of OBJ, unless it is there already. */
static void add_hex(json_object *obj, const char *name, const char *hex)
{
	json_object *list;
	size_t i;

	if (!json_object_object_get_ex(obj, name, &list)) {
		list = json_object_new_array();
		json_object_object_add(obj, name, list);
	}
	for (i = 0; i < json_object_array_length(list); i++)
		if (!strcmp(json_object_get_string(
				json_object_array_get_idx(list, i)), hex))
			return;
	json_object_array_add(list, json_object_new_string(hex));
}

static void add_digest(json_object *obj, const char *name,
		       const unsigned char *digest, size_t size)
{
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];

	hex_encode(digest, size, hex);
	add_hex(obj, name, hex);
}

/* An empty policy of format version 1, as Keylime makes one. */
static json_object *empty_policy(void)
{
	json_object *policy = json_object_new_object();
	json_object *meta = json_object_new_object();
	json_object *ima = json_object_new_object();

	json_object_object_add(meta, "version",
			       json_object_new_int(KEYLIME_POLICY_VERSION));
	json_object_object_add(meta, "generator",
			       json_object_new_int(KEYLIME_GENERATOR_UNKNOWN));
	json_object_object_add(policy, "meta", meta);
	json_object_object_add(policy, "release", json_object_new_int(0));
	json_object_object_add(policy, "digests", json_object_new_object());
	json_object_object_add(policy, "excludes", json_object_new_array());
	json_object_object_add(policy, "keyrings", json_object_new_object());
	json_object_object_add(ima, "ignored_keyrings", json_object_new_array());
	json_object_object_add(ima, "log_hash_alg",
			       json_object_new_string(KEYLIME_LOG_HASH_ALG));
	json_object_object_add(ima, "dm_policy", NULL);
	json_object_object_add(policy, "ima", ima);
	json_object_object_add(policy, "ima-buf", json_object_new_object());
	json_object_object_add(policy, "verification-keys",
			       json_object_new_string(""));
	return policy;
}

/* DIGEST under PATH and under PATH's twin in the other layout. */
static void add_both_layouts(json_object *digests, const char *path,
			     const unsigned char *digest, size_t size)
{
	char *twin = export_twin_path(path);

	add_digest(digests, path, digest, size);
	if (twin)
		add_digest(digests, twin, digest, size);
	free(twin);
}

/*
 * Each module under its path and its twin's; a compressed one also as
 * the initrd holds it: Debian 12's mkinitramfs decompresses every module
 * it copies, kmod loads that copy with finit_module(), and IMA logs the
 * uncompressed file under the name without the suffix.
 */
static void add_modules(json_object *digests, const struct export_entry *v,
			size_t n, size_t size)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *unpacked = v[i].compressed ?
				 export_unpacked_path(v[i].path) : NULL;

		add_both_layouts(digests, v[i].path, v[i].digest, size);
		if (unpacked)
			add_both_layouts(digests, unpacked, v[i].image_digest,
					 size);
		free(unpacked);
	}
}

json_object *export_keylime(const struct export_entry *v, size_t n,
			    const struct keylime_options *o)
{
	json_object *policy = NULL, *digests, *buf, *ima;
	size_t i, size = hash_algo_size(o->algo);

	if (o->base && json_object_deep_copy(o->base, &policy, NULL))
		return NULL;
	if (!policy)
		policy = empty_policy();
	if (!policy)
		return NULL;
	json_object_object_get_ex(policy, "digests", &digests);
	json_object_object_get_ex(policy, "ima-buf", &buf);
	json_object_object_get_ex(policy, "ima", &ima);
	if (o->log_hash_alg)
		json_object_object_add(ima, "log_hash_alg",
				       json_object_new_string(o->log_hash_alg));
	for (i = 0; i < o->n_boot_aggregates; i++)
		add_hex(digests, BOOT_AGGREGATE_NAME, o->boot_aggregates[i]);
	add_modules(digests, v, n, size);
	add_digest(buf, ALLOWLIST_EVENT_NAME, o->allowlist_event, size);
	for (i = 0; i < n; i++)
		add_digest(buf, INIT_MODULE_EVENT_NAME, v[i].buffer_digest,
			   size);
	return policy;
}
