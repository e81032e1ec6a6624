// SPDX-License-Identifier: GPL-2.0
/* reference.c - read what modhash export writes (reference.h). */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "reference.h"
#include "util.h"

/* Add the digest HEX (LEN digits) of PATH (PATH_LEN bytes).  NULL or why. */
static const char *add(struct reference *r, const char *hex, size_t len,
		       const char *path, size_t path_len)
{
	struct reference_entry *more, *e;
	char digits[2 * IMA_LOG_MAX_DIGEST + 1];

	if (len < 2 || len % 2 || len > 2 * IMA_LOG_MAX_DIGEST)
		return "digest of a length no algorithm has";
	memcpy(digits, hex, len);
	digits[len] = '\0';
	more = realloc(r->v, (r->n + 1) * sizeof(*r->v));
	if (!more)
		return "out of memory";
	r->v = more;
	e = &r->v[r->n];
	e->len = len / 2;
	if (!hex_decode(digits, e->digest, e->len))
		return "digest is not hex";
	e->path = strndup(path, path_len);
	if (!e->path)
		return "out of memory";
	r->n++;
	return NULL;
}

/* "hex  path" or "hex *path" lines; '#' comments and empty lines. */
static int load_lines(const char *file, const char *text, size_t len,
		      struct reference *r)
{
	const char *p = text, *end = text + len;
	const char *why = NULL;
	size_t line = 0;

	while (p < end && !why) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *sp;

		line++;
		sp = memchr(p, ' ', (size_t)(eol - p));
		if (p == eol || *p == '#')
			;
		else if (!sp || eol - sp < 3 || (sp[1] != ' ' && sp[1] != '*'))
			why = "not a \"digest  path\" line";
		else
			why = add(r, p, (size_t)(sp - p), sp + 2,
				  (size_t)(eol - sp - 2));
		p = eol + 1;
	}
	if (why)
		fail_at(file, "line %zu: %s", line, why);
	return why ? -1 : 0;
}

/* A Keylime runtime policy: "digests": { path: [ hex, ... ] }. */
static int load_keylime(const char *file, const char *text, size_t len,
			struct reference *r)
{
	json_tokener *tok = json_tokener_new();
	json_object *root = NULL, *digests;
	const char *why = NULL;

	if (tok)
		root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success)
		why = "not JSON";
	else if (!json_object_object_get_ex(root, "digests", &digests) ||
		 !json_object_is_type(digests, json_type_object))
		why = "no \"digests\" object (not a Keylime runtime policy)";
	else {
		json_object_object_foreach(digests, path, list) {
			size_t i, n;

			if (!json_object_is_type(list, json_type_array)) {
				why = "\"digests\": a value is not a list";
				break;
			}
			n = json_object_array_length(list);
			for (i = 0; i < n && !why; i++) {
				const char *hex = json_object_get_string(
					json_object_array_get_idx(list, i));

				why = hex ? add(r, hex, strlen(hex), path,
						strlen(path))
					  : "\"digests\": not a string";
			}
			if (why)
				break;
		}
	}
	if (why)
		fail_at(file, "%s", why);
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	return why ? -1 : 0;
}

int reference_load(const char *path, struct reference *r)
{
	unsigned char *buf;
	size_t len, i = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if (read_whole_file(path, &INPUT_TEXT, &buf, &len))
		return -1;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t'))
		i++;
	if (i < len && buf[i] == '{')
		rc = load_keylime(path, (const char *)buf, len, r);
	else
		rc = load_lines(path, (const char *)buf, len, r);
	free(buf);
	if (!rc && !r->n) {
		fail_at(path, "no digest in it");
		rc = -1;
	}
	if (rc)
		reference_free(r);
	return rc;
}

const char *reference_find(const struct reference *r,
			   const unsigned char *digest, size_t len)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].len == len && !memcmp(r->v[i].digest, digest, len))
			return r->v[i].path;
	return NULL;
}

void reference_free(struct reference *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].path);
	free(r->v);
	memset(r, 0, sizeof(*r));
}
