/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - what the kernel will do with a module file, decided from
 * what is known about its digests.  Pure logic, no I/O.
 */
#ifndef MODHASH_VERDICT_H
#define MODHASH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "decompress.h"

enum verdict {
	VERDICT_LISTED,			/* the loader's digest is listed */
	VERDICT_NOT_LISTED,
	VERDICT_LISTED_AFTER_STRIP,	/* only its strip --strip-debug form */
	VERDICT_NEEDS_SIGNATURE,	/* signed: only the signature vouches */
	VERDICT_MISSING,		/* named by the tree, not there */
};

struct module_facts {
	const char *problem;	/* the loader refuses the file: why */
	enum compression comp;	/* COMP_NONE, GZIP, XZ or ZSTD */
	bool loaded_listed;	/* digest of what the loader gets */
	bool is_signed;
	bool bad_signature;
	bool content_listed;	/* signed: the module without signature */
	bool stripped_known;	/* was the strip --strip-debug form hashed */
	bool stripped_listed;
	bool missing;
};

enum verdict verdict_decide(const struct module_facts *f);

/* "listed", "not-listed", "listed-after-strip", "needs-signature", "missing" */
const char *verdict_name(enum verdict v);

/* Does the kernel accept it?  SIGNED_OK: count needs-signature as yes. */
bool verdict_accepted(enum verdict v, bool signed_ok);

/* One sentence on why, into BUF. */
void verdict_reason(const struct module_facts *f, enum verdict v, char *buf,
		    size_t size);

/* Tally of verdicts, and the exit code of check for it. */
struct verdict_tally {
	size_t count[VERDICT_MISSING + 1];
	bool error;		/* a file could not be read */
};

void verdict_tally_add(struct verdict_tally *t, enum verdict v);
int verdict_tally_exit(const struct verdict_tally *t, bool signed_ok);

#endif
