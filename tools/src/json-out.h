/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json-out.h - what the commands with --format=json share (check, diff,
 * verify-log): the option's values, digests as "algo:hex" strings, and
 * one JSON document written to standard output.
 */
#ifndef MODHASH_JSON_OUT_H
#define MODHASH_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/*
 * --format=ARG: "text" (false) or "json" (true) into *JSON.  0, or -1
 * after fail_at() naming the value.
 */
int json_out_format(const char *arg, bool *json);

/* "ALGO:HEX" of the LEN bytes of DIGEST, or JSON null for no digest. */
json_object *json_out_digest(const char *algo, const unsigned char *digest,
			     size_t len);

/* A string, or JSON null for NULL. */
json_object *json_out_string(const char *s);

/*
 * Write ROOT (taken over and freed) on standard output, indented, with a
 * newline.  0, or -1 after fail_at() if writing failed.
 */
int json_out_print(json_object *root);

#endif
