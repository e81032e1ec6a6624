// SPDX-License-Identifier: GPL-2.0
/* cmd-lint-policy.c - placeholder until the command is written. */
#include "commands.h"
#include "util.h"

int cmd_lint_policy(int argc, char *argv[])
{
	(void)argc;
	fail_at(NULL, "%s: not written yet", argv[0]);
	return EXIT_ERROR;
}
