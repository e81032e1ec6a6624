// SPDX-License-Identifier: GPL-2.0
/* verify-log.c - judge an IMA measurement list (verify-log.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcr-replay.h"
#include "util.h"
#include "verify-log.h"

static const char *const default_prefixes[] = {
	"/lib/modules/", "/usr/lib/modules/",
};

static const char *const module_suffixes[] = {
	".ko", ".ko.xz", ".ko.zst", ".ko.gz",
};

static const char *const compressed_suffixes[] = {
	".ko.xz", ".ko.zst", ".ko.gz",
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static bool ends_with_any(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ends_with(s, list[i]))
			return true;
	return false;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

bool verify_is_module_path(const char *path, const struct verify_options *o)
{
	const char *const *prefixes = o->prefixes ? o->prefixes : default_prefixes;
	size_t n = o->prefixes ? o->n_prefixes : COUNT(default_prefixes), i;

	for (i = 0; i < n; i++)
		if (!strncmp(path, prefixes[i], strlen(prefixes[i])))
			return true;
	return ends_with_any(path, module_suffixes, COUNT(module_suffixes));
}

static int add_finding(struct verify_report *rep,
		       const struct ima_log_entry *e, const char *reason)
{
	struct verify_finding *f, *more;

	more = realloc(rep->findings, (rep->n_findings + 1) * sizeof(*f));
	if (!more)
		return -1;
	rep->findings = more;
	f = &rep->findings[rep->n_findings++];
	memset(f, 0, sizeof(*f));
	f->reason = reason;
	if (!e) {
		f->index = SIZE_MAX;
		return 0;
	}
	f->index = e->index;
	f->offset = e->offset;
	snprintf(f->path, sizeof(f->path), "%s", e->name);
	if (e->digest.len) {
		char hex[2 * IMA_LOG_MAX_DIGEST + 1];
		size_t len = e->digest.len < IMA_LOG_MAX_DIGEST ?
				     e->digest.len : IMA_LOG_MAX_DIGEST;

		hex_encode(e->digest.data, len, hex);
		snprintf(f->digest, sizeof(f->digest), "%s:%s",
			 e->digest_algo[0] ? e->digest_algo : "sha1", hex);
	}
	return 0;
}

/* Why the module entry E is not accepted by AL, or NULL if it is. */
static const char *judge_module(const struct ima_log_entry *e,
				const struct allowlist *al)
{
	const char *list_algo = hash_algo_name(al->algo);

	if (e->violation)
		return "measurement violation: the file's digest is unknown";
	if (ends_with_any(e->name, compressed_suffixes,
			  COUNT(compressed_suffixes)))
		return "compressed module: IMA measured the compressed file, the list holds uncompressed digests; not verifiable";
	if (!e->digest_algo[0] || strcmp(e->digest_algo, list_algo))
		return "digest algorithm differs from the allowlist's; not verifiable";
	if (e->digest.len != al->digest_size ||
	    !allowlist_contains(al, e->digest.data))
		return "not on the kernel's allowlist";
	return NULL;
}

static bool digest_is(const EVP_MD *md, const void *data, size_t len,
		      const struct ima_log_bytes *digest)
{
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	return EVP_Digest(data, len, out, &n, md, NULL) && n == digest->len &&
	       !memcmp(out, digest->data, n);
}

/*
 * Why the module-allowlist entry E does not show AL, or NULL.  The 6.12
 * series measures the list with ima_measure_critical_data(..., hash=true):
 * the buffer logged is then the digest of the list (IMA's hash algorithm,
 * that of the entry's d-ng field), and d-ng the digest of that buffer.
 * A buffer holding the raw list itself (hash=false) is accepted too.
 */
static const char *judge_allowlist_entry(const struct ima_log_entry *e,
					 const struct allowlist *al)
{
	const EVP_MD *md = EVP_get_digestbyname(e->digest_algo);
	struct ima_log_bytes buf = e->buf;

	if (!md || !digest_is(md, buf.data, buf.len, &e->digest))
		return "module-allowlist entry: its digest is not that of its buffer";
	if (buf.len == al->blob_len && !memcmp(buf.data, al->blob, buf.len))
		return NULL;
	if (!digest_is(md, al->blob, al->blob_len, &buf))
		return "module-allowlist entry differs from the kernel's list";
	return NULL;
}

/*
 * Check the boot_aggregate entry E against the quoted PCRs 0-9 of the
 * bank of its digest, if given; why it differs, or NULL.
 */
static const char *judge_boot_aggregate(const struct ima_log_entry *e,
					const struct verify_options *o,
					struct verify_report *rep)
{
	const struct verify_boot_pcrs *b = NULL;
	unsigned char out[EVP_MAX_MD_SIZE];
	const EVP_MD *md;
	EVP_MD_CTX *ctx;
	unsigned int n = 0, i, count;
	size_t k;
	int ok;

	snprintf(rep->boot_algo, sizeof(rep->boot_algo), "%s",
		 e->digest_algo[0] ? e->digest_algo : "sha1");
	for (k = 0; k < o->n_boot_pcrs; k++)
		if (!strcmp(o->boot_pcrs[k].algo, rep->boot_algo))
			b = &o->boot_pcrs[k];
	md = EVP_get_digestbyname(rep->boot_algo);
	if (!b || !md || (size_t)EVP_MD_get_size(md) != b->size)
		return NULL;
	rep->boot_checked = true;
	count = strcmp(rep->boot_algo, "sha1") ? 10 : 8;
	ctx = EVP_MD_CTX_new();
	ok = ctx && EVP_DigestInit_ex(ctx, md, NULL);
	for (i = 0; ok && i < count; i++)
		ok = EVP_DigestUpdate(ctx, b->value[i], b->size);
	ok = ok && EVP_DigestFinal_ex(ctx, out, &n);
	EVP_MD_CTX_free(ctx);
	rep->boot_matched = ok && n == e->digest.len &&
			    !memcmp(out, e->digest.data, n);
	if (rep->boot_matched)
		return NULL;
	return "boot_aggregate is not IMA's digest of the quoted PCRs 0-9: the list did not start with this TPM's boot (or IMA ran without the TPM)";
}

static int judge(const struct ima_log_entry *e, const struct pcr_replay *r,
		 const struct allowlist *al, const struct verify_options *o,
		 struct verify_report *rep)
{
	const char *why = NULL;

	if (!pcr_replay_template_ok(r, e))
		return add_finding(rep, e, "template hash does not match the entry's data");
	if (!e->decoded)
		return 0;
	if (e->index == 0 && !strcmp(e->name, VERIFY_BOOT_AGGREGATE)) {
		why = judge_boot_aggregate(e, o, rep);
	} else if (!strcmp(e->template_name, "ima-buf")) {
		if (strcmp(e->name, VERIFY_ALLOWLIST_EVENT))
			return 0;
		why = judge_allowlist_entry(e, al);
		if (!why && rep->allowlist_index == SIZE_MAX)
			rep->allowlist_index = e->index;
	} else if (verify_is_module_path(e->name, o)) {
		rep->modules++;
		why = judge_module(e, al);
		if (!why)
			rep->modules_listed++;
	}
	return why ? add_finding(rep, e, why) : 0;
}

int verify_log(const unsigned char *log, size_t len,
	       const struct allowlist *al, const struct verify_options *o,
	       struct verify_report *rep, struct ima_log_error *err)
{
	struct pcr_replay r;
	struct ima_log_entry e;
	struct ima_log it;
	int rc;

	memset(rep, 0, sizeof(*rep));
	rep->allowlist_index = SIZE_MAX;
	rep->pcr_checked = o->expected != NULL;
	memset(err, 0, sizeof(*err));
	if (pcr_replay_init(&r, o->bank, o->pcr)) {
		err->why = "unknown PCR bank";
		return -1;
	}
	rep->pcr_size = r.size;
	ima_log_init(&it, log, len, r.size);
	while ((rc = ima_log_next(&it, &e, err)) > 0) {
		rep->entries = e.index + 1;
		rc = pcr_replay_extend(&r, &e);
		if (rc < 0 || judge(&e, &r, al, o, rep)) {
			err->why = rc < 0 ? "cannot extend the PCR" : "out of memory";
			err->offset = err->entry_offset = e.offset;
			err->index = e.index;
			rc = -1;
			break;
		}
		if (rc > 0 && o->expected && pcr_replay_matches(&r, o->expected)) {
			rep->pcr_matched = true;
			rep->rest = len - it.pos;
			break;
		}
	}
	if (rc < 0) {
		verify_report_free(rep);
		return -1;
	}
	memcpy(rep->pcr_value, r.value, r.size);
	if (rep->allowlist_index == SIZE_MAX &&
	    add_finding(rep, NULL, "no module-allowlist entry: nothing shows that the kernel enforced this list")) {
		verify_report_free(rep);
		err->why = "out of memory";
		return -1;
	}
	return 0;
}

void verify_report_free(struct verify_report *rep)
{
	free(rep->findings);
	rep->findings = NULL;
	rep->n_findings = 0;
}

int verify_verdict(const struct verify_report *rep)
{
	if (rep->n_findings || (rep->pcr_checked && !rep->pcr_matched))
		return EXIT_REFUSED;
	return EXIT_ACCEPTED;
}
