// SPDX-License-Identifier: GPL-2.0
/*
 * reference-tree.c - the installed digests of accepted module files, made
 * from the files themselves (reference.h, reference_from_modules).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "module-file.h"
#include "module-tree.h"
#include "reference.h"
#include "util.h"

/* Does AL accept M's image, as loaded or without its signature? */
static int accepted(const struct allowlist *al, const struct module_file *m)
{
	unsigned char d[ALLOWLIST_MAX_DIGEST];

	if (m->problem)
		return 0;
	if (allowlist_digest(al, m->image, m->image_len, d))
		return -1;
	if (allowlist_contains(al, d))
		return 1;
	if (!m->is_signed)
		return 0;
	if (allowlist_digest(al, m->image, m->content_len, d))
		return -1;
	return allowlist_contains(al, d);
}

static int add_file(struct reference *r, const struct module_file *m,
		    const EVP_MD *md, const char *path)
{
	struct reference_entry *more = realloc(r->v, (r->n + 1) * sizeof(*r->v));
	struct reference_entry *e;
	unsigned int n = 0;

	if (!more)
		return -1;
	r->v = more;
	e = &r->v[r->n];
	if (!EVP_Digest(m->file, m->file_len, e->digest, &n, md, NULL) ||
	    !(e->path = strdup(path)))
		return -1;
	e->len = n;
	r->n++;
	return 0;
}

int reference_from_modules(const char *arg, const struct allowlist *al,
			   const char *algo, struct reference *r)
{
	const EVP_MD *md = EVP_get_digestbyname(algo);
	struct module_list list;
	size_t i;
	int ret = -1, ok;

	memset(r, 0, sizeof(*r));
	memset(&list, 0, sizeof(list));
	if (!md || EVP_MD_get_size(md) > IMA_LOG_MAX_DIGEST) {
		fail_at(NULL, "--ima-hash: unknown algorithm %s", algo);
		return -1;
	}
	if (module_list_add(&list, arg))
		goto out;
	for (i = 0; i < list.n; i++) {
		struct module_file m;

		if (list.v[i].missing)
			continue;
		if (module_file_read(list.v[i].path, &m))
			goto out;
		ok = accepted(al, &m);
		if (ok > 0 && add_file(r, &m, md, list.v[i].path))
			ok = -1;
		module_file_free(&m);
		if (ok < 0) {
			fail_at(list.v[i].path, "cannot hash it (out of memory?)");
			goto out;
		}
	}
	ret = 0;
out:
	module_list_free(&list);
	if (ret)
		reference_free(r);
	return ret;
}
