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
 * A kind of input and the largest size modhash reads of it.  Each limit is
 * well above the largest real file of its kind and keeps an endless or
 * huge input (a pipe, stdin, a sparse file) from using memory without
 * bound; modhash(1), LIMITS, gives the reasons.  NAME is for messages.
 */
struct input_kind {
	const char *name;
	size_t max;
};

/* The raw list, its securityfs text, a vmlinux or a bzImage. */
extern const struct input_kind INPUT_KERNEL;
/* A module file, compressed or not. */
extern const struct input_kind INPUT_MODULE;
/* An IMA measurement list (binary_runtime_measurements). */
extern const struct input_kind INPUT_IMA_LOG;
/* A policy, a System.map, PCR values, modules.order or modules.dep. */
extern const struct input_kind INPUT_TEXT;

/*
 * Read a whole file of KIND into a malloc'ed buffer.  PATH "-" is stdin,
 * read whatever it is.  Otherwise only a regular file is read, never
 * opened if stat() tells it is not one (a FIFO without a writer would
 * block, a device may never end).  A regular file is read to its end,
 * not to the size stat() reports: securityfs and procfs report 0.  Past
 * KIND's limit, the read stops.  Returns 0, or -1 after one fail_at()
 * line naming the file and the reason.
 */
int read_whole_file(const char *path, const struct input_kind *kind,
		    unsigned char **buf, size_t *len);

/*
 * An output file written atomically: to a temporary file in the same
 * directory, renamed over PATH by out_commit() only.  PATH "-" is stdout.
 * out_abort() (or a failing out_commit()) leaves PATH untouched.  The
 * file gets mode 0666 less the umask, as a file open() creates.  A
 * symbolic link at PATH is refused, or with OUT_FOLLOW_SYMLINKS its
 * target (which must exist) is replaced instead; anything else that is
 * not a regular file (a device, a directory) is refused.
 */
#define OUT_FOLLOW_SYMLINKS	1u

struct out_file {
	FILE *fp;
	char *path;	/* NULL for stdout */
	char *tmp;
};

FILE *out_open(struct out_file *out, const char *path, unsigned int flags);
int out_commit(struct out_file *out);
void out_abort(struct out_file *out);

/* Lower-case hex of LEN bytes into HEX (2 * LEN + 1 bytes). */
void hex_encode(const unsigned char *bytes, size_t len, char *hex);
/* Parse exactly 2 * LEN hex digits; false if HEX is anything else. */
bool hex_decode(const char *hex, unsigned char *bytes, size_t len);

#endif
