/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-log.h - check an IMA measurement list against a kernel's module
 * allowlist: replay the list into a PCR, stop where it matches the quoted
 * value, and judge every module load and the allowlist's critical-data
 * entry up to there.
 *
 * Which entries are module loads: IMA does not log the hook (func) that
 * measured a file, so a file entry (any template but ima-buf) counts as a
 * module when its path starts with one of the module prefixes (default
 * /lib/modules/ and /usr/lib/modules/) or its file name ends in .ko,
 * .ko.xz, .ko.zst or .ko.gz.
 */
#ifndef MODHASH_VERIFY_LOG_H
#define MODHASH_VERIFY_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "format.h"
#include "ima-log.h"

/* The event name of the allowlist's critical data (ima_modhashes.c). */
#define VERIFY_ALLOWLIST_EVENT	"module-allowlist"

/* The name of IMA's first entry, measured from PCRs 0-9 at init. */
#define VERIFY_BOOT_AGGREGATE	"boot_aggregate"

/*
 * Quoted PCRs 0-9 of one bank.  IMA computes its boot_aggregate from the
 * bank of its own hash algorithm when the TPM has it (else sha256, else
 * sha1): the digest, with that bank's algorithm, of PCRs 0-7 concatenated,
 * and for any bank but sha1 of PCRs 8 and 9 after them (6.12's
 * ima_calc_boot_aggregate_tfm).
 */
struct verify_boot_pcrs {
	char algo[16];
	size_t size;
	unsigned char value[10][IMA_LOG_MAX_DIGEST];
};

struct verify_options {
	const char *bank;		/* "sha1", "sha256", ... */
	unsigned int pcr;		/* 10 unless IMA was built otherwise */
	const unsigned char *expected;	/* quoted PCR value, or NULL */
	const char *const *prefixes;	/* module path prefixes, or NULL */
	size_t n_prefixes;
	/* Quoted PCRs 0-9 of some banks: entry 0 is checked against them. */
	const struct verify_boot_pcrs *boot_pcrs;
	size_t n_boot_pcrs;
};

/* One offending entry; index SIZE_MAX for "no such entry at all". */
struct verify_finding {
	size_t index;
	size_t offset;
	char path[IMA_LOG_MAX_PATH + 1];
	char digest[32 + 2 * IMA_LOG_MAX_DIGEST + 2];	/* "algo:hex" */
	const char *reason;
};

struct verify_report {
	size_t entries;			/* entries judged */
	size_t rest;			/* bytes after the matching entry */
	bool pcr_checked, pcr_matched;
	unsigned char pcr_value[IMA_LOG_MAX_DIGEST];
	size_t pcr_size;
	size_t modules, modules_listed;
	size_t allowlist_index;		/* SIZE_MAX if never seen */
	/* The boot_aggregate: checked against the bank named here. */
	bool boot_checked, boot_matched;
	char boot_algo[32];		/* as the entry's digest_algo */
	struct verify_finding *findings;
	size_t n_findings;
};

/* Is PATH a module file under the rule above? */
bool verify_is_module_path(const char *path, const struct verify_options *o);

/*
 * Verify the list LOG of LEN bytes.  Returns 0 with REP filled (free it
 * with verify_report_free), or -1 on a malformed list (or no memory) with
 * ERR filled; REP is then freed.
 */
int verify_log(const unsigned char *log, size_t len,
	       const struct allowlist *al, const struct verify_options *o,
	       struct verify_report *rep, struct ima_log_error *err);

void verify_report_free(struct verify_report *rep);

/* EXIT_ACCEPTED if REP has no finding and no PCR mismatch, else REFUSED. */
int verify_verdict(const struct verify_report *rep);

#endif
