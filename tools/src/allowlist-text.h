/* SPDX-License-Identifier: GPL-2.0 */
/*
 * allowlist-text.h - the running kernel's list as securityfs shows it
 * (/sys/kernel/security/ima/module_hashes): a header line
 *   # module allowlist version 1, sha256, 8 digests
 * (or "# module allowlist refused: REASON"), then one "algo:hex" line per
 * digest, in the list's order.
 */
#ifndef MODHASH_ALLOWLIST_TEXT_H
#define MODHASH_ALLOWLIST_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "format.h"

#define ALLOWLIST_TEXT_PREFIX "# module allowlist "

/* Does BUF start like the securityfs text? */
bool allowlist_text_looks_like(const unsigned char *buf, size_t len);

/*
 * Parse the text and rebuild the binary list (AL owns it).  Returns NULL,
 * or why not with *LINE (1-based) and *OFFSET (of that line's start)
 * telling where.  A reason may live in a static buffer until the next call.
 */
const char *allowlist_text_parse(const unsigned char *buf, size_t len,
				 struct allowlist *al, size_t *line,
				 size_t *offset);

/* Write AL as "algo:hex" lines, the securityfs form without its header. */
void allowlist_text_write(FILE *fp, const struct allowlist *al);

#endif
