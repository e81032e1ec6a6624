/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixtures.h - test fixtures made at test time with real tools (cc, ld,
 * strip, gzip, ...) in a temporary directory, and small file helpers.
 */
#ifndef MODHASH_TEST_FIXTURES_H
#define MODHASH_TEST_FIXTURES_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char fixture_dir[64];

/* A fresh temporary directory for the test program's fixtures. */
static inline const char *fixture_start(void)
{
	strcpy(fixture_dir, "/tmp/modhash-test.XXXXXX");
	if (!mkdtemp(fixture_dir)) {
		perror("mkdtemp");
		exit(1);
	}
	return fixture_dir;
}

static inline void fixture_end(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture_dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", fixture_dir);
}

/* A cmocka group teardown that only removes the fixtures. */
static inline int fixture_teardown(void **state)
{
	(void)state;
	fixture_end();
	return 0;
}

/* Run a shell command in the fixture directory; its exit status. */
static inline int fixture_sh(const char *fmt, ...)
{
	char cmd[4096];
	int n;
	va_list ap;

	n = snprintf(cmd, sizeof(cmd), "cd '%s' && ", fixture_dir);
	va_start(ap, fmt);
	vsnprintf(cmd + n, sizeof(cmd) - (size_t)n, fmt, ap);
	va_end(ap);
	n = system(cmd);
	return n == -1 ? -1 : WEXITSTATUS(n);
}

/* The path of NAME in the fixture directory (a static buffer). */
static inline const char *fixture_path(const char *name)
{
	static char path[2][512];
	static int which;

	which ^= 1;
	snprintf(path[which], sizeof(path[which]), "%s/%s", fixture_dir, name);
	return path[which];
}

/*
 * Read a fixture file into malloc'ed memory (NULL if it cannot), with a NUL
 * after its bytes so that text fixtures can be used as C strings.
 */
static inline unsigned char *fixture_read(const char *name, size_t *len)
{
	FILE *fp = fopen(fixture_path(name), "rb");
	unsigned char *buf = NULL;
	long size;

	*len = 0;
	if (!fp)
		return NULL;
	if (!fseek(fp, 0, SEEK_END) && (size = ftell(fp)) >= 0 &&
	    !fseek(fp, 0, SEEK_SET)) {
		buf = malloc((size_t)size + 1);
		if (buf && fread(buf, 1, (size_t)size, fp) != (size_t)size) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[size] = '\0';
		}
		*len = (size_t)size;
	}
	fclose(fp);
	return buf;
}

static inline int fixture_write(const char *name, const void *buf, size_t len)
{
	FILE *fp = fopen(fixture_path(name), "wb");
	int ret;

	if (!fp)
		return -1;
	ret = fwrite(buf, 1, len, fp) == len ? 0 : -1;
	return fclose(fp) ? -1 : ret;
}

#endif
