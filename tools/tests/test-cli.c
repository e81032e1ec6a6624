// SPDX-License-Identifier: GPL-2.0
/*
 * test-cli.c - the command line every command shares, run as a user runs
 * it: --version and -V (the changelog's version, the format, the
 * features), usage errors in one line and a hint, -q and -v with the
 * same meaning everywhere, and one meaning for each short option across
 * the commands' help.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/hash_info.h>
#include <linux/module_hashes.h>

#include "commands.h"
#include "fixtures.h"
#include "format.h"
#include "log-builder.h"
#include "module-lists.h"
#include "util.h"

struct cmd {
	const char *name;
	int (*run)(int, char **);
};

static const struct cmd cmds[] = {
	{ "list", cmd_list }, { "check", cmd_check }, { "diff", cmd_diff },
	{ "export", cmd_export }, { "verify-log", cmd_verify_log },
	{ "lint-policy", cmd_lint_policy }, { "generate", cmd_generate },
};

#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static const struct cmd *find(const char *name)
{
	size_t i;

	for (i = 0; i < N_CMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	fail_msg("no command %s", name);
	return NULL;
}

/*
 * Run "modhash NAME ARGS..." as main() would (progname "modhash NAME"),
 * its stdout in the fixture file "out" and its stderr in "err".
 */
static int run(const char *name, ...)
{
	static char progbuf[64];
	const struct cmd *c = find(name);
	char *argv[24];
	int argc = 1, saved, saved_err, fd, ret;
	va_list ap;

	argv[0] = (char *)name;
	va_start(ap, name);
	while (argc < 23 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	snprintf(progbuf, sizeof(progbuf), "modhash %s", name);
	progname = progbuf;
	fflush(stdout);
	fflush(stderr);
	saved = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	fd = open(fixture_path("out"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	fd = open(fixture_path("err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDERR_FILENO);
	close(fd);
	optind = 0;
	ret = c->run(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved);
	close(saved_err);
	progname = "modhash";
	return ret;
}

static char dir[64];

static char *p(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

/* The list's own entry, as the kernel measures it (ima-buf, hashed). */
static void add_list_entry(struct blob *log, const struct allowlist *al)
{
	unsigned char once[32], twice[32];
	struct blob t = { .len = 0 };

	hash_of("sha256", al->blob, al->blob_len, once);
	hash_of("sha256", once, sizeof(once), twice);
	field_dng(&t, "sha256", twice, sizeof(twice));
	field_name(&t, "module-allowlist");
	field(&t, once, sizeof(once));
	log_add(log, "sha256", 10, "ima-buf", &t, false);
}

/*
 * m.ko and list.bin (its digest and another), other.bin (not it), the
 * tree/ of m.ko, a clean policy, and log.bin: an IMA list of the sha256
 * bank with a boot_aggregate, list.bin's entry and the load of m.ko.
 */
static int setup(void **state)
{
	unsigned char zero[32] = { 0 }, digest[32];
	struct blob *log = calloc(1, sizeof(*log));
	struct allowlist al;

	(void)state;
	strcpy(dir, fixture_start());
	if (!log || make_module_lists(&al, digest) ||
	    fixture_sh("mkdir -p tree/kernel && "
			       "cp m.ko tree/kernel/ && echo kernel/m.ko > tree/modules.order && "
			       "printf 'measure func=MODULE_CHECK\\nmeasure func=CRITICAL_DATA "
			       "label=module_hashes\\nmeasure func=CRITICAL_DATA label=modules\\n' "
			       "> clean.policy"))
		return -1;
	log_add_ng(log, "sha256", "boot_aggregate", "sha256", zero, 32);
	add_list_entry(log, &al);
	log_add_ng(log, "sha256", "/lib/modules/r/kernel/m.ko", "sha256", digest, 32);
	if (fixture_write("log.bin", log->data, log->len))
		return -1;
	free(log);
	allowlist_free(&al);
	return 0;
}

/*
 * --version and -V of every command: exit 0, the version of the first
 * entry of debian/changelog, the format version of the UAPI header and
 * the compressions and checks the program has, all the same everywhere.
 */
static void test_version(void **state)
{
	static const char *const flags[] = { "--version", "-V" };
	size_t i, j;

	(void)state;
	assert_int_equal(fixture_sh("sed -n '1s/^modhash (\\(.*\\)) .*/modhash \\1/p' "
				    "'%s/debian/changelog' > want && test -s want",
				    TOOLS_DIR), 0);
	for (i = 0; i < N_CMDS; i++) {
		for (j = 0; j < 2; j++) {
			assert_int_equal(run(cmds[i].name, flags[j], NULL), 0);
			assert_int_equal(fixture_sh(
				"head -n 1 out | cmp -s - want && test ! -s err && "
				"sed -n 2p out | grep -qx 'allowlist format: KMODHASH version %d (<linux/module_hashes.h>)' && "
				"sed -n 3p out | grep -q '^+GZIP +XZ +ZSTD +LZ4 +BZIP2 +LZMA +IMA-SIG +TPM2-QUOTE' && "
				"test $(wc -l < out) = 3", MODULE_HASHES_VERSION), 0);
		}
	}
	/* Before any other option or argument is looked at. */
	assert_int_equal(run("check", "--version", "-k", "/nonexistent", "x",
			     NULL), 0);
}

/*
 * ERR is the two lines "modhash NAME: WHAT" and "Try 'modhash NAME
 * --help'.", and nothing was written on stdout.
 */
static int usage_error_is(const char *name, const char *what)
{
	char want[512];
	int n = snprintf(want, sizeof(want), "modhash %s: %s\nTry 'modhash %s --help'.\n",
			 name, what, name);

	if (fixture_write("want-err", want, (size_t)n))
		return -1;
	if (!fixture_sh("cmp -s want-err err && test ! -s out"))
		return 0;
	fixture_sh("sed 's/^/# got: /' err out >&2");
	return 1;
}

static void test_usage_errors(void **state)
{
	(void)state;
	assert_int_equal(run("list", NULL), 2);
	assert_int_equal(usage_error_is("list", "missing KERNEL"), 0);
	assert_int_equal(run("list", p("list.bin"), p("list.bin"), NULL), 2);
	assert_int_equal(fixture_sh("grep -qx \"modhash list: too many arguments: '.*/list.bin' after KERNEL\" err && "
				    "grep -qx \"Try 'modhash list --help'.\" err && test $(wc -l < err) = 2"), 0);
	assert_int_equal(run("list", "--bogus", p("list.bin"), NULL), 2);
	assert_int_equal(usage_error_is("list", "unknown option '--bogus'"), 0);
	assert_int_equal(run("list", p("list.bin"), "-f", NULL), 2);
	assert_int_equal(usage_error_is("list", "option '-f' needs an argument"), 0);
	assert_int_equal(run("list", p("list.bin"), "--output", NULL), 2);
	assert_int_equal(usage_error_is("list", "option '--output' needs an argument"), 0);
	assert_int_equal(run("check", "-qZ", p("m.ko"), NULL), 2);
	assert_int_equal(usage_error_is("check", "unknown option '-Z'"), 0);
	assert_int_equal(run("check", "--help=x", NULL), 2);
	assert_int_equal(usage_error_is("check", "option '--help' takes no argument"), 0);
	assert_int_equal(run("check", "-k", p("list.bin"), NULL), 2);
	assert_int_equal(usage_error_is("check", "missing FILE|DIR: the module files to check"), 0);
	assert_int_equal(run("diff", p("list.bin"), NULL), 2);
	assert_int_equal(usage_error_is("diff", "missing KERNEL_B"), 0);
	assert_int_equal(run("export", "-m", p("tree"), p("list.bin"), NULL), 2);
	assert_int_equal(usage_error_is("export", "missing --format (sha256sum or keylime)"), 0);
	assert_int_equal(run("export", "-f", "keylime", p("list.bin"), NULL), 2);
	assert_int_equal(usage_error_is("export", "missing --modules DIR"), 0);
	assert_int_equal(run("verify-log", "-k", p("list.bin"), NULL), 2);
	assert_int_equal(usage_error_is("verify-log", "missing LOG"), 0);
	assert_int_equal(run("verify-log", p("log.bin"), NULL), 2);
	assert_int_equal(usage_error_is("verify-log", "missing --kernel KERNEL"), 0);
	assert_int_equal(run("lint-policy", NULL), 2);
	assert_int_equal(usage_error_is("lint-policy", "missing FILE: the policy to check"), 0);
	assert_int_equal(run("lint-policy", "-x", p("clean.policy"), NULL), 2);
	assert_int_equal(usage_error_is("lint-policy", "unknown option '-x'"), 0);
	assert_int_equal(run("generate", NULL), 2);
	assert_int_equal(usage_error_is("generate", "missing SOURCE: a modules.order, a module file or a directory"), 0);
	assert_int_equal(run("generate", "--forms", "all", p("m.ko"), NULL), 2);
	assert_int_equal(usage_error_is("generate", "unknown forms 'all' (built, stripped, built,stripped)"), 0);
}

/* Did the last command print nothing at all? 0 if so. */
static int silent(void)
{
	return fixture_sh("test ! -s out && test ! -s err");
}

/* -q: nothing on stdout or stderr when all is well; -v: more on stderr. */
static void test_quiet_verbose(void **state)
{
	(void)state;
	/* check: the summary goes, a refused module stays. */
	assert_int_equal(run("check", "-k", p("list.bin"), p("m.ko"), NULL), 0);
	assert_int_equal(fixture_sh("grep -q '^# 1 module: 1 listed' out"), 0);
	assert_int_equal(run("check", "--quiet", "-k", p("list.bin"), p("m.ko"), NULL), 0);
	assert_int_equal(silent(), 0);
	assert_int_equal(run("check", "-q", "-k", p("other.bin"), p("m.ko"), NULL), 1);
	assert_int_equal(fixture_sh("grep -c . out | grep -qx 1 && grep -q 'm.ko	not-listed' out"), 0);
	assert_int_equal(run("check", "-v", "-k", p("list.bin"), p("m.ko"), NULL), 0);
	assert_int_equal(fixture_sh("grep -qx 'modhash check: .*/list.bin: a raw list, 2 sha256 digests' err && "
				    "grep -q '^# 1 module: 1 listed' out"), 0);
	/* diff: silent when identical; the changes alone when not. */
	assert_int_equal(run("diff", "-q", p("list.bin"), p("list.bin"), NULL), 0);
	assert_int_equal(silent(), 0);
	assert_int_equal(run("diff", "-q", p("list.bin"), p("other.bin"), NULL), 1);
	assert_int_equal(fixture_sh("grep -c . out | grep -qx 1 && grep -q '^- sha256:' out"), 0);
	assert_int_equal(run("diff", "--verbose", p("list.bin"), p("other.bin"), NULL), 1);
	assert_int_equal(fixture_sh("grep -c 'modhash diff: .*: a raw list' err | grep -qx 2"), 0);
	/* list and generate write their list either way; -v says so. */
	assert_int_equal(run("list", "-q", "-o", p("q.hex"), p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("test ! -s out && test ! -s err && test -s q.hex"), 0);
	assert_int_equal(run("list", "-v", "-o", p("v.hex"), p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("cmp q.hex v.hex && grep -qx 'modhash list: .*/v.hex: 2 digests as hex' err"), 0);
	assert_int_equal(run("generate", "-q", "-f", "hex", "-o", p("g.hex"), p("m.ko"), NULL), 0);
	assert_int_equal(silent(), 0);
	assert_int_equal(run("generate", "-v", "-f", "hex", p("tree"), NULL), 0);
	assert_int_equal(fixture_sh("grep -qx 'modhash generate: .*/tree: module files, 1 digest' err && "
				    "grep -qx 'modhash generate: (stdout): 1 sha256 digests' err"), 0);
	/* export: -q drops the warning that leaves the exit status at 0. */
	assert_int_equal(run("export", "-f", "keylime", "-m", p("tree"), "-o",
			     p("k.json"), p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("grep -q 'warning: no boot_aggregate' err"), 0);
	assert_int_equal(run("export", "-q", "-f", "keylime", "-m", p("tree"),
			     "-o", p("k.json"), p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("test ! -s out && test ! -s err && test -s k.json"), 0);
	assert_int_equal(run("export", "-v", "-f", "sha256sum", "-m", p("tree"),
			     p("list.bin"), NULL), 0);
	assert_int_equal(fixture_sh("grep -q 'modhash export: .*/tree: 1 module files, 1 exported under /lib/modules/tree' err"), 0);
	/* lint-policy: a line a file under -v. */
	assert_int_equal(run("lint-policy", "-q", p("clean.policy"), NULL), 0);
	assert_int_equal(silent(), 0);
	assert_int_equal(run("lint-policy", "-v", p("clean.policy"), NULL), 0);
	assert_int_equal(fixture_sh("grep -qx 'modhash lint-policy: .*/clean.policy: 3 rules, 0 errors, 0 warnings' err"), 0);
	/* verify-log: the report goes under -q, offending entries stay. */
	assert_int_equal(run("verify-log", "-k", p("list.bin"), p("log.bin"), NULL), 0);
	assert_int_equal(fixture_sh("grep -q '^modules: 1 loads, 1 on the allowlist' out"), 0);
	assert_int_equal(run("verify-log", "-q", "-k", p("list.bin"), p("log.bin"), NULL), 0);
	assert_int_equal(silent(), 0);
	assert_int_equal(run("verify-log", "-q", "-k", p("other.bin"), p("log.bin"), NULL), 1);
	assert_int_equal(fixture_sh("grep -q '^offending: entry 2 .*m.ko' out && "
				    "! grep -q '^listed' out && ! grep -q '^modules:' out"), 0);
	assert_int_equal(run("verify-log", "-v", "-k", p("list.bin"), p("log.bin"), NULL), 0);
	assert_int_equal(fixture_sh("grep -qx 'modhash verify-log: .*/log.bin: a binary list, sha256 bank, told from its entries' err"), 0);
}

/*
 * One meaning for each short option: from every command's --help, the
 * pairs "-X, --LONG"; a letter never stands for two long options.  And
 * the letters that changed their meaning in verify-log are refused, not
 * reinterpreted, while their long options work on.
 */
static void test_short_options(void **state)
{
	char pcrs[300];
	size_t i;

	(void)state;
	assert_int_equal(fixture_sh("rm -f pairs"), 0);
	for (i = 0; i < N_CMDS; i++) {
		assert_int_equal(run(cmds[i].name, "--help", NULL), 0);
		assert_int_equal(fixture_sh("sed -nE 's/^ +(-[A-Za-z]), (--[a-z0-9-]+).*/\\1 \\2/p' out >> pairs"), 0);
	}
	assert_int_equal(fixture_sh("sort -u pairs > letters && "
				    "test \"$(cut -d' ' -f1 letters | uniq -d)\" = '' && "
				    "grep -qx -- '-m --modules' letters && grep -qx -- '-p --prefix' letters && "
				    "grep -qx -- '-q --quiet' letters && grep -qx -- '-v --verbose' letters && "
				    "grep -qx -- '-V --version' letters && grep -qx -- '-o --output' letters"), 0);
	assert_int_equal(run("verify-log", "-k", p("list.bin"), "-p", p("x"), p("log.bin"), NULL), 2);
	assert_int_equal(usage_error_is("verify-log", "unknown option '-p'"), 0);
	assert_int_equal(run("verify-log", "-k", p("list.bin"), "-m", "/lib/", p("log.bin"), NULL), 2);
	assert_int_equal(usage_error_is("verify-log", "unknown option '-m'"), 0);
	assert_int_equal(run("verify-log", "-k", p("list.bin"), "--module-path", "/lib/modules/",
			     p("log.bin"), NULL), 0);
	snprintf(pcrs, sizeof(pcrs), "sha256,%s", p("absent"));
	assert_int_equal(run("verify-log", "-k", p("list.bin"), "--pcrs", pcrs,
			     p("log.bin"), NULL), 2);
	assert_int_equal(fixture_sh("grep -q 'absent' err && ! grep -q Try err"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_quiet_verbose),
		cmocka_unit_test(test_short_options),
	};

	return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
