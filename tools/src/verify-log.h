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
 * .ko.xz, .ko.zst or .ko.gz.  A module given to init_module() as a buffer
 * (kmod decompressing in user space) has no file: the kernel measures it
 * as critical data (label "modules", event "init_module") whose buffer is
 * the digest of the image, with IMA's hash algorithm (hash=true).
 *
 * Each module load is
 *  - listed: its digest is on the kernel's list (for a file: the file's
 *    digest; for ima-modsig, also the digest of the module without its
 *    appended signature; for init_module: the image's digest), or the
 *    file's digest is one of an export of installed files given as the
 *    reference (how a compressed module, whose file digest no list holds,
 *    is accepted);
 *  - signed-by KEY: its security.ima signature (ima-sig) or its appended
 *    signature (ima-modsig) verifies with one of the given certificates;
 *  - offending, with the reason.
 */
#ifndef MODHASH_VERIFY_LOG_H
#define MODHASH_VERIFY_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "format.h"
#include "ima-log.h"
#include "ima-signature.h"
#include "reference.h"

/* The event name of the allowlist's critical data (ima_modhashes.c). */
#define VERIFY_ALLOWLIST_EVENT	"module-allowlist"

/* The event of a module given to init_module() (label "modules"). */
#define VERIFY_INIT_MODULE_EVENT	"init_module"

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
	/* Installed files' digests (modhash export), or NULL. */
	const struct reference *reference;
	/* Certificates that signatures may verify with, or NULL. */
	struct sig_keys *keys;
};

enum verify_status {
	VERIFY_LISTED,
	VERIFY_SIGNED,
	VERIFY_OFFENDING,
};

/* "listed", "signed", "offending" */
const char *verify_status_name(enum verify_status s);

/*
 * One judged entry: every module load, and every other entry that is
 * offending.  Index SIZE_MAX for "no such entry at all".
 */
struct verify_finding {
	size_t index;
	size_t offset;
	enum verify_status status;
	char *path;			/* "" for no entry */
	char digest[IMA_LOG_DIGEST_ALGO + 2 * IMA_LOG_MAX_DIGEST + 2];
	/* offending: why; listed: how; signed: the signer's subject */
	const char *reason;
	char key[SIG_KEYID_HEX];	/* signed: the signer's key id */
	char *reference;		/* listed by the reference: its file */
};

struct verify_report {
	size_t entries;			/* entries judged */
	size_t rest;			/* bytes after the matching entry */
	bool pcr_checked, pcr_matched;
	unsigned char pcr_value[IMA_LOG_MAX_DIGEST];
	size_t pcr_size;
	size_t modules, modules_listed, modules_signed;
	size_t allowlist_index;		/* SIZE_MAX if never seen */
	/* The boot_aggregate: checked against the bank named here. */
	bool boot_checked, boot_matched;
	char boot_algo[32];		/* as the entry's digest_algo */
	/*
	 * Every module load and every offending entry, in log order; they
	 * own the strings.  Then the offending ones only, sharing them.
	 */
	struct verify_finding *results;
	size_t n_results, results_cap;
	struct verify_finding *findings;
	size_t n_findings, findings_cap;
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
