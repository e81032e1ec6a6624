/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - the subcommands of modhash, one file each (cmd-NAME.c).
 * Each takes the arguments after its name (argv[0] is the name), parses
 * its own options with getopt_long, answers --help, and returns an exit
 * code of util.h.
 */
#ifndef MODHASH_COMMANDS_H
#define MODHASH_COMMANDS_H

struct command {
	const char *name;
	int (*run)(int argc, char *argv[]);
	const char *summary;
};

int cmd_list(int argc, char *argv[]);
int cmd_check(int argc, char *argv[]);
int cmd_diff(int argc, char *argv[]);
int cmd_export(int argc, char *argv[]);
int cmd_verify_log(int argc, char *argv[]);
int cmd_lint_policy(int argc, char *argv[]);
int cmd_generate(int argc, char *argv[]);

#endif
