// SPDX-License-Identifier: GPL-2.0
/*
 * keylime-schema.c - the form of a Keylime runtime policy, checked field
 * by field (NOTES.md, "Keylime runtime policies", rules S1-S8).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keylime-schema.h"
#include "util.h"

const char *const keylime_log_hash_algs[] = {
	"sha1", "sha256", "sha384", "sha512", NULL
};

/* Keylime's generator numbers: Unknown (0) to LegacyAllowList (3). */
#define KEYLIME_GENERATOR_MAX 3
/* A digest in a policy: 40 to 128 lower-case hex digits. */
#define KEYLIME_HEX_MIN 40
#define KEYLIME_HEX_MAX 128

int keylime_log_hash_alg_known(const char *name)
{
	size_t i;

	for (i = 0; keylime_log_hash_algs[i]; i++)
		if (!strcmp(name, keylime_log_hash_algs[i]))
			return 1;
	return 0;
}

/* Where we are: FIELD gets the path of the field being looked at. */
struct where {
	char *field;
	size_t size;
};

static void at(const struct where *w, const char *fmt, const char *a,
	       const char *b)
{
	snprintf(w->field, w->size, fmt, a, b);
}

/* A JSON integer at least MIN (true and false are not integers). */
static const char *integer(json_object *o, int64_t min)
{
	if (!json_object_is_type(o, json_type_int))
		return "not an integer";
	if (json_object_get_int64(o) < min)
		return min ? "less than 1" : "negative";
	return NULL;
}

static bool lower_hex(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return !s[n] && n >= KEYLIME_HEX_MIN && n <= KEYLIME_HEX_MAX;
}

/* An array of strings; its first bad item in W. */
static const char *strings(json_object *o, const struct where *w,
			   const char *name)
{
	size_t i, n;
	char index[24];

	if (!json_object_is_type(o, json_type_array))
		return "not an array";
	n = json_object_array_length(o);
	for (i = 0; i < n; i++) {
		if (json_object_is_type(json_object_array_get_idx(o, i),
					json_type_string))
			continue;
		snprintf(index, sizeof(index), "[%zu]", i);
		at(w, "%s%s", name, index);
		return "not a string";
	}
	return NULL;
}

/* Rule S4: name -> non-empty array of digests. */
static const char *digests_object(json_object *o, const struct where *w,
				  const char *name)
{
	size_t i, n;

	if (!json_object_is_type(o, json_type_object))
		return "not an object";
	json_object_object_foreach(o, key, list) {
		at(w, "%s[\"%s\"]", name, key);
		if (!json_object_is_type(list, json_type_array))
			return "not an array";
		n = json_object_array_length(list);
		if (!n)
			return "an empty array (at least one digest)";
		for (i = 0; i < n; i++) {
			json_object *d = json_object_array_get_idx(list, i);
			size_t len = strlen(w->field);

			snprintf(w->field + len, w->size - len, "[%zu]", i);
			if (!json_object_is_type(d, json_type_string))
				return "not a string";
			if (!lower_hex(json_object_get_string(d)))
				return "not 40 to 128 lower-case hex digits";
			w->field[len] = '\0';
		}
	}
	return NULL;
}

/* Member NAME of O (a member of PARENT) in *X, W naming it; false if none. */
static bool member(json_object *o, const struct where *w, const char *parent,
		   const char *name, json_object **x)
{
	at(w, parent, name, "");
	return json_object_object_get_ex(o, name, x);
}

/* Rule S2. */
static const char *meta(json_object *o, const struct where *w)
{
	json_object *x;
	const char *why;

	if (!json_object_is_type(o, json_type_object))
		return "not an object";
	if (!member(o, w, "meta.%s%s", "version", &x))
		return "missing";
	if ((why = integer(x, 0)))
		return why;
	if (!member(o, w, "meta.%s%s", "generator", &x))
		return "missing";
	if ((why = integer(x, 0)))
		return why;
	if (json_object_get_int64(x) > KEYLIME_GENERATOR_MAX)
		return "not a generator Keylime knows (0 to 3)";
	if (member(o, w, "meta.%s%s", "timestamp", &x) &&
	    !json_object_is_type(x, json_type_string))
		return "not a string";
	return NULL;
}

/* Rule S6. */
static const char *ima(json_object *o, const struct where *w)
{
	json_object *x;
	const char *why;

	if (!json_object_is_type(o, json_type_object))
		return "not an object";
	if (!member(o, w, "ima.%s%s", "ignored_keyrings", &x))
		return "missing";
	if ((why = strings(x, w, "ima.ignored_keyrings")))
		return why;
	if (!member(o, w, "ima.%s%s", "log_hash_alg", &x))
		return "missing";
	if (!json_object_is_type(x, json_type_string) ||
	    !keylime_log_hash_alg_known(json_object_get_string(x)))
		return "not sha1, sha256, sha384 or sha512";
	if (!member(o, w, "ima.%s%s", "dm_policy", &x))
		return "missing";
	if (x)
		return "not null (device-mapper policies are not in format 1)";
	return NULL;
}

/* Rule S7, for a non-empty value: a JSON keyring. */
static const char *keyring(json_object *keys, const struct where *w)
{
	json_object *x, *y;
	size_t i;

	if (!json_object_is_type(keys, json_type_object))
		return "not a JSON object (a keyring)";
	at(w, "%s%s", "verification-keys", ".keyids");
	if (!json_object_object_get_ex(keys, "keyids", &x) ||
	    !json_object_is_type(x, json_type_array))
		return "missing or not an array";
	for (i = 0; i < json_object_array_length(x); i++)
		if (!json_object_is_type(json_object_array_get_idx(x, i),
					 json_type_int))
			return "holds something else than integers";
	at(w, "%s%s", "verification-keys", ".pubkeys");
	if (!json_object_object_get_ex(keys, "pubkeys", &x))
		return "missing";
	if (strings(x, w, "verification-keys.pubkeys"))
		return "not an array of strings";
	at(w, "%s%s", "verification-keys", ".meta.version");
	if (json_object_object_get_ex(keys, "meta", &x) &&
	    (!json_object_is_type(x, json_type_object) ||
	     !json_object_object_get_ex(x, "version", &y) ||
	     integer(y, 1)))
		return "missing, not an integer or less than 1";
	return NULL;
}

static const char *verification_keys(json_object *o, const struct where *w)
{
	json_object *keys;
	const char *why;

	if (!json_object_is_type(o, json_type_string))
		return "not a string";
	if (!*json_object_get_string(o))
		return NULL;
	keys = json_tokener_parse(json_object_get_string(o));
	why = keyring(keys, w);
	json_object_put(keys);
	return why;
}

const char *keylime_policy_check(json_object *p, char *field, size_t size)
{
	static const char *const required[] = {
		"meta", "release", "digests", "excludes", "keyrings", "ima",
		"ima-buf", "verification-keys", NULL
	};
	struct where w = { field, size };
	json_object *x;
	const char *why;
	size_t i;

	at(&w, "%s%s", "(the document)", "");
	if (!json_object_is_type(p, json_type_object))
		return "not a JSON object";
	at(&w, "%s%s", "payload", "");
	if (json_object_object_get_ex(p, "payload", &x) && x)	/* S8 */
		return "a signed policy (DSSE envelope): give its payload";
	for (i = 0; required[i]; i++) {			/* S1 */
		at(&w, "%s%s", required[i], "");
		if (!json_object_object_get_ex(p, required[i], &x))
			return "missing";
	}
	json_object_object_get_ex(p, "meta", &x);
	at(&w, "%s%s", "meta", "");
	if ((why = meta(x, &w)))
		return why;
	json_object_object_get_ex(p, "release", &x);		/* S3 */
	at(&w, "%s%s", "release", "");
	if ((why = integer(x, 0)))
		return why;
	for (i = 0; i < 3; i++) {				/* S4 */
		static const char *const objects[] = {
			"digests", "keyrings", "ima-buf"
		};

		json_object_object_get_ex(p, objects[i], &x);
		at(&w, "%s%s", objects[i], "");
		if ((why = digests_object(x, &w, objects[i])))
			return why;
	}
	json_object_object_get_ex(p, "excludes", &x);		/* S5 */
	at(&w, "%s%s", "excludes", "");
	if ((why = strings(x, &w, "excludes")))
		return why;
	json_object_object_get_ex(p, "ima", &x);
	at(&w, "%s%s", "ima", "");
	if ((why = ima(x, &w)))
		return why;
	json_object_object_get_ex(p, "verification-keys", &x);
	at(&w, "%s%s", "verification-keys", "");
	return verification_keys(x, &w);
}

/* One JSON document in LEN bytes of BUF, nothing but spaces after it. */
static json_object *parse(const unsigned char *buf, size_t len,
			  const char **why)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error err;
	json_object *o = NULL;
	size_t end;

	*why = "out of memory";
	if (!tok)
		return NULL;
	*why = "over 2 GiB";
	if (len > INT32_MAX)
		goto out;
	o = json_tokener_parse_ex(tok, (const char *)buf, (int)len);
	err = json_tokener_get_error(tok);
	end = err == json_tokener_success ? json_tokener_get_parse_end(tok) : len;
	/* A bare literal at the very end waits for a terminator: give one. */
	if (err == json_tokener_continue) {
		o = json_tokener_parse_ex(tok, "", 1);
		err = json_tokener_get_error(tok);
	}
	*why = err == json_tokener_continue ? "the JSON text ends early" :
	       json_tokener_error_desc(err);
	if (err != json_tokener_success)
		goto out;
	while (end < len && buf[end] && strchr(" \t\r\n", buf[end]))
		end++;
	*why = end < len ? "something follows the JSON text" :
	       !o ? "not a JSON object" : NULL;
out:
	json_tokener_free(tok);
	if (*why) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

json_object *keylime_policy_parse(const unsigned char *buf, size_t len,
				  char *field, size_t size, const char **why)
{
	json_object *policy = parse(buf, len, why);

	if (size)
		field[0] = '\0';
	if (!policy)
		return NULL;
	*why = keylime_policy_check(policy, field, size);
	if (*why) {
		json_object_put(policy);
		return NULL;
	}
	return policy;
}

json_object *keylime_policy_read(const char *file)
{
	json_object *policy;
	unsigned char *buf;
	const char *why;
	char field[320];
	size_t len;

	if (read_whole_file(file, &INPUT_TEXT, &buf, &len))
		return NULL;
	policy = keylime_policy_parse(buf, len, field, sizeof(field), &why);
	free(buf);
	if (!policy && field[0])
		fail_at(file, "not a Keylime runtime policy: %s: %s", field, why);
	else if (!policy)
		fail_at(file, "not a Keylime runtime policy: %s", why);
	return policy;
}
