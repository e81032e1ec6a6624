// SPDX-License-Identifier: GPL-2.0
/*
 * test-read-file.c - read_whole_file(), the one way modhash reads its
 * inputs: regular files whole, stdin and files of unknown size up to a
 * limit, and everything else (devices, FIFOs, sockets, directories)
 * refused with one line, without blocking or reading.  SIGALRM ends a
 * test that blocks, so a regression fails instead of hanging.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtures.h"
#include "util.h"

/* A limit small enough to cross with a pipe's buffer. */
static const struct input_kind tiny = { "a tiny test file", 16 };

static unsigned char *buf;
static size_t len;
static char err[512];

/*
 * read_whole_file(PATH, KIND) with its stderr in err[]; what it returns.
 * The alarm fails the test program if the read blocks.
 */
static int read_file(const char *path, const struct input_kind *kind)
{
	char name[] = "/tmp/modhash-read-err.XXXXXX";
	int fd = mkstemp(name), saved = dup(STDERR_FILENO), ret;
	ssize_t n;

	assert_true(fd >= 0 && saved >= 0);
	unlink(name);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	buf = NULL;
	alarm(10);
	ret = read_whole_file(path, kind, &buf, &len);
	alarm(0);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, err, sizeof(err) - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	return ret;
}

/* Refused with exactly the line "modhash: PATH: WHY". */
static void assert_refused(const char *path, const struct input_kind *kind,
			   const char *why)
{
	char line[512];

	assert_int_equal(read_file(path, kind), -1);
	snprintf(line, sizeof(line), "modhash: %s: %s\n", path, why);
	assert_string_equal(err, line);
}

/* Run read_file("-") with a pipe holding LEN bytes of 'x' as stdin. */
static int read_stdin_pipe(size_t n, const struct input_kind *kind)
{
	char data[1024];
	int fds[2], saved = dup(STDIN_FILENO), ret;

	assert_true(n <= sizeof(data) && saved >= 0 && !pipe(fds));
	memset(data, 'x', n);
	assert_int_equal(write(fds[1], data, n), (ssize_t)n);
	close(fds[1]);
	dup2(fds[0], STDIN_FILENO);
	close(fds[0]);
	ret = read_file("-", kind);
	dup2(saved, STDIN_FILENO);
	close(saved);
	return ret;
}

static int setup(void **state)
{
	(void)state;
	fixture_start();
	return fixture_sh("printf 0123456789abcdef > exact && "
			  "printf 0123456789abcdefg > over && : > empty && "
			  "mkfifo fifo && mkdir dir && "
			  "truncate -s 3G sparse-kernel && "
			  "truncate -s 513M sparse-log");
}

static void test_regular(void **state)
{
	(void)state;
	assert_int_equal(read_file(fixture_path("exact"), &tiny), 0);
	assert_int_equal(len, 16);
	assert_memory_equal(buf, "0123456789abcdef", 16);
	free(buf);
	assert_int_equal(read_file(fixture_path("empty"), &INPUT_TEXT), 0);
	assert_int_equal(len, 0);
	free(buf);
	assert_string_equal(err, "");
}

static void test_over_the_limit(void **state)
{
	(void)state;
	assert_refused(fixture_path("over"), &tiny,
		       "larger than 16 bytes, the limit for a tiny test file");
	/* Sparse: refused by its size, before a byte is read. */
	assert_refused(fixture_path("sparse-kernel"), &INPUT_KERNEL,
		       "larger than 2 GiB, the limit for a kernel file");
	assert_refused(fixture_path("sparse-log"), &INPUT_IMA_LOG,
		       "larger than 512 MiB, the limit for an IMA measurement list");
}

static void test_not_regular(void **state)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int sock = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)state;
	assert_refused("/dev/zero", &INPUT_KERNEL,
		       "not a regular file (character device)");
	assert_refused("/dev/null", &INPUT_TEXT,
		       "not a regular file (character device)");
	/* No writer: opening it for reading would wait for one. */
	assert_refused(fixture_path("fifo"), &INPUT_IMA_LOG,
		       "not a regular file (FIFO)");
	assert_refused(fixture_path("dir"), &INPUT_TEXT,
		       "not a regular file (directory)");
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s",
		 fixture_path("sock"));
	assert_true(sock >= 0);
	assert_int_equal(bind(sock, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_refused(fixture_path("sock"), &INPUT_MODULE,
		       "not a regular file (socket)");
	close(sock);
	assert_int_equal(read_file(fixture_path("absent"), &INPUT_TEXT), -1);
	assert_non_null(strstr(err, "absent: cannot open: No such file"));
}

static void test_stdin(void **state)
{
	(void)state;
	assert_int_equal(read_stdin_pipe(16, &tiny), 0);
	assert_int_equal(len, 16);
	free(buf);
	/* An endless pipe is cut at the limit too. */
	assert_int_equal(read_stdin_pipe(17, &tiny), -1);
	assert_string_equal(err, "modhash: -: larger than 16 bytes, "
			    "the limit for a tiny test file\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular),
		cmocka_unit_test(test_over_the_limit),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_stdin),
	};

	return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
