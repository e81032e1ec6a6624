// SPDX-License-Identifier: GPL-2.0
/* module-names.c - a digest -> module file index. */
#include <stdlib.h>
#include <string.h>

#include "module-assess.h"
#include "module-names.h"

int digest_names_add(struct digest_names *names, const unsigned char *digest,
		     const char *path, const char *form)
{
	size_t i;

	for (i = 0; i < names->n; i++)
		if (names->v[i].path == path &&
		    !memcmp(names->v[i].digest, digest, names->digest_size))
			return 0;	/* the same file in another form */
	if (names->n == names->cap) {
		size_t cap = names->cap ? names->cap * 2 : 64;
		struct digest_name *v = realloc(names->v, cap * sizeof(*v));

		if (!v)
			return -1;
		names->v = v;
		names->cap = cap;
	}
	memset(&names->v[names->n], 0, sizeof(names->v[0]));
	memcpy(names->v[names->n].digest, digest, names->digest_size);
	names->v[names->n].path = path;
	names->v[names->n].form = form;
	names->n++;
	return 0;
}

static int by_digest(const void *a, const void *b)
{
	const struct digest_name *x = a, *y = b;
	int order = memcmp(x->digest, y->digest, sizeof(x->digest));

	return order ? order : strcmp(x->path, y->path);
}

void digest_names_sort(struct digest_names *names)
{
	if (names->n)
		qsort(names->v, names->n, sizeof(*names->v), by_digest);
}

size_t digest_names_find(const struct digest_names *names,
			 const unsigned char *digest,
			 const struct digest_name **first)
{
	size_t lo = 0, hi = names->n, n = 0;

	/* The first entry not below DIGEST. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (memcmp(names->v[mid].digest, digest, names->digest_size) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = names->v + lo;
	while (lo + n < names->n &&
	       !memcmp(names->v[lo + n].digest, digest, names->digest_size))
		n++;
	return n;
}

int digest_names_build(const struct allowlist *al, const char *dir,
		       const char *strip, struct digest_names *names)
{
	size_t i;

	memset(names, 0, sizeof(*names));
	names->digest_size = al->digest_size;
	if (module_list_add(&names->modules, dir))
		return -1;
	for (i = 0; i < names->modules.n; i++) {
		const struct module_entry *e = &names->modules.v[i];
		struct module_assessment a;
		const char *loaded_form;
		int err;

		if (e->missing)
			continue;
		if (module_assess(al, e->path, strip, true, &a))
			return -1;
		loaded_form = a.facts.is_signed ? "signed" :
			      a.facts.comp != COMP_NONE ? "decompressed" :
			      "as-installed";
		err = digest_names_add(names, a.loaded, e->path, loaded_form);
		if (!err && a.facts.is_signed)
			err = digest_names_add(names, a.content, e->path,
					       "without-signature");
		if (!err && a.facts.stripped_known)
			err = digest_names_add(names, a.stripped, e->path,
					       "stripped");
		if (err)
			return -1;
	}
	digest_names_sort(names);
	return 0;
}

void digest_names_free(struct digest_names *names)
{
	free(names->v);
	module_list_free(&names->modules);
	memset(names, 0, sizeof(*names));
}
