// SPDX-License-Identifier: GPL-2.0
/* module-assess.c - the digests of a module file and its verdict. */
#include <string.h>

#include "module-assess.h"
#include "module-file.h"
#include "util.h"

int module_assess(const struct allowlist *al, const char *path,
		  const char *strip, bool always_strip,
		  struct module_assessment *a)
{
	struct module_facts *f = &a->facts;
	struct module_file m;
	int ret = -1;

	memset(a, 0, sizeof(*a));
	if (module_file_read(path, &m))
		return -1;
	f->problem = m.problem;
	f->comp = m.comp;
	f->is_signed = m.is_signed;
	f->bad_signature = m.bad_signature;
	if (allowlist_digest(al, m.image, m.image_len, a->loaded) ||
	    allowlist_digest(al, m.image, m.content_len, a->content)) {
		fail_at(path, "cannot hash with %s", hash_algo_name(al->algo));
		goto out;
	}
	f->loaded_listed = allowlist_contains(al, a->loaded);
	f->content_listed = m.is_signed && allowlist_contains(al, a->content);
	if (!m.problem && (always_strip || (!f->loaded_listed &&
					    !f->content_listed))) {
		int err = module_stripped_digest(al, m.image, m.content_len,
						 strip, path, a->stripped);

		if (err < 0)
			goto out;
		f->stripped_known = err == 0;
		f->stripped_listed = !err &&
				     allowlist_contains(al, a->stripped);
	}
	a->verdict = verdict_decide(f);
	verdict_reason(f, a->verdict, a->reason, sizeof(a->reason));
	ret = 0;
out:
	module_file_free(&m);
	return ret;
}
