/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what every modhash command shares: exit codes, error messages
 * that name the file, whole-file reads, and outputs written atomically.
 */
#ifndef MODHASH_UTIL_H
#define MODHASH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes of every command (modhash(1), EXIT STATUS). */
#define EXIT_ACCEPTED	0	/* everything checked is accepted */
#define EXIT_REFUSED	1	/* something checked is refused or differs */
#define EXIT_ERROR	2	/* bad usage or input; nothing was written */

/* "modhash" or "modhash SUBCOMMAND", for messages. */
extern const char *progname;

/* Print "PROGNAME: FILE: MESSAGE\n" on stderr (FILE may be NULL). */
void fail_at(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Read a whole file ("-" is stdin) into a malloc'ed buffer.  Works for
 * files whose size stat() cannot tell (securityfs, pipes).  Returns 0, or
 * -1 after fail_at() naming the file and the reason.
 */
int read_whole_file(const char *path, unsigned char **buf, size_t *len);

/*
 * An output file written atomically: to a temporary file in the same
 * directory, renamed over PATH by out_commit() only.  PATH "-" is stdout.
 * out_abort() (or a failing out_commit()) leaves PATH untouched.
 */
struct out_file {
	FILE *fp;
	char *path;	/* NULL for stdout */
	char *tmp;
};

FILE *out_open(struct out_file *out, const char *path);
int out_commit(struct out_file *out);
void out_abort(struct out_file *out);

/* Lower-case hex of LEN bytes into HEX (2 * LEN + 1 bytes). */
void hex_encode(const unsigned char *bytes, size_t len, char *hex);
/* Parse exactly 2 * LEN hex digits; false if HEX is anything else. */
bool hex_decode(const char *hex, unsigned char *bytes, size_t len);

#endif
