// SPDX-License-Identifier: GPL-2.0
/* util.c - errors, whole-file reads, atomic outputs, hex. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

const char *progname = "modhash";

void fail_at(const char *file, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	if (file)
		fprintf(stderr, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int read_whole_file(const char *path, unsigned char **buf, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	size_t size = 0, cap = 1 << 16;
	unsigned char *data;

	if (fd < 0) {
		fail_at(path, "cannot open: %s", strerror(errno));
		return -1;
	}
	data = malloc(cap);
	for (;;) {
		ssize_t n;

		if (!data) {
			fail_at(path, "out of memory");
			break;
		}
		if (size == cap) {
			unsigned char *bigger = realloc(data, cap * 2);

			if (!bigger) {
				fail_at(path, "out of memory at %zu bytes", size);
				break;
			}
			data = bigger;
			cap *= 2;
		}
		n = read(fd, data + size, cap - size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail_at(path, "read error at offset %zu: %s", size,
				strerror(errno));
			break;
		}
		if (n == 0) {
			if (!is_stdin)
				close(fd);
			*buf = data;
			*len = size;
			return 0;
		}
		size += (size_t)n;
	}
	free(data);
	if (!is_stdin)
		close(fd);
	return -1;
}

FILE *out_open(struct out_file *out, const char *path)
{
	int fd;

	memset(out, 0, sizeof(*out));
	if (strcmp(path, "-") == 0) {
		out->fp = stdout;
		return out->fp;
	}
	out->path = strdup(path);
	out->tmp = malloc(strlen(path) + sizeof(".XXXXXX"));
	if (!out->path || !out->tmp) {
		fail_at(path, "out of memory");
		out_abort(out);
		return NULL;
	}
	strcpy(out->tmp, path);
	strcat(out->tmp, ".XXXXXX");
	fd = mkstemp(out->tmp);
	if (fd < 0) {
		fail_at(path, "cannot create a temporary file next to it: %s",
			strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		out_abort(out);
		return NULL;
	}
	out->fp = fdopen(fd, "w");
	if (!out->fp) {
		close(fd);
		out_abort(out);
		return NULL;
	}
	return out->fp;
}

int out_commit(struct out_file *out)
{
	int err = 0;

	if (!out->path) {
		if (fflush(stdout) || ferror(stdout)) {
			fail_at("(stdout)", "write error: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (ferror(out->fp) || fflush(out->fp) || fsync(fileno(out->fp)))
		err = errno ? errno : EIO;
	if (fclose(out->fp) && !err)
		err = errno;
	out->fp = NULL;
	if (!err && rename(out->tmp, out->path))
		err = errno;
	if (err) {
		fail_at(out->path, "cannot write: %s", strerror(err));
		out_abort(out);
		return -1;
	}
	free(out->tmp);
	free(out->path);
	out->tmp = out->path = NULL;
	return 0;
}

void out_abort(struct out_file *out)
{
	if (out->fp && out->fp != stdout)
		fclose(out->fp);
	if (out->tmp)
		unlink(out->tmp);
	free(out->tmp);
	free(out->path);
	memset(out, 0, sizeof(*out));
}

void hex_encode(const unsigned char *bytes, size_t len, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[bytes[i] >> 4];
		hex[2 * i + 1] = digits[bytes[i] & 15];
	}
	hex[2 * len] = '\0';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool hex_decode(const char *hex, unsigned char *bytes, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int hi = hex_value(hex[2 * i]);
		int lo = hi < 0 ? -1 : hex_value(hex[2 * i + 1]);

		if (lo < 0)
			return false;
		bytes[i] = (unsigned char)(hi << 4 | lo);
	}
	return hex[2 * len] == '\0';
}
