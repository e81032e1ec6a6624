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

const char *verify_status_name(enum verify_status s)
{
	static const char *const names[] = { "listed", "signed", "offending" };

	return names[s];
}

/* What judging an entry found, before it is recorded. */
struct judgement {
	enum verify_status status;
	const char *reason;
	const char *key;		/* signed */
	const char *reference;		/* listed through the reference */
	/* The digest compared, if not the entry's d-ng one. */
	const char *algo;
	const unsigned char *digest;
	size_t digest_len;
};

static void format_digest(char *out, size_t size, const char *algo,
			  const unsigned char *digest, size_t len)
{
	char hex[2 * IMA_LOG_MAX_DIGEST + 1];

	if (len > IMA_LOG_MAX_DIGEST)
		len = IMA_LOG_MAX_DIGEST;
	hex_encode(digest, len, hex);
	snprintf(out, size, "%s:%s", algo, hex);
}

/* Append F to V (N used of *CAP), growing it by doubling. */
static int push(struct verify_finding **v, size_t *n, size_t *cap,
		const struct verify_finding *f)
{
	if (*n == *cap) {
		size_t more_cap = *cap ? 2 * *cap : 16;
		struct verify_finding *more = realloc(*v, more_cap * sizeof(**v));

		if (!more)
			return -1;
		*v = more;
		*cap = more_cap;
	}
	(*v)[(*n)++] = *f;
	return 0;
}

static int add_result(struct verify_report *rep, const struct ima_log_entry *e,
		      const struct judgement *j)
{
	struct verify_finding f;

	memset(&f, 0, sizeof(f));
	f.status = j->status;
	f.reason = j->reason;
	f.index = SIZE_MAX;
	if (j->key)
		snprintf(f.key, sizeof(f.key), "%s", j->key);
	f.path = strdup(e ? e->name : "");
	f.reference = j->reference ? strdup(j->reference) : NULL;
	if (!f.path || (j->reference && !f.reference) ||
	    push(&rep->results, &rep->n_results, &rep->results_cap, &f)) {
		free(f.path);
		free(f.reference);
		return -1;
	}
	if (e) {
		f.index = e->index;
		f.offset = e->offset;
		if (j->digest_len)
			format_digest(f.digest, sizeof(f.digest), j->algo,
				      j->digest, j->digest_len);
		else if (e->digest.len)
			format_digest(f.digest, sizeof(f.digest),
				      e->digest_algo[0] ? e->digest_algo : "sha1",
				      e->digest.data, e->digest.len);
	}
	rep->results[rep->n_results - 1] = f;
	if (j->status == VERIFY_OFFENDING &&
	    push(&rep->findings, &rep->n_findings, &rep->findings_cap, &f))
		return -1;
	return 0;
}

static int add_finding(struct verify_report *rep,
		       const struct ima_log_entry *e, const char *reason)
{
	struct judgement j = { .status = VERIFY_OFFENDING, .reason = reason };

	return add_result(rep, e, &j);
}

static bool listed_as(const struct allowlist *al, const char *algo,
		      const struct ima_log_bytes *digest)
{
	return algo[0] && !strcmp(algo, hash_algo_name(al->algo)) &&
	       digest->len == al->digest_size &&
	       allowlist_contains(al, digest->data);
}

/* A signature of E that verifies with o->keys: J says so, or why not. */
static bool judge_signatures(const struct ima_log_entry *e,
			     const struct verify_options *o,
			     struct judgement *j, struct sig_result *r)
{
	static struct sig_keys none;
	struct sig_keys *keys = o->keys ? o->keys : &none;

	if (e->sig.len) {
		sig_check_ima(keys, &e->sig, e->digest_algo, &e->digest, r);
		if (r->verified)
			goto signed_by;
		j->reason = r->why;
	}
	if (e->modsig.len) {
		sig_check_modsig(keys, &e->modsig, e->modsig_algo,
				 &e->modsig_digest, r);
		if (r->verified)
			goto signed_by;
		if (!j->reason)
			j->reason = r->why;
	}
	return false;
signed_by:
	j->status = VERIFY_SIGNED;
	j->key = r->keyid;
	j->reason = r->subject;
	return true;
}

/* Judge the module file entry E into J. */
static void judge_module(const struct ima_log_entry *e,
			 const struct allowlist *al,
			 const struct verify_options *o, struct judgement *j,
			 struct sig_result *r)
{
	const char *list_algo = hash_algo_name(al->algo);

	j->status = VERIFY_LISTED;
	if (e->violation) {
		j->status = VERIFY_OFFENDING;
		j->reason = "measurement violation: the file's digest is unknown";
		return;
	}
	if (listed_as(al, e->digest_algo, &e->digest)) {
		j->reason = "on the allowlist";
		return;
	}
	if (listed_as(al, e->modsig_algo, &e->modsig_digest)) {
		j->reason = "on the allowlist without its appended signature";
		j->algo = e->modsig_algo;
		j->digest = e->modsig_digest.data;
		j->digest_len = e->modsig_digest.len;
		return;
	}
	if (o->reference && e->digest_algo[0] &&
	    (j->reference = reference_find(o->reference, e->digest.data,
					   e->digest.len))) {
		j->reason = "an installed file of the reference";
		return;
	}
	j->status = VERIFY_OFFENDING;
	if (judge_signatures(e, o, j, r) || j->reason)
		return;
	if (ends_with_any(e->name, compressed_suffixes,
			  COUNT(compressed_suffixes)))
		j->reason = o->reference ?
			"compressed module whose file is not in the reference" :
			"compressed module: IMA measured the compressed file, the list holds digests of decompressed images; give the installed files' digests (--reference, from modhash export)";
	else if (!e->digest_algo[0] || strcmp(e->digest_algo, list_algo))
		j->reason = "digest algorithm differs from the allowlist's; not verifiable";
	else
		j->reason = "not on the kernel's allowlist";
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
 * Judge the init_module critical-data entry E into J.  The kernel
 * measures the buffer with hash=true: the event data is the image's
 * digest with IMA's hash algorithm (that of d-ng), and d-ng the digest of
 * that.  An entry whose buffer is the image itself is judged by the
 * image's digest with the list's algorithm.
 */
static void judge_init_module(const struct ima_log_entry *e,
			      const struct allowlist *al,
			      struct judgement *j, unsigned char *image)
{
	const EVP_MD *md = EVP_get_digestbyname(e->digest_algo);
	struct ima_log_bytes d = e->buf;

	j->status = VERIFY_OFFENDING;
	if (!e->buf.len) {
		j->reason = "init_module entry without its buffer (template without \"buf\"); not verifiable";
		return;
	}
	if (!md || !digest_is(md, e->buf.data, e->buf.len, &e->digest)) {
		j->reason = "init_module entry: its digest is not that of its buffer";
		return;
	}
	j->algo = e->digest_algo;
	if (e->buf.len != (size_t)EVP_MD_get_size(md)) {
		if (allowlist_digest(al, e->buf.data, e->buf.len, image)) {
			j->reason = "cannot hash the module image";
			return;
		}
		j->algo = hash_algo_name(al->algo);
		d.data = image;
		d.len = al->digest_size;
	}
	j->digest = d.data;
	j->digest_len = d.len;
	if (listed_as(al, j->algo, &d)) {
		j->status = VERIFY_LISTED;
		j->reason = "on the allowlist";
	} else if (strcmp(j->algo, hash_algo_name(al->algo))) {
		j->reason = "IMA's hash algorithm differs from the allowlist's; not verifiable";
	} else {
		j->reason = "not on the kernel's allowlist";
	}
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
	unsigned char image[ALLOWLIST_MAX_DIGEST];
	struct judgement j = { .status = VERIFY_OFFENDING };
	struct sig_result sr;
	const char *why = NULL;

	if (!pcr_replay_template_ok(r, e))
		return add_finding(rep, e, "template hash does not match the entry's data");
	if (!e->decoded)
		return 0;
	if (e->index == 0 && !strcmp(e->name, VERIFY_BOOT_AGGREGATE)) {
		why = judge_boot_aggregate(e, o, rep);
	} else if (!strcmp(e->template_name, "ima-buf") &&
		   strcmp(e->name, VERIFY_INIT_MODULE_EVENT)) {
		if (strcmp(e->name, VERIFY_ALLOWLIST_EVENT))
			return 0;
		why = judge_allowlist_entry(e, al);
		if (!why && rep->allowlist_index == SIZE_MAX)
			rep->allowlist_index = e->index;
	} else if (!strcmp(e->name, VERIFY_INIT_MODULE_EVENT) ||
		   verify_is_module_path(e->name, o)) {
		rep->modules++;
		if (!strcmp(e->name, VERIFY_INIT_MODULE_EVENT))
			judge_init_module(e, al, &j, image);
		else
			judge_module(e, al, o, &j, &sr);
		rep->modules_listed += j.status == VERIFY_LISTED;
		rep->modules_signed += j.status == VERIFY_SIGNED;
		return add_result(rep, e, &j);
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
	size_t i;

	for (i = 0; i < rep->n_results; i++) {
		free(rep->results[i].path);
		free(rep->results[i].reference);
	}
	free(rep->findings);
	free(rep->results);
	rep->findings = rep->results = NULL;
	rep->n_findings = rep->n_results = 0;
	rep->findings_cap = rep->results_cap = 0;
}

int verify_verdict(const struct verify_report *rep)
{
	if (rep->n_findings || (rep->pcr_checked && !rep->pcr_matched))
		return EXIT_REFUSED;
	return EXIT_ACCEPTED;
}
