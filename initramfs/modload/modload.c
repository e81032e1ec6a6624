// SPDX-License-Identifier: GPL-2.0
/*
 * modload - load a kernel module through one explicit syscall path and
 * print the outcome as an errno name.  Static test helper for the qemu
 * (busybox initramfs) guest.
 *
 * Usage:
 *   modload finit FILE [PARAMS]
 *	finit_module(fd, PARAMS, 0)
 *   modload finit-compressed FILE [PARAMS]
 *	finit_module(fd, PARAMS, MODULE_INIT_COMPRESSED_FILE)
 *   modload init FILE [PARAMS]
 *	read FILE into memory, init_module(buf, len, PARAMS)
 *   modload errname MESSAGE
 *	print the errno name whose strerror() text equals MESSAGE
 *	(or, failing that, the text after the last ": " in MESSAGE)
 *   modload --help
 *
 *   modload --time finit|finit-compressed|init FILE [PARAMS]
 *	the same, and the result word is followed by a space and the
 *	syscall's duration in nanoseconds (CLOCK_MONOTONIC): "OK 812345"
 *	(tests/bench/load-cost.sh)
 *   modload --span finit|finit-compressed|init FILE [PARAMS]
 *	the same, and the result word is followed by the syscall's start
 *	and end (CLOCK_MONOTONIC, ns) and the CPU the caller ran on just
 *	before and just after it: "OK 1200345 1812690 0 1"
 *	(tests/vm/run-concurrency.sh: loads that overlap on two CPUs)
 *
 * PARAMS defaults to "".
 *
 * Output: exactly one line on stdout:
 *   "OK"              the module was loaded
 *   "<ENAME>"         the errno name, e.g. EKEYREJECTED; "E<n>" if unknown
 * Diagnostics go to stderr.
 *
 * Exit status:
 *   0  load succeeded (OK), or errname found a match
 *   1  the kernel refused the load (errno name printed)
 *   2  usage error (nothing on stdout), errname found no match (nothing
 *      on stdout), or FILE could not be opened/read: "modload: FILE:
 *      reason" on stderr and the errno name of that failure on stdout
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "modload_lib.h"

#define EXIT_LOADED	0
#define EXIT_REFUSED	1
#define EXIT_USAGE	2

#define READ_CHUNK	(64 * 1024)

static const char usage_text[] =
"Usage:\n"
"  modload finit FILE [PARAMS]             finit_module(fd, PARAMS, 0)\n"
"  modload finit-compressed FILE [PARAMS]  finit_module(fd, PARAMS, MODULE_INIT_COMPRESSED_FILE)\n"
"  modload init FILE [PARAMS]              init_module(contents of FILE, len, PARAMS)\n"
"  modload errname MESSAGE                 errno name whose strerror() text is MESSAGE\n"
"  modload --time LOADMODE FILE [PARAMS]   one of the three loads above; the result\n"
"                                          word is followed by the syscall's ns\n"
"  modload --span LOADMODE FILE [PARAMS]   the same, followed by the syscall's start\n"
"                                          and end ns and the CPUs before and after\n"
"  modload --help\n"
"\n"
"PARAMS defaults to \"\".  Prints one line on stdout: OK, or the errno name\n"
"(EKEYREJECTED, ENOENT, ...; E<n> if unknown).\n"
"Exit: 0 loaded / errname matched, 1 kernel refused, 2 usage error,\n"
"errname no match, or FILE not openable/readable.\n";

/* Print one result line; returns 0 or -1 if stdout could not be written. */
static int emit(const char *line)
{
	if (puts(line) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "modload: writing stdout: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int emit_errno(int err)
{
	char buf[MODLOAD_ERRNAME_MAX];

	return emit(modload_errno_name(err, buf, sizeof(buf)));
}

/* FILE could not be opened or read: report on both streams, exit 2. */
static int file_failure(const char *file, int err)
{
	fprintf(stderr, "modload: %s: %s\n", file, strerror(err));
	emit_errno(err);
	return EXIT_USAGE;
}

/* Nanoseconds on CLOCK_MONOTONIC. */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* When the last load syscall ran, and on which CPUs (sys_finit, sys_init). */
static struct {
	long long start, end;
	int cpu_start, cpu_end;
} span;

static void span_begin(void)
{
	span.cpu_start = sched_getcpu();
	span.start = now_ns();
}

static void span_end(void)
{
	span.end = now_ns();
	span.cpu_end = sched_getcpu();
}

/* Kernel verdict: 0 means loaded; with @timed, the syscall's duration too. */
static int load_result(int err, int timed)
{
	char buf[MODLOAD_ERRNAME_MAX];
	char line[MODLOAD_ERRNAME_MAX + 96];
	const char *word = err ? modload_errno_name(err, buf, sizeof(buf)) : "OK";

	if (timed == MODLOAD_TIMED_DURATION) {
		snprintf(line, sizeof(line), "%s %lld", word,
			 span.end - span.start);
		word = line;
	} else if (timed == MODLOAD_TIMED_SPAN) {
		snprintf(line, sizeof(line), "%s %lld %lld %d %d", word,
			 span.start, span.end, span.cpu_start, span.cpu_end);
		word = line;
	}
	if (emit(word))
		return EXIT_USAGE;
	return err ? EXIT_REFUSED : EXIT_LOADED;
}

static int grow(char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : READ_CHUNK;
	char *nbuf;

	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return ENOMEM;
		ncap *= 2;
	}
	if (ncap == *cap)
		return 0;
	nbuf = realloc(*buf, ncap);
	if (!nbuf)
		return ENOMEM;
	*buf = nbuf;
	*cap = ncap;
	return 0;
}

/* Initial buffer size: st_size if known, else READ_CHUNK; +1 to see EOF. */
static size_t size_hint(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || st.st_size <= 0 ||
	    (uintmax_t)st.st_size >= SIZE_MAX)
		return READ_CHUNK;
	return (size_t)st.st_size + 1;
}

/*
 * Read all of @fd into a malloc()ed buffer, handling short reads and
 * EINTR.  Returns 0 or an errno value; on error *bufp is NULL.
 */
static int read_all(int fd, char **bufp, size_t *lenp)
{
	char *buf = NULL;
	size_t cap = 0, len = 0;
	int err;

	err = grow(&buf, &cap, size_hint(fd));
	while (!err) {
		ssize_t n;

		if (len == cap) {
			err = grow(&buf, &cap, cap + 1);
			if (err)
				break;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		if (n == 0) {
			*bufp = buf;
			*lenp = len;
			return 0;
		}
		len += (size_t)n;
	}
	free(buf);
	*bufp = NULL;
	*lenp = 0;
	return err;
}

/* Returns 0 if loaded, else the errno from the syscall. */
static int sys_finit(int fd, const char *params, int flags)
{
	int err = 0;

	span_begin();
	if (syscall(SYS_finit_module, fd, params, flags) != 0)
		err = errno;
	span_end();
	return err;
}

static int sys_init(const void *image, size_t len, const char *params)
{
	int err = 0;

	span_begin();
	if (syscall(SYS_init_module, image, (unsigned long)len, params) != 0)
		err = errno;
	span_end();
	return err;
}

/* init mode: returns exit status. */
static int load_init(int fd, const struct modload_args *args)
{
	char *image = NULL;
	size_t len = 0;
	int err;

	err = read_all(fd, &image, &len);
	if (err)
		return file_failure(args->file, err);
	err = sys_init(image, len, args->params);
	free(image);
	return load_result(err, args->timed);
}

static int cmd_load(const struct modload_args *args)
{
	int fd, status;

	fd = open(args->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return file_failure(args->file, errno);

	if (args->mode == MODLOAD_MODE_INIT)
		status = load_init(fd, args);
	else
		status = load_result(sys_finit(fd, args->params,
					       modload_mode_flags(args->mode)),
				     args->timed);

	if (close(fd) != 0)
		fprintf(stderr, "modload: %s: close: %s\n",
			args->file, strerror(errno));
	return status;
}

static int cmd_errname(const char *message)
{
	const char *name = modload_errname_from_message(message);

	if (!name) {
		fprintf(stderr, "modload: no errno matches \"%s\"\n", message);
		return EXIT_USAGE;
	}
	return emit(name) ? EXIT_USAGE : EXIT_SUCCESS;
}

static int cmd_help(void)
{
	if (fputs(usage_text, stdout) < 0 || fflush(stdout) != 0)
		return EXIT_USAGE;
	return EXIT_SUCCESS;
}

int main(int argc, char *argv[])
{
	struct modload_args args;

	if (modload_parse_args(argc, argv, &args) != 0) {
		fprintf(stderr, "modload: %s\n%s", args.error, usage_text);
		return EXIT_USAGE;
	}

	if (modload_mode_is_load(args.mode))
		return cmd_load(&args);
	if (args.mode == MODLOAD_MODE_ERRNAME)
		return cmd_errname(args.message);
	return cmd_help();
}
