// SPDX-License-Identifier: GPL-2.0
/* json-out.c - JSON output of the commands (json-out.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json-out.h"
#include "util.h"

int json_out_format(const char *arg, bool *json)
{
	if (!strcmp(arg, "text") || !strcmp(arg, "json")) {
		*json = !strcmp(arg, "json");
		return 0;
	}
	usage_error("--format: %s is neither text nor json", arg);
	return -1;
}

json_object *json_out_digest(const char *algo, const unsigned char *digest,
			     size_t len)
{
	char text[64 + 2 * 64 + 2], hex[2 * 64 + 1];

	if (!len || len > 64)
		return NULL;
	hex_encode(digest, len, hex);
	snprintf(text, sizeof(text), "%s:%s", algo, hex);
	return json_object_new_string(text);
}

json_object *json_out_string(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

int json_out_print(json_object *root)
{
	const char *text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = 0;

	if (!text || printf("%s\n", text) < 0 || fflush(stdout)) {
		fail_at(NULL, "cannot write the JSON output");
		rc = -1;
	}
	json_object_put(root);
	return rc;
}
