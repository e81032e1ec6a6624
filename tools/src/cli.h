/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what every command's command line shares: -q/--quiet,
 * -v/--verbose, -V/--version and -h/--help, and usage errors told in one
 * line followed by "Try 'modhash COMMAND --help'." (modhash(1), OPTIONS).
 */
#ifndef MODHASH_CLI_H
#define MODHASH_CLI_H

#include <getopt.h>
#include <stdio.h>

/* -q and -v: how much a command says beyond its results. */
enum {
	VERBOSITY_QUIET = -1,	/* results that explain a refusal, errors */
	VERBOSITY_NORMAL = 0,
	VERBOSITY_VERBOSE = 1,	/* and what is read and decided, on stderr */
};
extern int verbosity;

/* The long options of every command, last in each command's table. */
#define CLI_COMMON_OPTIONS \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ NULL, 0, NULL, 0 }

/* Returned by cli_getopt() when the command must return *STATUS now. */
#define CLI_STOP 0x7ffe

/*
 * getopt_long() over the command's own SHORTOPTS (without q, v, V and h)
 * and LONGOPTS (ending in CLI_COMMON_OPTIONS), starting afresh on the
 * first call for ARGV.  Handles -q and -v itself; for --help prints
 * USAGE on stdout, for --version the version, and for an unknown option
 * or one without its argument the usage error: then it returns CLI_STOP
 * with *STATUS the exit code.  Otherwise like getopt_long().
 */
int cli_getopt(int argc, char *argv[], const char *shortopts,
	       const struct option *longopts, void (*usage)(FILE *),
	       int *status);

/*
 * A usage error: "PROGNAME: MESSAGE" and "Try 'PROGNAME --help'." on
 * stderr.  Returns EXIT_ERROR.
 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "PROGNAME: MESSAGE" on stderr under -v, nothing otherwise. */
void verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * What --version prints: the program's version, the allowlist format it
 * reads and the features it was built with.  Returns EXIT_ACCEPTED, or
 * EXIT_ERROR if FP cannot be written.
 */
int print_version(FILE *fp);

#endif
