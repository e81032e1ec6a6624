// SPDX-License-Identifier: GPL-2.0
/* util.c - errors, whole-file reads, atomic outputs, hex. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

#define MIB ((size_t)1 << 20)

/*
 * A vmlinux with the DWARF of a distribution's or an allmodconfig build
 * is about 1 GiB; the raw list, its text and a bzImage are a few MB.
 */
const struct input_kind INPUT_KERNEL = { "a kernel file", 2048 * MIB };
/*
 * The limit of a decompressed module image (MODULE_MAX_IMAGE); the
 * largest modules, with their debug information, are a few hundred MB.
 */
const struct input_kind INPUT_MODULE = { "a module file", 1024 * MIB };
/*
 * About 200 bytes an entry: over two million measurements, where the
 * list of a busy server is tens of MB.  The kernel keeps every entry in
 * memory it cannot swap, so no sound system comes near it.
 */
const struct input_kind INPUT_IMA_LOG = {
	"an IMA measurement list", 512 * MIB
};
/* The largest of these, a distribution kernel's System.map, is ~10 MB. */
const struct input_kind INPUT_TEXT = { "a text file", 64 * MIB };

/* The first buffer for a file whose size stat() does not tell. */
#define READ_CHUNK ((size_t)1 << 16)

static const char *file_type(mode_t mode)
{
	if (S_ISCHR(mode))
		return "character device";
	if (S_ISBLK(mode))
		return "block device";
	if (S_ISFIFO(mode))
		return "FIFO";
	if (S_ISSOCK(mode))
		return "socket";
	if (S_ISDIR(mode))
		return "directory";
	return "special file";
}

static void refuse_type(const char *path, mode_t mode)
{
	fail_at(path, "not a regular file (%s)", file_type(mode));
}

static void refuse_size(const char *path, const struct input_kind *kind)
{
	if (kind->max % (1024 * MIB) == 0)
		fail_at(path, "larger than %zu GiB, the limit for %s",
			kind->max / (1024 * MIB), kind->name);
	else if (kind->max % MIB == 0)
		fail_at(path, "larger than %zu MiB, the limit for %s",
			kind->max / MIB, kind->name);
	else
		fail_at(path, "larger than %zu bytes, the limit for %s",
			kind->max, kind->name);
}

/*
 * Open PATH for reading if it is a regular file of at most KIND's limit;
 * *SIZE is what stat() says it holds.  O_NONBLOCK keeps open() from
 * waiting for a writer if a FIFO took the file's place after stat().
 */
static int open_regular(const char *path, const struct input_kind *kind,
			size_t *size)
{
	struct stat st;
	int fd, flags;

	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		refuse_type(path, st.st_mode);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fail_at(path, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		fail_at(path, "cannot stat: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		refuse_type(path, st.st_mode);
	} else if ((uintmax_t)st.st_size > kind->max) {
		refuse_size(path, kind);
	} else {
		flags = fcntl(fd, F_GETFL);
		if (flags >= 0 && !fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)) {
			*size = (size_t)st.st_size;
			return fd;
		}
		fail_at(path, "cannot open: %s", strerror(errno));
	}
	close(fd);
	return -1;
}

/*
 * Read FD to its end into *BUF, at most KIND's limit: the buffer starts
 * one byte past HINT (the expected size) so that the end is seen without
 * growing it, and never grows past the limit plus the byte that tells
 * the input is longer.
 */
static int read_fd(int fd, const char *path, const struct input_kind *kind,
		   size_t hint, unsigned char **buf, size_t *len)
{
	size_t size = 0, cap = hint >= READ_CHUNK ? hint + 1 : READ_CHUNK;
	unsigned char *data;

	if (cap > kind->max + 1)
		cap = kind->max + 1;
	data = malloc(cap);
	for (;;) {
		ssize_t n;

		if (!data) {
			fail_at(path, "out of memory");
			break;
		}
		if (size == cap) {
			unsigned char *bigger;

			if (cap > kind->max) {
				refuse_size(path, kind);
				break;
			}
			cap = cap > kind->max / 2 ? kind->max + 1 : cap * 2;
			bigger = realloc(data, cap);
			if (!bigger) {
				fail_at(path, "out of memory at %zu bytes", size);
				break;
			}
			data = bigger;
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
			*buf = data;
			*len = size;
			return 0;
		}
		size += (size_t)n;
	}
	free(data);
	return -1;
}

int read_whole_file(const char *path, const struct input_kind *kind,
		    unsigned char **buf, size_t *len)
{
	size_t hint = 0;
	int fd, ret;

	if (!strcmp(path, "-"))
		return read_fd(STDIN_FILENO, path, kind, 0, buf, len);
	fd = open_regular(path, kind, &hint);
	if (fd < 0)
		return -1;
	ret = read_fd(fd, path, kind, hint, buf, len);
	close(fd);
	return ret;
}

/* The mode a new file gets: 0666 less the process's umask. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(077);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * The file OUT_OPEN writes for PATH: PATH itself, or with
 * OUT_FOLLOW_SYMLINKS the file a symbolic link at PATH leads to (which
 * must exist).  Never a symbolic link nor anything but a regular file,
 * which rename() would replace.  Malloc'ed, or NULL after fail_at().
 */
static char *output_target(const char *path, unsigned int flags)
{
	struct stat st;
	char *target;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return strdup(path);
		fail_at(path, "cannot stat: %s", strerror(errno));
		return NULL;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!(flags & OUT_FOLLOW_SYMLINKS)) {
			fail_at(path, "is a symbolic link: not written through "
				"(--follow-symlinks writes its target)");
			return NULL;
		}
		target = realpath(path, NULL);
		if (!target) {
			fail_at(path, "cannot follow the symbolic link: %s",
				strerror(errno));
			return NULL;
		}
		if (stat(target, &st)) {
			fail_at(target, "cannot stat: %s", strerror(errno));
			free(target);
			return NULL;
		}
	} else {
		target = strdup(path);
	}
	if (target && !S_ISREG(st.st_mode)) {
		fail_at(path, "not a regular file (%s): not replaced",
			file_type(st.st_mode));
		free(target);
		return NULL;
	}
	return target;
}

FILE *out_open(struct out_file *out, const char *path, unsigned int flags)
{
	int fd;

	memset(out, 0, sizeof(*out));
	if (strcmp(path, "-") == 0) {
		out->fp = stdout;
		return out->fp;
	}
	out->path = output_target(path, flags);
	if (!out->path)
		return NULL;
	out->tmp = malloc(strlen(out->path) + sizeof(".XXXXXX"));
	if (!out->tmp) {
		fail_at(path, "out of memory");
		out_abort(out);
		return NULL;
	}
	strcpy(out->tmp, out->path);
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
	/* mkstemp() makes it 0600; a new output is made as open() would. */
	if (fchmod(fd, new_file_mode())) {
		fail_at(out->tmp, "cannot set its mode: %s", strerror(errno));
		close(fd);
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
