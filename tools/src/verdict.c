// SPDX-License-Identifier: GPL-2.0
/* verdict.c - listed, not listed, listed after strip, needs signature. */
#include <stdio.h>

#include "verdict.h"

static const char *const names[] = {
	[VERDICT_LISTED] = "listed",
	[VERDICT_NOT_LISTED] = "not-listed",
	[VERDICT_LISTED_AFTER_STRIP] = "listed-after-strip",
	[VERDICT_NEEDS_SIGNATURE] = "needs-signature",
	[VERDICT_MISSING] = "missing",
};

const char *verdict_name(enum verdict v)
{
	return names[v];
}

enum verdict verdict_decide(const struct module_facts *f)
{
	if (f->missing)
		return VERDICT_MISSING;
	if (f->problem)
		return VERDICT_NOT_LISTED;
	if (f->loaded_listed)
		return VERDICT_LISTED;
	if (f->is_signed)
		return VERDICT_NEEDS_SIGNATURE;
	if (f->stripped_known && f->stripped_listed)
		return VERDICT_LISTED_AFTER_STRIP;
	return VERDICT_NOT_LISTED;
}

bool verdict_accepted(enum verdict v, bool signed_ok)
{
	return v == VERDICT_LISTED ||
	       (signed_ok && v == VERDICT_NEEDS_SIGNATURE);
}

void verdict_reason(const struct module_facts *f, enum verdict v, char *buf,
		    size_t size)
{
	const char *how = f->comp == COMP_NONE ? "the file" :
			  "the file decompressed as the kernel does";

	switch (v) {
	case VERDICT_MISSING:
		snprintf(buf, size, "named by the tree's modules.order or "
			 "modules.dep, but not installed");
		break;
	case VERDICT_LISTED:
		snprintf(buf, size, "%s is on the list", how);
		break;
	case VERDICT_NEEDS_SIGNATURE:
		snprintf(buf, size, "%s has an appended signature%s, so the "
			 "loader's digest is not on the list and only the "
			 "signature can vouch for it; without the signature it "
			 "%s on the list", how,
			 f->bad_signature ? " (malformed: the loader refuses it)" : "",
			 f->content_listed ? "is" :
			 f->stripped_known && f->stripped_listed ?
			 "is, after strip --strip-debug," : "is not");
		break;
	case VERDICT_LISTED_AFTER_STRIP:
		snprintf(buf, size, "%s is not on the list, its strip "
			 "--strip-debug form is: install with "
			 "INSTALL_MOD_STRIP=1", how);
		break;
	default:
		if (f->problem)
			snprintf(buf, size, "the kernel refuses the file: %s",
				 f->problem);
		else if (f->stripped_known)
			snprintf(buf, size, "neither %s nor its strip "
				 "--strip-debug form is on the list", how);
		else
			snprintf(buf, size, "%s is not on the list, and strip "
				 "cannot read it", how);
		break;
	}
}

void verdict_tally_add(struct verdict_tally *t, enum verdict v)
{
	t->count[v]++;
}

int verdict_tally_exit(const struct verdict_tally *t, bool signed_ok)
{
	size_t v;

	if (t->error)
		return 2;
	for (v = 0; v <= VERDICT_MISSING; v++)
		if (t->count[v] && !verdict_accepted((enum verdict)v, signed_ok))
			return 1;
	return 0;
}
