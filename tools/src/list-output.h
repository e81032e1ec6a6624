/* SPDX-License-Identifier: GPL-2.0 */
/* list-output.h - the output formats of modhash list. */
#ifndef MODHASH_LIST_OUTPUT_H
#define MODHASH_LIST_OUTPUT_H

#include <stdio.h>

#include <json-c/json.h>

#include "format.h"
#include "module-names.h"

enum list_format { LIST_HEX, LIST_SHA256SUM, LIST_JSON, LIST_RAW };

/* "hex", "sha256sum", "json", "raw". 0 or -1. */
int list_format_parse(const char *name, enum list_format *fmt);

/*
 * The list as a JSON object: algo, version, count, digests (objects with
 * "digest" and, when NAMES is given, "modules": [{path, form}]) and, with
 * NAMES, "unnamed" (digests no module file explains).
 */
json_object *list_to_json(const struct allowlist *al,
			  const struct digest_names *names);

/* Write AL in format FMT; NAMES may be NULL. 0, or -1 on a write error. */
int list_output_write(FILE *fp, enum list_format fmt,
		      const struct allowlist *al,
		      const struct digest_names *names);

#endif
