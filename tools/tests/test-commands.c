// SPDX-License-Identifier: GPL-2.0
/*
 * test-commands.c - the commands as a user runs them (their argv, their
 * exit codes, their output files) on a list made here from the digest of
 * a module compiled here: check, list, diff and export, and --help and
 * bad usage on each; inputs that never end (devices, a FIFO without a
 * writer) and directories refused by every command with one line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/hash_info.h>

#include "commands.h"
#include "fixtures.h"
#include "format.h"
#include "module-lists.h"

/*
 * Run a command with its standard output in FILE and its standard error
 * in "err" (in the fixture dir).
 */
static int run(int (*cmd)(int, char **), const char *out, ...)
{
	char *argv[16];
	int argc = 0, saved, saved_err, fd, ret;
	va_list ap;

	va_start(ap, out);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	fd = open(fixture_path(out), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	fd = open(fixture_path("err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDERR_FILENO);
	close(fd);
	optind = 0;	/* a fresh getopt: not every command resets it */
	ret = cmd(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved);
	close(saved_err);
	return ret;
}

static char dir[64];

static const char *p(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

/* m.ko, and list.bin holding its digest and another; other.bin: not it. */
static int setup(void **state)
{
	(void)state;
	strcpy(dir, fixture_start());
	if (make_module_lists(NULL, NULL) ||
	    fixture_sh("cp m.ko t.ko && "
		       "printf x | dd of=t.ko bs=1 seek=80 conv=notrunc 2>/dev/null && "
		       "xz -c m.ko > m.ko.xz"))
		return -1;
	return 0;
}

static void test_check(void **state)
{
	(void)state;
	assert_int_equal(run(cmd_check, "out", "check", "-k", p("list.bin"),
			     p("m.ko"), p("m.ko.xz"), NULL), 0);
	assert_int_equal(fixture_sh("grep -c '	listed	sha256:' out | grep -qx 2"), 0);
	assert_int_equal(run(cmd_check, "out", "check", "--kernel", p("list.bin"),
			     p("m.ko"), p("t.ko"), NULL), 1);
	assert_int_equal(fixture_sh("grep -q 't.ko	not-listed	' out"), 0);
	assert_int_equal(run(cmd_check, "out", "check", "-q", "-k",
			     p("list.bin"), p("m.ko"), p("t.ko"), NULL), 1);
	assert_int_equal(fixture_sh("! grep -q 'm.ko	' out"), 0);
	assert_int_equal(run(cmd_check, "out", "check", "-k", p("m.c"),
			     p("m.ko"), NULL), 2);
	assert_int_equal(fixture_sh("grep -q '^modhash: .*/m.c: not a module "
				    "allowlist.* (offset 0)$' err"), 0);
	assert_int_equal(run(cmd_check, "out", "check", "-k", p("list.bin"),
			     p("absent.ko"), NULL), 2);
}

static void test_list_and_diff(void **state)
{
	(void)state;
	assert_int_equal(run(cmd_list, "out", "list", "--format=raw",
			     p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("cmp out list.bin"), 0);
	assert_int_equal(run(cmd_list, "out", "list", "-f", "sha256sum",
			     "-m", dir, p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("sha256sum -c --quiet out 2>/dev/null && "
				    "grep -q '^[0-9a-f]*  .*/m.ko$' out"), 0);
	assert_int_equal(run(cmd_list, "out", "list", "-f", "yaml",
			     p("list.bin"), NULL), 2);
	assert_int_equal(run(cmd_diff, "out", "diff", p("list.bin"),
			     p("list.bin"), NULL), 0);
	assert_int_equal(run(cmd_diff, "out", "diff", "--modules-a", dir,
			     p("list.bin"), p("other.bin"), NULL), 1);
	assert_int_equal(fixture_sh("grep -q '^- sha256:.*/m.ko (as-installed)' out && "
				    "grep -qx '# added 0, removed 1, common 1' out"), 0);
	assert_int_equal(run(cmd_diff, "out", "diff", p("list.bin"), NULL), 2);
}

static void test_export(void **state)
{
	(void)state;
	assert_int_equal(fixture_sh("mkdir -p tree/kernel && cp m.ko tree/kernel/ && "
				    "echo kernel/m.ko > tree/modules.order"), 0);
	assert_int_equal(run(cmd_export, "out", "export", "-f", "sha256sum",
			     "-m", p("tree"), "-o", p("sums"), p("list.bin"),
			     NULL), 0);
	assert_int_equal(fixture_sh("grep -q '  /lib/modules/tree/kernel/m.ko$' sums"), 0);
	/* An installed module the list refuses: left out, exit 1. */
	assert_int_equal(fixture_sh("cp t.ko tree/kernel/ && "
				    "echo kernel/t.ko >> tree/modules.order"), 0);
	assert_int_equal(run(cmd_export, "out", "export", "--format=keylime",
			     "--modules", p("tree"), "--prefix", "/usr/lib/modules/x",
			     "-o", p("policy.json"), p("list.bin"), NULL), 1);
	assert_int_equal(fixture_sh("grep -q '\"/usr/lib/modules/x/kernel/m.ko\"' policy.json && "
				    "! grep -q 't.ko' policy.json"), 0);
	/* Errors leave no output file behind, not even a temporary one. */
	assert_int_equal(run(cmd_export, "out", "export", "-f", "keylime", "-m",
			     p("tree"), "-o", p("none.json"), p("m.c"), NULL), 2);
	assert_int_equal(fixture_sh("! ls none.json* 2>/dev/null"), 0);
	assert_int_equal(run(cmd_export, "out", "export", "-f", "xml", "-m",
			     p("tree"), p("list.bin"), NULL), 2);
}

/*
 * -o files: made with mode 0666 less the umask, like any new file; a
 * symbolic link at the path is refused (the link and its target stay as
 * they were) unless --follow-symlinks, which replaces the target and
 * keeps the link; a device is never replaced.
 */
static void test_output_files(void **state)
{
	mode_t saved = umask(022);

	(void)state;
	assert_int_equal(run(cmd_list, "out", "list", "-f", "raw", "-o",
			     p("o644"), p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("test \"$(stat -c %%a o644)\" = 644 && "
				    "cmp o644 list.bin"), 0);
	umask(027);
	assert_int_equal(run(cmd_generate, "out", "generate", "-o", p("o640"),
			     p("m.ko"), NULL), 0);
	assert_int_equal(fixture_sh("test \"$(stat -c %%a o640)\" = 640"), 0);
	umask(022);
	assert_int_equal(fixture_sh("mkdir -p tree2/kernel && cp m.ko tree2/kernel/ && "
				    "echo keep > target && ln -sf target link"), 0);
	assert_int_equal(run(cmd_export, "out", "export", "-f", "sha256sum",
			     "-m", p("tree2"), "-o", p("link"), p("list.bin"),
			     NULL), 2);
	assert_int_equal(fixture_sh("test -L link && test \"$(cat target)\" = keep && "
				    "grep -q '^modhash: .*/link: is a symbolic link' err && "
				    "test $(wc -l < err) = 1 && ! ls link.* target.* 2>/dev/null"), 0);
	assert_int_equal(run(cmd_list, "out", "list", "-f", "raw", "-o",
			     p("link"), p("list.bin"), NULL), 2);
	assert_int_equal(run(cmd_generate, "out", "generate", "-o", p("link"),
			     p("m.ko"), NULL), 2);
	assert_int_equal(fixture_sh("test -L link && test \"$(cat target)\" = keep"), 0);
	assert_int_equal(run(cmd_list, "out", "list", "-f", "raw",
			     "--follow-symlinks", "-o", p("link"), p("list.bin"),
			     NULL), 0);
	assert_int_equal(fixture_sh("test -L link && cmp target list.bin && "
				    "test \"$(stat -c %%a target)\" = 644"), 0);
	assert_int_equal(run(cmd_list, "out", "list", "-f", "raw", "-o",
			     "/dev/null", p("list.bin"), NULL), 2);
	assert_int_equal(fixture_sh("grep -q '^modhash: /dev/null: not a regular file' err"), 0);
	umask(saved);
}

/* ERR is exactly the line "modhash: FILE: not a regular file (TYPE)". */
static int refused(const char *file, const char *type)
{
	return fixture_sh("printf 'modhash: %%s: not a regular file (%%s)\\n' "
			  "'%s' '%s' | cmp -s - err", file, type);
}

/*
 * Inputs that never end, or would block: each refused at once, exit 2.
 * The alarm kills the test program if a command blocks or reads on.
 */
static void test_endless_inputs(void **state)
{
	(void)state;
	assert_int_equal(fixture_sh("mkfifo fifo && mkdir -p empty-dir"), 0);
	alarm(20);
	assert_int_equal(run(cmd_list, "out", "list", "/dev/zero", NULL), 2);
	assert_int_equal(refused("/dev/zero", "character device"), 0);
	assert_int_equal(run(cmd_check, "out", "check", "-k", p("fifo"),
			     p("m.ko"), NULL), 2);
	assert_int_equal(refused(p("fifo"), "FIFO"), 0);
	assert_int_equal(run(cmd_check, "out", "check", "-k", p("list.bin"),
			     p("fifo"), NULL), 2);
	assert_int_equal(refused(p("fifo"), "FIFO"), 0);
	assert_int_equal(run(cmd_verify_log, "out", "verify-log", "-b", "sha1",
			     "-k", p("list.bin"), "/dev/zero", NULL), 2);
	assert_int_equal(refused("/dev/zero", "character device"), 0);
	assert_int_equal(run(cmd_lint_policy, "out", "lint-policy",
			     p("empty-dir"), NULL), 2);
	assert_int_equal(refused(p("empty-dir"), "directory"), 0);
	alarm(0);
}

static void test_help_everywhere(void **state)
{
	int (*cmds[])(int, char **) = { cmd_list, cmd_check, cmd_diff,
					cmd_export };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(run(cmds[i], "out", "cmd", "--help", NULL), 0);
		assert_int_equal(fixture_sh("grep -q '^Usage: modhash ' out && "
					    "grep -q 'Exit status' out"), 0);
		assert_int_equal(run(cmds[i], "out", "cmd", "--no-such-option",
				     NULL), 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_list_and_diff),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_help_everywhere),
		cmocka_unit_test(test_endless_inputs),
		cmocka_unit_test(test_output_files),
	};

	return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
