// SPDX-License-Identifier: GPL-2.0
/* cmd-check.c - placeholder until the command is written. */
#include "commands.h"
#include "util.h"

int cmd_check(int argc, char *argv[])
{
	(void)argc;
	fail_at(NULL, "%s: not written yet", argv[0]);
	return EXIT_ERROR;
}
