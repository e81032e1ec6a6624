/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-command.h - run a modhash subcommand in the test process, its
 * standard output and error captured in a file, and read them back.
 */
#ifndef MODHASH_TEST_RUN_COMMAND_H
#define MODHASH_TEST_RUN_COMMAND_H

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Run CMD with the NULL-terminated ARGV; its output (stdout then stderr,
 * interleaved as written) lands in OUT (SIZE bytes, NUL-terminated).
 * Returns the command's exit status.
 */
static inline int run_command(int (*cmd)(int, char **), char **argv,
			      char *out, size_t size)
{
	char path[] = "/tmp/modhash-test-out.XXXXXX";
	int fd = mkstemp(path), saved_out = dup(1), saved_err = dup(2);
	int argc = 0, rc;
	ssize_t n;

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	optind = 0;		/* a fresh getopt for each command */
	rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	n = pread(fd, out, size - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

/* Write LEN bytes to a new file DIR/NAME; returns its path (static). */
static inline const char *write_file(const char *dir, const char *name,
				     const void *data, size_t len)
{
	static char paths[8][512];
	static int next;
	char *path = paths[next++ % 8];
	FILE *fp;

	snprintf(path, sizeof(paths[0]), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp))
		abort();
	return path;
}

#endif
