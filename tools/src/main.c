// SPDX-License-Identifier: GPL-2.0
/* main.c - modhash: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "util.h"

static const struct command commands[] = {
	{ "list", cmd_list, "print a kernel's module allowlist" },
	{ "check", cmd_check, "does a kernel accept these module files" },
	{ "diff", cmd_diff, "compare two kernels' allowlists" },
	{ "export", cmd_export, "reference values for attestation" },
	{ "verify-log", cmd_verify_log,
	  "replay an IMA measurement list and check its modules" },
	{ "lint-policy", cmd_lint_policy, "check an IMA policy file" },
	{ "generate", cmd_generate,
	  "write an allowlist for a build's or a directory's modules" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "Usage: modhash COMMAND [OPTION]... [ARG]...\n"
		    "The built-in module allowlist of a Linux kernel: read it, check\n"
		    "modules and IMA logs against it, lint IMA policies.\n\n"
		    "Commands:\n");
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(fp, "  %-12s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(fp, "\nEvery command takes -q (--quiet), -v (--verbose), -V (--version)\n"
		    "and -h (--help).  'modhash COMMAND --help' and modhash-COMMAND(1)\n"
		    "say more.\n\n"
		    "  -V, --version  the version, the allowlist format and the features\n"
		    "  -h, --help     this help\n\n"
		    "Exit status: 0 accepted, 1 refused or different, 2 error.\n");
}

int main(int argc, char *argv[])
{
	static char name[64];
	size_t i;

	if (argc < 2)
		return usage_error("missing COMMAND");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_ACCEPTED;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return print_version(stdout);
	for (i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		snprintf(name, sizeof(name), "modhash %s", commands[i].name);
		progname = name;
		return commands[i].run(argc - 1, argv + 1);
	}
	if (argv[1][0] == '-')
		return usage_error("unknown option '%s' (options follow the COMMAND)",
				   argv[1]);
	return usage_error("unknown command '%s'", argv[1]);
}
