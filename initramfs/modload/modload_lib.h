/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modload_lib.h - pure helpers for modload (no syscalls, no I/O).
 *
 * Split out of modload.c so that test_modload.c can unit test them.
 */
#ifndef MODLOAD_LIB_H
#define MODLOAD_LIB_H

#include <stddef.h>

enum modload_mode {
	MODLOAD_MODE_NONE = 0,
	MODLOAD_MODE_FINIT,		/* finit_module(fd, params, 0) */
	MODLOAD_MODE_FINIT_COMPRESSED,	/* finit_module(..., COMPRESSED_FILE) */
	MODLOAD_MODE_INIT,		/* init_module(buf, len, params) */
	MODLOAD_MODE_ERRNAME,		/* strerror() text -> errno name */
	MODLOAD_MODE_HELP,
};

struct modload_args {
	enum modload_mode mode;
	const char *file;	/* load modes only */
	const char *params;	/* load modes only, "" if not given */
	const char *message;	/* errname mode only */
	const char *error;	/* why parsing failed, NULL on success */
	int timed;		/* MODLOAD_TIMED_*: what to report with the result */
};

enum {
	MODLOAD_TIMED_NO,
	MODLOAD_TIMED_DURATION,	/* --time: the syscall's duration */
	MODLOAD_TIMED_SPAN,	/* --span: its start, end and CPUs */
};

/* Big enough for any table name and for "E" plus any int. */
#define MODLOAD_ERRNAME_MAX 32

/* Mode word (argv[1]) -> mode; MODLOAD_MODE_NONE if unknown or NULL. */
enum modload_mode modload_parse_mode(const char *word);

/*
 * Parse the whole command line.  Returns 0 and fills @out on success,
 * -EINVAL on a usage error with out->error set to a human readable reason.
 */
int modload_parse_args(int argc, char *const argv[], struct modload_args *out);

/* finit_module() flags for a load mode; 0 for anything else. */
int modload_mode_flags(enum modload_mode mode);

/* True for the modes that load a module. */
int modload_mode_is_load(enum modload_mode mode);

/*
 * Symbolic name of errno value @err ("ENOENT").  Unknown values are
 * formatted as "E<number>" into @buf (of @len bytes) and @buf is returned.
 */
const char *modload_errno_name(int err, char *buf, size_t len);

/*
 * Errno name whose strerror() text equals @msg, or NULL if none does.
 * Trailing whitespace in @msg is ignored.  If the whole string does not
 * match, the text after the last ": " is tried, so a complete kmod line
 * ("insmod: ERROR: could not insert module x.ko: Key was rejected by
 * service") also works.
 */
const char *modload_errname_from_message(const char *msg);

#endif /* MODLOAD_LIB_H */
