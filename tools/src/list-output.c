// SPDX-License-Identifier: GPL-2.0
/* list-output.c - hex, sha256sum, JSON and raw forms of a list. */
#include <string.h>

#include <linux/module_hashes.h>

#include "allowlist-text.h"
#include "list-output.h"
#include "util.h"

int list_format_parse(const char *name, enum list_format *fmt)
{
	static const char *const names[] = { "hex", "sha256sum", "json", "raw" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*fmt = (enum list_format)i;
			return 0;
		}
	return -1;
}

static const unsigned char *nth(const struct allowlist *al, uint32_t i)
{
	return al->digests + (size_t)i * al->digest_size;
}

json_object *list_to_json(const struct allowlist *al,
			  const struct digest_names *names)
{
	json_object *root = json_object_new_object();
	json_object *digests = json_object_new_array();
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	uint32_t i, unnamed = 0;

	json_object_object_add(root, "version",
			       json_object_new_int(MODULE_HASHES_VERSION));
	json_object_object_add(root, "algo",
			       json_object_new_string(hash_algo_name(al->algo)));
	json_object_object_add(root, "count", json_object_new_int64(al->count));
	for (i = 0; i < al->count; i++) {
		json_object *entry = json_object_new_object();

		hex_encode(nth(al, i), al->digest_size, hex);
		json_object_object_add(entry, "digest",
				       json_object_new_string(hex));
		if (names) {
			json_object *mods = json_object_new_array();
			const struct digest_name *dn;
			size_t n = digest_names_find(names, nth(al, i), &dn);

			unnamed += n == 0;
			for (; n; n--, dn++) {
				json_object *m = json_object_new_object();

				json_object_object_add(m, "path",
					json_object_new_string(dn->path));
				json_object_object_add(m, "form",
					json_object_new_string(dn->form));
				json_object_array_add(mods, m);
			}
			json_object_object_add(entry, "modules", mods);
		}
		json_object_array_add(digests, entry);
	}
	json_object_object_add(root, "digests", digests);
	if (names)
		json_object_object_add(root, "unnamed",
				       json_object_new_int64(unnamed));
	return root;
}

/*
 * "hex  path" where the file as installed has the digest (what
 * sha256sum -c can check); other forms and unexplained digests as
 * comments.
 */
static void write_sha256sum(FILE *fp, const struct allowlist *al,
			    const struct digest_names *names)
{
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	uint32_t i;

	for (i = 0; i < al->count; i++) {
		const struct digest_name *dn;
		size_t n = names ? digest_names_find(names, nth(al, i), &dn) : 0;

		hex_encode(nth(al, i), al->digest_size, hex);
		if (!n)
			fprintf(fp, "# %s  (no module file %s)\n", hex,
				names ? "found" : "searched: --modules");
		for (; n; n--, dn++) {
			if (!strcmp(dn->form, "as-installed"))
				fprintf(fp, "%s  %s\n", hex, dn->path);
			else
				fprintf(fp, "# %s  %s (%s)\n", hex, dn->path,
					dn->form);
		}
	}
}

int list_output_write(FILE *fp, enum list_format fmt,
		      const struct allowlist *al,
		      const struct digest_names *names)
{
	json_object *json;

	switch (fmt) {
	case LIST_RAW:
		fwrite(al->blob, 1, al->blob_len, fp);
		break;
	case LIST_SHA256SUM:
		write_sha256sum(fp, al, names);
		break;
	case LIST_JSON:
		json = list_to_json(al, names);
		fputs(json_object_to_json_string_ext(json,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE),
		      fp);
		fputc('\n', fp);
		json_object_put(json);
		break;
	default:
		allowlist_text_write(fp, al);
		break;
	}
	return ferror(fp) ? -1 : 0;
}
