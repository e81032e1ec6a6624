// SPDX-License-Identifier: GPL-2.0
/* pcr-replay.c - extend IMA log entries into a PCR bank (pcr-replay.h). */
#include <string.h>

#include "pcr-replay.h"

int pcr_replay_init(struct pcr_replay *r, const char *bank, unsigned int pcr)
{
	memset(r, 0, sizeof(*r));
	r->md = EVP_get_digestbyname(bank);
	r->size = ima_log_bank_size(bank);
	r->pcr = pcr;
	return r->md && r->size ? 0 : -1;
}

int pcr_replay_extend(struct pcr_replay *r, const struct ima_log_entry *e)
{
	unsigned char ff[IMA_LOG_MAX_DIGEST];
	const unsigned char *hash = e->template_hash.data;
	unsigned int n = 0;
	EVP_MD_CTX *ctx;
	int ok;

	if (e->pcr != r->pcr)
		return 0;
	if (e->template_hash.len != r->size)
		return -1;
	if (e->violation) {
		memset(ff, 0xff, r->size);
		hash = ff;
	}
	ctx = EVP_MD_CTX_new();
	ok = ctx && EVP_DigestInit_ex(ctx, r->md, NULL) &&
	     EVP_DigestUpdate(ctx, r->value, r->size) &&
	     EVP_DigestUpdate(ctx, hash, r->size) &&
	     EVP_DigestFinal_ex(ctx, r->value, &n) && n == r->size;
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return -1;
	r->extends++;
	return 1;
}

bool pcr_replay_matches(const struct pcr_replay *r,
			const unsigned char *expected)
{
	return memcmp(r->value, expected, r->size) == 0;
}

bool pcr_replay_template_ok(const struct pcr_replay *r,
			    const struct ima_log_entry *e)
{
	unsigned char digest[EVP_MAX_MD_SIZE];

	if (e->violation)
		return true;
	return ima_log_template_digest(e, r->md, digest) ==
		       r->size &&
	       e->template_hash.len == r->size &&
	       memcmp(digest, e->template_hash.data, r->size) == 0;
}

int pcr_replay_log(struct pcr_replay *r, const unsigned char *log,
		   size_t len, const unsigned char *expected, bool *matched,
		   size_t *entries, struct ima_log_error *err)
{
	struct ima_log_entry e;
	struct ima_log it;
	int rc;

	*matched = false;
	*entries = 0;
	ima_log_init(&it, log, len, r->size);
	while ((rc = ima_log_next(&it, &e, err)) > 0) {
		*entries = e.index + 1;
		rc = pcr_replay_extend(r, &e);
		if (rc < 0) {
			err->why = "cannot extend the PCR";
			err->offset = err->entry_offset = e.offset;
			err->index = e.index;
			return -1;
		}
		if (rc > 0 && expected && pcr_replay_matches(r, expected)) {
			*matched = true;
			return 0;
		}
	}
	return rc;
}
