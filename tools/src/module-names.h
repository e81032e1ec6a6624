/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module-names.h - which module file is behind a digest: every module of
 * a directory or tree hashed in each form the list may hold it (as the
 * loader gets it, without its signature, after strip --strip-debug).
 */
#ifndef MODHASH_MODULE_NAMES_H
#define MODHASH_MODULE_NAMES_H

#include "format.h"
#include "module-tree.h"

struct digest_name {
	unsigned char digest[ALLOWLIST_MAX_DIGEST];
	const char *path;	/* in names->modules */
	const char *form;	/* "as-installed", "decompressed", ... */
};

struct digest_names {
	struct digest_name *v;
	size_t n, cap;
	unsigned int digest_size;
	struct module_list modules;
};

/* Hash every module below DIR with AL's algorithm. 0, or -1 after fail_at(). */
int digest_names_build(const struct allowlist *al, const char *dir,
		       const char *strip, struct digest_names *names);

/*
 * Add one name (for tests and for what the caller hashed itself).
 * PATH and FORM must outlive NAMES.  0 or -1 (out of memory).
 */
int digest_names_add(struct digest_names *names, const unsigned char *digest,
		     const char *path, const char *form);

/* Sort after the last add; then find. */
void digest_names_sort(struct digest_names *names);

/* The names of DIGEST: *FIRST and how many follow it (0: none). */
size_t digest_names_find(const struct digest_names *names,
			 const unsigned char *digest,
			 const struct digest_name **first);

void digest_names_free(struct digest_names *names);

#endif
