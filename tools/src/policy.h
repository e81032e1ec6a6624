/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy.h - IMA policies as Linux 6.12 parses them (ima_policy.c,
 * Documentation/ABI/testing/ima_policy): one rule a line, an action and
 * conditions separated by spaces or tabs; '#' starts a comment only at the
 * start of a line (after blanks); blank lines are skipped.
 *
 * The parser accepts what the kernel's grammar accepts, assuming every
 * optional feature is built in (CONFIG_IMA_APPRAISE_MODSIG,
 * CONFIG_IMA_MEASURE_ASYMMETRIC_KEYS), and refuses what the kernel would
 * refuse whatever its configuration.  What it cannot know (whether an LSM
 * understands subj_/obj_ labels, whether a hash algorithm of
 * appraise_algos= is built) it accepts.
 *
 * Diagnostics carry a 1-based line and column (bytes): the column of the
 * token at fault, or of the rule's first token for a rule-wide problem.
 */
#ifndef MODHASH_POLICY_H
#define MODHASH_POLICY_H

#include <stdbool.h>
#include <stddef.h>

enum policy_action {
	ACTION_NONE,
	ACTION_MEASURE,
	ACTION_DONT_MEASURE,
	ACTION_APPRAISE,
	ACTION_DONT_APPRAISE,
	ACTION_AUDIT,
	ACTION_HASH,
	ACTION_DONT_HASH,
};

/* The hooks of func= (0: no func=, the rule applies to every file hook). */
enum policy_func {
	FUNC_NONE,
	FUNC_FILE_CHECK,
	FUNC_MMAP_CHECK,
	FUNC_MMAP_CHECK_REQPROT,
	FUNC_BPRM_CHECK,
	FUNC_CREDS_CHECK,
	FUNC_MODULE_CHECK,
	FUNC_FIRMWARE_CHECK,
	FUNC_KEXEC_KERNEL_CHECK,
	FUNC_KEXEC_INITRAMFS_CHECK,
	FUNC_POLICY_CHECK,
	FUNC_KEXEC_CMDLINE,
	FUNC_KEY_CHECK,
	FUNC_CRITICAL_DATA,
	FUNC_SETXATTR_CHECK,
};

/* What a rule holds, as the kernel's IMA_* rule flags. */
enum policy_flag {
	PF_FUNC = 1 << 0,
	PF_MASK = 1 << 1,
	PF_INMASK = 1 << 2,
	PF_FSMAGIC = 1 << 3,
	PF_FSNAME = 1 << 4,
	PF_FSUUID = 1 << 5,
	PF_UID = 1 << 6,
	PF_EUID = 1 << 7,
	PF_GID = 1 << 8,
	PF_EGID = 1 << 9,
	PF_FOWNER = 1 << 10,
	PF_FGROUP = 1 << 11,
	PF_PCR = 1 << 12,
	PF_DIGSIG = 1 << 13,		/* appraise_type=imasig (or sigv3) */
	PF_MODSIG = 1 << 14,		/* appraise_type=imasig|modsig */
	PF_VERITY = 1 << 15,		/* digest_type=verity */
	PF_ALGOS = 1 << 16,		/* appraise_algos= */
	PF_DIRECTIO = 1 << 17,		/* permit_directio */
	PF_KEYRINGS = 1 << 18,
	PF_LABEL = 1 << 19,
	PF_LSM = 1 << 20,		/* any subj_* or obj_* */
	PF_TEMPLATE = 1 << 21,		/* not a kernel flag */
	PF_APPRAISE_FLAG = 1 << 22,	/* not a kernel flag: ignored */
};

/* The flags that narrow which files a rule matches. */
#define PF_CONDITIONS (PF_MASK | PF_INMASK | PF_FSMAGIC | PF_FSNAME | \
		       PF_FSUUID | PF_UID | PF_EUID | PF_GID | PF_EGID | \
		       PF_FOWNER | PF_FGROUP | PF_LSM)

#define POLICY_MAY_EXEC		0x1
#define POLICY_MAY_WRITE	0x2
#define POLICY_MAY_READ		0x4
#define POLICY_MAY_APPEND	0x8

struct policy_rule {
	unsigned int line, column;	/* of the rule's first token */
	enum policy_action action;
	enum policy_func func;
	unsigned int flags;		/* enum policy_flag */
	unsigned int mask;		/* POLICY_MAY_* */
	unsigned int pcr;
	char template_name[32];
	char label[256];		/* label=, as written ("a|b") */
	unsigned long long fsmagic;	/* fsmagic= */
	char fsname[32];		/* fsname=, cut to fit */
	bool fsname_cut;
	size_t offset, length;		/* the rule in the policy's text,
					   first word to last */
};

struct policy_diag {
	unsigned int line, column;
	bool warning;
	char message[512];
};

struct policy {
	const char *text;		/* what was parsed, read again by
					   policy_lint() and policy_rule_*() */
	size_t len;
	struct policy_rule *rules;	/* the rules the parser accepted */
	size_t n_rules;
	struct policy_diag *diags;	/* in line order per pass */
	size_t n_diags;
	size_t errors, warnings;
};

/*
 * Parse TEXT of LEN bytes into P (zeroed first).  Every rule the kernel
 * would refuse gets one error (its first problem, as the kernel stops at
 * it); the others become P's rules.  TEXT must stay as it is while P is
 * used.  Returns 0, or -1 out of memory.
 */
int policy_parse(const char *text, size_t len, struct policy *p);

/* R as written, one space between words, "..." at the end if cut. */
void policy_rule_text(const struct policy *p, const struct policy_rule *r,
		      char *buf, size_t size);

/*
 * The words of R that narrow which files it matches (fsmagic=, fsname=,
 * fsuuid=, the id conditions, subj_ and obj_; not mask= or func=), as
 * written, each followed by a space.  False if they do not fit in SIZE.
 */
bool policy_rule_conditions(const struct policy *p, const struct policy_rule *r,
			    char *buf, size_t size);

/* Add a diagnostic; returns 0 or -1 out of memory. */
int policy_diag(struct policy *p, unsigned int line, unsigned int column,
		bool warning, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

void policy_free(struct policy *p);

const char *policy_func_name(enum policy_func func);

/*
 * Warn about rules that make the module allowlist useless or unsafe
 * (policy-lint.c).  Returns 0 or -1 out of memory.
 */
int policy_lint(struct policy *p);

#endif
