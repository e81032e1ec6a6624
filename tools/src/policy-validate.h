/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy-validate.h - what ima_validate_rule() of Linux 6.12 checks once a
 * rule's tokens are read: an action, and conditions and options that fit
 * the action and the hook.
 */
#ifndef MODHASH_POLICY_VALIDATE_H
#define MODHASH_POLICY_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "policy.h"

/* The keyword behind one enum policy_flag bit, for messages. */
const char *policy_flag_keyword(unsigned int flag);

/*
 * Check rule R.  FLAG_COLUMN[bit] is the column of the token that set
 * flag 1 << bit.  Returns true if the kernel accepts R; otherwise writes
 * why into ERR (SIZE bytes) and the column at fault into *COLUMN.
 */
bool policy_validate_rule(const struct policy_rule *r,
			  const unsigned int flag_column[32], char *err,
			  size_t size, unsigned int *column);

#endif
