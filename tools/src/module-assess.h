/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module-assess.h - hash a module file every way the allowlist cares
 * about and decide its verdict (verdict.h).
 */
#ifndef MODHASH_MODULE_ASSESS_H
#define MODHASH_MODULE_ASSESS_H

#include "format.h"
#include "verdict.h"

struct module_assessment {
	struct module_facts facts;
	enum verdict verdict;
	char reason[320];
	unsigned char loaded[ALLOWLIST_MAX_DIGEST];	/* what the loader hashes */
	unsigned char content[ALLOWLIST_MAX_DIGEST];	/* without signature */
	unsigned char stripped[ALLOWLIST_MAX_DIGEST];	/* content, stripped */
};

/*
 * Assess the module file PATH against AL.  The strip --strip-debug form
 * (STRIP is the program) is hashed when it can change the verdict, or
 * always with ALWAYS_STRIP.  0, or -1 after fail_at().
 */
int module_assess(const struct allowlist *al, const char *path,
		  const char *strip, bool always_strip,
		  struct module_assessment *a);

#endif
