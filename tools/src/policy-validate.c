// SPDX-License-Identifier: GPL-2.0
/* policy-validate.c - ima_validate_rule()'s checks (policy-validate.h). */
#include <stdio.h>

#include "policy-validate.h"

static const char *const flag_keywords[] = {
	"func", "mask", "mask", "fsmagic", "fsname", "fsuuid", "uid", "euid",
	"gid", "egid", "fowner", "fgroup", "pcr", "appraise_type",
	"appraise_type", "digest_type", "appraise_algos", "permit_directio",
	"keyrings", "label", "subj_/obj_ condition", "template",
	"appraise_flag",
};

static unsigned int bit_of(unsigned int flag)
{
	unsigned int bit = 0;

	while (flag > 1) {
		flag >>= 1;
		bit++;
	}
	return bit;
}

const char *policy_flag_keyword(unsigned int flag)
{
	unsigned int bit = bit_of(flag);

	return bit < sizeof(flag_keywords) / sizeof(flag_keywords[0]) ?
		       flag_keywords[bit] : "?";
}

/* Flags that are not the kernel's, allowed wherever the parser took them. */
#define PF_ANYWHERE (PF_TEMPLATE | PF_APPRAISE_FLAG)

/* The flags each hook allows, beyond PF_ANYWHERE. */
static unsigned int allowed_flags(enum policy_func func)
{
	const unsigned int file = PF_FUNC | PF_MASK | PF_INMASK | PF_FSMAGIC |
		PF_FSNAME | PF_FSUUID | PF_UID | PF_EUID | PF_GID | PF_EGID |
		PF_FOWNER | PF_FGROUP | PF_PCR | PF_DIGSIG | PF_DIRECTIO |
		PF_ALGOS | PF_LSM;

	switch (func) {
	case FUNC_MODULE_CHECK:
	case FUNC_KEXEC_KERNEL_CHECK:
	case FUNC_KEXEC_INITRAMFS_CHECK:
		return file | PF_MODSIG;
	case FUNC_KEXEC_CMDLINE:
		return PF_FUNC | PF_FSMAGIC | PF_UID | PF_FOWNER | PF_FSUUID |
		       PF_EUID | PF_PCR | PF_FSNAME | PF_GID | PF_EGID |
		       PF_FGROUP | PF_LSM;
	case FUNC_KEY_CHECK:
		return PF_FUNC | PF_UID | PF_GID | PF_PCR | PF_KEYRINGS;
	case FUNC_CRITICAL_DATA:
		return PF_FUNC | PF_UID | PF_GID | PF_PCR | PF_LABEL;
	case FUNC_SETXATTR_CHECK:
		return PF_FUNC | PF_ALGOS | PF_LSM;
	default:
		return file | PF_VERITY;
	}
}

static bool refuse(char *err, size_t size, unsigned int *column,
		   unsigned int at, const char *what)
{
	snprintf(err, size, "%s", what);
	*column = at;
	return false;
}

bool policy_validate_rule(const struct policy_rule *r,
			  const unsigned int flag_column[32], char *err,
			  size_t size, unsigned int *column)
{
	unsigned int bad, flag;
	char msg[160];

#define COL(f) (flag_column[bit_of(f)] ? flag_column[bit_of(f)] : r->column)
	if (r->action == ACTION_NONE)
		return refuse(err, size, column, r->column,
			      "rule without an action (measure, appraise, audit, hash or their dont_ forms)");
	if (r->action != ACTION_MEASURE && (r->flags & PF_PCR))
		return refuse(err, size, column, COL(PF_PCR),
			      "pcr= is only for measure rules");
	bad = r->flags & (PF_DIGSIG | PF_MODSIG | PF_ALGOS);
	if (r->action != ACTION_APPRAISE && bad)
		return refuse(err, size, column, COL(bad & -bad),
			      bad & PF_ALGOS && !(bad & PF_DIGSIG) ?
			      "appraise_algos= is only for appraise rules" :
			      "appraise_type= is only for appraise rules");
	if ((r->func == FUNC_KEXEC_CMDLINE || r->func == FUNC_KEY_CHECK ||
	     r->func == FUNC_CRITICAL_DATA) &&
	    r->action != ACTION_MEASURE && r->action != ACTION_DONT_MEASURE) {
		snprintf(msg, sizeof(msg), "func=%s is only for measure and dont_measure rules",
			 policy_func_name(r->func));
		return refuse(err, size, column, COL(PF_FUNC), msg);
	}
	if (r->func == FUNC_SETXATTR_CHECK && r->action != ACTION_APPRAISE)
		return refuse(err, size, column, COL(PF_FUNC),
			      "func=SETXATTR_CHECK is only for appraise rules");
	if (r->func == FUNC_SETXATTR_CHECK && !(r->flags & PF_ALGOS))
		return refuse(err, size, column, COL(PF_FUNC),
			      "func=SETXATTR_CHECK needs appraise_algos=");
	bad = r->flags & ~(allowed_flags(r->func) | PF_ANYWHERE);
	if (bad) {
		flag = bad & -bad;
		snprintf(msg, sizeof(msg), "%s cannot be used %s%s",
			 policy_flag_keyword(flag),
			 r->func == FUNC_NONE ? "without func=" : "with func=",
			 r->func == FUNC_NONE ? "" : policy_func_name(r->func));
		return refuse(err, size, column, COL(flag), msg);
	}
	if (r->action == ACTION_APPRAISE && (r->flags & PF_VERITY) &&
	    !(r->flags & PF_DIGSIG))
		return refuse(err, size, column, COL(PF_VERITY),
			      "appraise with digest_type=verity needs appraise_type=sigv3");
	return true;
#undef COL
}
