// SPDX-License-Identifier: GPL-2.0
/*
 * modload_lib.c - pure helpers for modload: argument parsing and errno
 * name lookup.  No syscalls and no output here.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/module.h>

#include "modload_lib.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

struct errno_entry {
	int value;
	const char *name;
};

#define E(x) { x, #x }

/*
 * Linux errno values, in <asm-generic/errno*.h> order.  Aliases sharing a
 * number (EWOULDBLOCK, EDEADLOCK, ENOTSUP) are left out on purpose so the
 * canonical name is what gets printed.
 */
static const struct errno_entry errno_table[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(EDOM), E(ERANGE),
	E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS), E(ENOTEMPTY),
	E(ELOOP), E(ENOMSG), E(EIDRM), E(ECHRNG), E(EL2NSYNC), E(EL3HLT),
	E(EL3RST), E(ELNRNG), E(EUNATCH), E(ENOCSI), E(EL2HLT), E(EBADE),
	E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC), E(EBADSLT), E(EBFONT),
	E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR), E(ENONET), E(ENOPKG),
	E(EREMOTE), E(ENOLINK), E(EADV), E(ESRMNT), E(ECOMM), E(EPROTO),
	E(EMULTIHOP), E(EDOTDOT), E(EBADMSG), E(EOVERFLOW), E(ENOTUNIQ),
	E(EBADFD), E(EREMCHG), E(ELIBACC), E(ELIBBAD), E(ELIBSCN),
	E(ELIBMAX), E(ELIBEXEC), E(EILSEQ), E(ERESTART), E(ESTRPIPE),
	E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ), E(EMSGSIZE), E(EPROTOTYPE),
	E(ENOPROTOOPT), E(EPROTONOSUPPORT), E(ESOCKTNOSUPPORT), E(EOPNOTSUPP),
	E(EPFNOSUPPORT), E(EAFNOSUPPORT), E(EADDRINUSE), E(EADDRNOTAVAIL),
	E(ENETDOWN), E(ENETUNREACH), E(ENETRESET), E(ECONNABORTED),
	E(ECONNRESET), E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ESHUTDOWN),
	E(ETOOMANYREFS), E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN),
	E(EHOSTUNREACH), E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EUCLEAN),
	E(ENOTNAM), E(ENAVAIL), E(EISNAM), E(EREMOTEIO), E(EDQUOT),
	E(ENOMEDIUM), E(EMEDIUMTYPE), E(ECANCELED), E(ENOKEY),
	E(EKEYEXPIRED), E(EKEYREVOKED), E(EKEYREJECTED), E(EOWNERDEAD),
	E(ENOTRECOVERABLE),
#ifdef ERFKILL
	E(ERFKILL),
#endif
#ifdef EHWPOISON
	E(EHWPOISON),
#endif
};

#undef E

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *word;
	enum modload_mode mode;
} mode_words[] = {
	{ "finit",		MODLOAD_MODE_FINIT },
	{ "finit-compressed",	MODLOAD_MODE_FINIT_COMPRESSED },
	{ "init",		MODLOAD_MODE_INIT },
	{ "errname",		MODLOAD_MODE_ERRNAME },
	{ "--help",		MODLOAD_MODE_HELP },
	{ "-h",			MODLOAD_MODE_HELP },
	{ "help",		MODLOAD_MODE_HELP },
};

enum modload_mode modload_parse_mode(const char *word)
{
	size_t i;

	if (!word)
		return MODLOAD_MODE_NONE;
	for (i = 0; i < ARRAY_SIZE(mode_words); i++)
		if (strcmp(word, mode_words[i].word) == 0)
			return mode_words[i].mode;
	return MODLOAD_MODE_NONE;
}

int modload_mode_is_load(enum modload_mode mode)
{
	return mode == MODLOAD_MODE_FINIT ||
	       mode == MODLOAD_MODE_FINIT_COMPRESSED ||
	       mode == MODLOAD_MODE_INIT;
}

int modload_mode_flags(enum modload_mode mode)
{
	if (mode == MODLOAD_MODE_FINIT_COMPRESSED)
		return MODULE_INIT_COMPRESSED_FILE;
	return 0;
}

static int parse_fail(struct modload_args *out, const char *why)
{
	out->error = why;
	return -EINVAL;
}

/* argv[2..] for finit/finit-compressed/init: FILE [PARAMS] */
static int parse_load(int nops, char *const ops[], struct modload_args *out)
{
	if (nops < 1 || !ops[0] || !ops[0][0])
		return parse_fail(out, "missing FILE");
	if (nops > 2)
		return parse_fail(out, "too many arguments");
	out->file = ops[0];
	if (nops == 2 && ops[1])
		out->params = ops[1];
	return 0;
}

/* argv[2..] for errname: MESSAGE */
static int parse_errname(int nops, char *const ops[], struct modload_args *out)
{
	if (nops < 1 || !ops[0])
		return parse_fail(out, "missing MESSAGE");
	if (nops > 1)
		return parse_fail(out, "too many arguments (quote MESSAGE)");
	out->message = ops[0];
	return 0;
}

int modload_parse_args(int argc, char *const argv[], struct modload_args *out)
{
	int nops = argc - 2;
	char *const *ops = argv + 2;

	out->mode = MODLOAD_MODE_NONE;
	out->file = NULL;
	out->params = "";
	out->message = NULL;
	out->error = NULL;
	out->timed = MODLOAD_TIMED_NO;

	if (argc >= 2 && argv && argv[1]) {
		if (strcmp(argv[1], "--time") == 0)
			out->timed = MODLOAD_TIMED_DURATION;
		else if (strcmp(argv[1], "--span") == 0)
			out->timed = MODLOAD_TIMED_SPAN;
	}
	if (out->timed != MODLOAD_TIMED_NO) {
		argc--;
		argv++;
		nops--;
		ops++;
	}
	if (argc < 2 || !argv || !argv[1])
		return parse_fail(out, "missing mode");

	out->mode = modload_parse_mode(argv[1]);
	if (out->timed && !modload_mode_is_load(out->mode))
		return parse_fail(out, "--time and --span go with finit, finit-compressed or init");
	switch (out->mode) {
	case MODLOAD_MODE_FINIT:
	case MODLOAD_MODE_FINIT_COMPRESSED:
	case MODLOAD_MODE_INIT:
		return parse_load(nops, ops, out);
	case MODLOAD_MODE_ERRNAME:
		return parse_errname(nops, ops, out);
	case MODLOAD_MODE_HELP:
		if (nops != 0)
			return parse_fail(out, "--help takes no arguments");
		return 0;
	case MODLOAD_MODE_NONE:
		break;
	}
	return parse_fail(out, "unknown mode");
}

const char *modload_errno_name(int err, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_table); i++)
		if (errno_table[i].value == err)
			return errno_table[i].name;
	if (len > 0)
		snprintf(buf, len, "E%d", err);
	return buf;
}

/* Errno name whose strerror() text is exactly msg[0..len), or NULL. */
/*
 * kmod's insmod and modprobe replace strerror() for a few errnos with texts
 * of their own (mod_strerror() in kmod 30).
 */
static const struct {
	const char *text;
	const char *name;
} kmod_texts[] = {
	{ "Invalid module format", "ENOEXEC" },
	{ "Unknown symbol in module", "ENOENT" },
	{ "Module has wrong symbol version", "ESRCH" },
	{ "Invalid parameters", "EINVAL" },
};

static const char *lookup_text(const char *msg, size_t len)
{
	size_t i;

	if (len == 0)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(kmod_texts); i++)
		if (strlen(kmod_texts[i].text) == len &&
		    memcmp(kmod_texts[i].text, msg, len) == 0)
			return kmod_texts[i].name;
	for (i = 0; i < ARRAY_SIZE(errno_table); i++) {
		const char *text = strerror(errno_table[i].value);

		if (strlen(text) == len && memcmp(text, msg, len) == 0)
			return errno_table[i].name;
	}
	return NULL;
}

/* Start of the text after the last ": " in msg[0..len), or NULL. */
static const char *last_colon_suffix(const char *msg, size_t len)
{
	size_t i;

	for (i = len; i >= 2; i--)
		if (msg[i - 2] == ':' && msg[i - 1] == ' ')
			return msg + i;
	return NULL;
}

const char *modload_errname_from_message(const char *msg)
{
	const char *name, *tail;
	size_t len;

	if (!msg)
		return NULL;
	len = strlen(msg);
	while (len > 0 && isspace((unsigned char)msg[len - 1]))
		len--;

	name = lookup_text(msg, len);
	if (name)
		return name;

	tail = last_colon_suffix(msg, len);
	if (!tail)
		return NULL;
	return lookup_text(tail, len - (size_t)(tail - msg));
}
