/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reference.h - the installed digests of module files, as `modhash
 * export` writes them: "hex  path" lines (--format=sha256sum, the form of
 * sha256sum and of keylime-policy's file lists) or a Keylime runtime
 * policy (--format=keylime: its "digests" object, path to hex digests).
 * export lists only files whose loaded image the kernel's list accepts
 * (or that are signed), so a measurement of one of these files, by its
 * digest, is of a file the verifier has vouched for: how verify-log
 * accepts a compressed module, whose file digest no list can hold.
 */
#ifndef MODHASH_REFERENCE_H
#define MODHASH_REFERENCE_H

#include <stddef.h>

#include "format.h"
#include "ima-log.h"

struct reference_entry {
	unsigned char digest[IMA_LOG_MAX_DIGEST];
	size_t len;
	char *path;
};

struct reference {
	struct reference_entry *v;
	size_t n;
};

/* Read PATH into R.  0, or -1 after fail_at() naming PATH, line and why. */
int reference_load(const char *path, struct reference *r);

/*
 * The reference of the module files ARG names (a file, a directory, an
 * installed tree, as modhash check takes them), made here instead of by
 * modhash export: every file whose loaded image AL lists (decompressed,
 * with or without its appended signature) is added with the digest of
 * its bytes as stored, with ALGO (IMA's hash algorithm).  Files the list
 * does not accept are left out.  0, or -1 after fail_at().
 */
int reference_from_modules(const char *arg, const struct allowlist *al,
			   const char *algo, struct reference *r);

/* The path of a file whose digest is DIGEST (LEN bytes), or NULL. */
const char *reference_find(const struct reference *r,
			   const unsigned char *digest, size_t len);

void reference_free(struct reference *r);

#endif
