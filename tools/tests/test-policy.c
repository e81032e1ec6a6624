// SPDX-License-Identifier: GPL-2.0
/* test-policy.c - the IMA policy grammar and the allowlist warnings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "commands.h"
#include "policy.h"
#include "util.h"
#include "run-command.h"

static void parse(const char *text, struct policy *p)
{
	assert_int_equal(policy_parse(text, strlen(text), p), 0);
	assert_int_equal(policy_lint(p), 0);
}

/* TEXT gives exactly one diagnostic: "LINE:COLUMN: [warning: ]MESSAGE". */
static void expect_one(const char *text, const char *diag)
{
	struct policy p;
	char got[600];

	parse(text, &p);
	if (p.n_diags != 1)
		fail_msg("%zu diagnostics for \"%s\"", p.n_diags, text);
	snprintf(got, sizeof(got), "%u:%u: %s%s", p.diags[0].line,
		 p.diags[0].column, p.diags[0].warning ? "warning: " : "",
		 p.diags[0].message);
	assert_string_equal(got, diag);
	policy_free(&p);
}

/* TEXT has no error (and no warning either if QUIET). */
static void expect_valid(const char *text, bool quiet)
{
	struct policy p;
	size_t i;

	parse(text, &p);
	for (i = 0; i < p.n_diags; i++)
		if (quiet || !p.diags[i].warning)
				fail_msg("\"%s\": %u:%u: %s", text, p.diags[i].line,
				 p.diags[i].column, p.diags[i].message);
	policy_free(&p);
}

/* The rules of ima-policy/, and the examples of the kernel's ABI file. */
static void test_valid_rules(void **state)
{
	static const char *const rules[] = {
		"# comment\n\n  \t\nmeasure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA label=module_hashes\n",
		"appraise func=MODULE_CHECK appraise_type=imasig",
		"appraise func=MODULE_CHECK appraise_type=imasig|modsig",
		"dont_measure fsmagic=0x9fa0\ndont_measure fsmagic=0x62656572\nmeasure func=FILE_MMAP mask=MAY_EXEC\nmeasure func=BPRM_CHECK\nmeasure func=FILE_CHECK mask=^MAY_READ uid=0",
		"dont_appraise fsmagic=0x9fa0\nappraise fowner=0",
		"measure func=KEXEC_CMDLINE\nmeasure func=KEY_CHECK keyrings=.ima|.builtin_trusted_keys template=ima-buf",
		"measure func=CRITICAL_DATA label=selinux|module_hashes uid<1000 pcr=11",
		"appraise func=SETXATTR_CHECK appraise_algos=sha256,sha384,sha512",
		"appraise func=BPRM_CHECK digest_type=verity appraise_type=sigv3",
		"measure func=FILE_CHECK digest_type=verity template=ima-ngv2",
		"measure fsuuid=123e4567-e89b-12d3-a456-426614174000 subj_type=t obj_user=u fsname=tmpfs",
		"audit func=BPRM_CHECK euid>0 fgroup<100 egid=5\nhash func=FILE_CHECK\ndont_hash fsmagic=0X1021994",
		"measure func=MMAP_CHECK_REQPROT mask=MAY_APPEND\nmeasure func=CREDS_CHECK\tfowner>10 permit_directio",
		"appraise func=KEXEC_KERNEL_CHECK appraise_type=imasig|modsig\nappraise func=KEXEC_INITRAMFS_CHECK appraise_type=imasig\nappraise func=POLICY_CHECK appraise_type=imasig\nappraise func=FIRMWARE_CHECK appraise_type=imasig",
		"measure func=PATH_CHECK template=ima-sig",
		"measure pcr=63 template=evm-sig",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		expect_valid(rules[i], false);
}

static void test_errors(void **state)
{
	(void)state;
	expect_one("measure func=MODULE_CHEK", "1:9: unknown hook func=MODULE_CHEK");
	expect_one("# x\n\n  measur func=MODULE_CHECK", "3:3: unknown keyword \"measur\"");
	expect_one("measure appraise", "1:9: second action appraise in one rule");
	expect_one("func=MODULE_CHECK", "1:1: rule without an action (measure, appraise, audit, hash or their dont_ forms)");
	expect_one("measure func=FILE_CHECK func=BPRM_CHECK", "1:25: second func=");
	expect_one("measure mask=MAY_RUN", "1:9: unknown mask \"MAY_RUN\" (MAY_EXEC, MAY_WRITE, MAY_READ, MAY_APPEND, optionally after ^)");
	expect_one("measure fsmagic=xyz", "1:9: fsmagic=: not a hex number: xyz");
	expect_one("measure fsuuid=1234", "1:9: fsuuid=: not a UUID: 1234");
	expect_one("measure uid=-1", "1:9: uid: not a valid id: -1");
	expect_one("measure uid=0 euid=0", "1:15: second euid condition");
	expect_one("measure func<MODULE_CHECK", "1:9: func takes only =");
	expect_one("measure func", "1:9: func needs a value (func=...)");
	expect_one("measure func=", "1:9: func: empty value");
	expect_one("measure=1", "1:1: measure takes no value");
	expect_one("measure pcr=64", "1:9: pcr=: not a PCR index from 0 to 63: 64");
	expect_one("appraise pcr=11", "1:10: pcr= is only for measure rules");
	expect_one("measure appraise_type=imasig", "1:9: appraise_type= is only for appraise rules");
	expect_one("measure appraise_algos=sha256", "1:9: appraise_algos= is only for appraise rules");
	expect_one("appraise appraise_algos=sha256,md99", "1:10: unknown hash algorithm \"md99\" in appraise_algos=");
	expect_one("appraise appraise_type=modsig", "1:10: unknown appraise_type=modsig (imasig, imasig|modsig, sigv3)");
	expect_one("appraise appraise_type=sigv3", "1:10: appraise_type=sigv3 needs digest_type=verity before it");
	expect_one("appraise appraise_type=imasig digest_type=verity", "1:31: digest_type= must come before appraise_type=");
	expect_one("appraise digest_type=verity", "1:10: appraise with digest_type=verity needs appraise_type=sigv3");
	expect_one("appraise func=FILE_CHECK appraise_type=imasig|modsig", "1:26: appraise_type cannot be used with func=FILE_CHECK");
	expect_one("appraise func=MODULE_CHECK digest_type=verity appraise_type=sigv3", "1:28: digest_type cannot be used with func=MODULE_CHECK");
	expect_one("template=ima-ng measure", "1:1: template= needs the action measure before it");
	expect_one("measure template=ima-foo", "1:9: unknown template=ima-foo");
	expect_one("appraise func=CRITICAL_DATA", "1:10: func=CRITICAL_DATA is only for measure and dont_measure rules");
	expect_one("measure func=CRITICAL_DATA fsmagic=0x1", "1:28: fsmagic cannot be used with func=CRITICAL_DATA");
	expect_one("measure func=CRITICAL_DATA label=a||b", "1:28: label=: empty item in the list");
	expect_one("measure func=KEY_CHECK subj_user=x", "1:24: subj_/obj_ condition cannot be used with func=KEY_CHECK");
	expect_one("measure label=module_hashes", "1:9: label cannot be used without func=");
	expect_one("measure func=MODULE_CHECK keyrings=.ima", "1:27: keyrings cannot be used with func=MODULE_CHECK");
	expect_one("measure func=SETXATTR_CHECK", "1:9: func=SETXATTR_CHECK is only for appraise rules");
	expect_one("appraise func=SETXATTR_CHECK", "1:10: func=SETXATTR_CHECK needs appraise_algos=");
	expect_one("measure obj_type=a obj_type=b", "1:20: second obj_type=");
	expect_one("measure # not a comment here", "1:9: unknown keyword \"#\"");
	expect_one("\r\n", "1:1: carriage return in the rule (a DOS line end?): the kernel takes it as part of the word");
	expect_one("measure func=MODULE_CHECK\r\n# comment\r\n", "1:26: carriage return in the rule (a DOS line end?): the kernel takes it as part of the word");
}

static void test_every_line_reported(void **state)
{
	static const char text[] = "measure func=X\nmeasure\nappraise mask=Y\nmeasure a\0b\n";
	struct policy p;

	(void)state;
	assert_int_equal(policy_parse(text, sizeof(text) - 1, &p), 0);
	assert_int_equal(p.errors, 3);
	assert_int_equal(p.n_rules, 1);
	assert_int_equal(p.diags[0].line, 1);
	assert_int_equal(p.diags[1].line, 3);
	assert_int_equal(p.diags[1].column, 10);
	assert_int_equal(p.diags[2].line, 4);
	assert_int_equal(p.diags[2].column, 9);
	assert_string_equal(p.diags[2].message, "NUL byte in the rule");
	policy_free(&p);
}

static void test_allowlist_warnings(void **state)
{
	(void)state;
	expect_one("appraise func=MODULE_CHECK",
		   "1:1: warning: appraise rule for module reads without appraise_type=imasig: a hash in security.ima, which root can write, satisfies it, so modules off the allowlist load");
	expect_one("appraise fowner=0",
		   "1:1: warning: appraise rule for module reads without appraise_type=imasig: a hash in security.ima, which root can write, satisfies it, so modules off the allowlist load");
	expect_one("dont_appraise fsmagic=0x01021994\nappraise func=MODULE_CHECK appraise_type=imasig",
		   "1:1: warning: dont_appraise matches module reads on tmpfs, which can hold module files, before the appraise rule on line 2 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	expect_one("appraise func=MODULE_CHECK appraise_type=imasig|modsig\nappraise func=MODULE_CHECK appraise_type=imasig",
		   "2:1: warning: this appraise rule never applies to modules: line 1 (appraise func=MODULE_CHECK appraise_type=imasig|modsig) decides first every module read it matches");
	expect_one("measure func=MODULE_CHECK",
		   "1:1: warning: module loads are measured but not the allowlist (add \"measure func=CRITICAL_DATA label=module_hashes\"): a verifier cannot tell which list the kernel enforced");
	expect_one("measure func=CRITICAL_DATA label=selinux\nmeasure",
		   "2:1: warning: module loads are measured but not the allowlist (add \"measure func=CRITICAL_DATA label=module_hashes\"): a verifier cannot tell which list the kernel enforced");
	expect_one("dont_measure func=CRITICAL_DATA label=module_hashes\nmeasure func=CRITICAL_DATA\nmeasure func=MODULE_CHECK",
		   "3:1: warning: module loads are measured but not the allowlist (add \"measure func=CRITICAL_DATA label=module_hashes\"): a verifier cannot tell which list the kernel enforced");
	expect_one("dont_measure uid=0\nmeasure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA",
		   "1:1: warning: dont_measure matches module reads before the measure rule on line 2 (measure func=MODULE_CHECK): those loads are missing from the measurement list");
	expect_one("measure func=MODULE_CHECK template=ima\nmeasure func=CRITICAL_DATA",
		   "1:1: warning: template=ima logs SHA-1 digests only: module loads cannot be checked against the allowlist");
	expect_one("measure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA label=module_hashes template=ima-ng",
		   "2:1: warning: template=ima-ng has no buf field: the module-allowlist entry would not show the list's digest");
	expect_one("appraise func=MODULE_CHECK appraise_type=imasig appraise_flag=check_blacklist",
		   "1:1: warning: appraise_flag= is ignored by Linux 6.12");
	/* Rules that cannot match module reads are left alone. */
	expect_valid("appraise func=MODULE_CHECK mask=MAY_EXEC\nappraise func=BPRM_CHECK\ndont_appraise func=FILE_CHECK\nappraise func=MODULE_CHECK appraise_type=imasig", true);
	expect_valid("dont_measure func=MODULE_CHECK mask=MAY_WRITE\nmeasure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA label=x|module_hashes", true);
}

/*
 * The dont_ lines of IMA's built-in policies (ima_policy.c) for the
 * filesystems that cannot hold a module file: Debian's and the kernel
 * documentation's usual lines, less tmpfs and ramfs.
 */
#define NO_MODULE_FS(action) \
	action " fsmagic=0x9fa0\n" action " fsmagic=0x62656572\n" \
	action " fsmagic=0x64626720\n" action " fsmagic=0x1cd1\n" \
	action " fsmagic=0x42494e4d\n" action " fsmagic=0x73636673\n" \
	action " fsmagic=0xf97cff8c\n" action " fsmagic=0x43415d53\n" \
	action " fsmagic=0x27e0eb\n" action " fsmagic=0x63677270\n" \
	action " fsmagic=0x6e736673\n" action " fsmagic=0xde5e81e4\n" \
	action " fsmagic=0x74726163\n" action " fsname=configfs\n"

/* Which filesystems can hold a module file (module-fs.c). */
static void test_module_filesystems(void **state)
{
	(void)state;
	expect_valid(NO_MODULE_FS("dont_appraise")
		     "appraise func=MODULE_CHECK appraise_type=imasig\n", true);
	expect_valid(NO_MODULE_FS("dont_measure")
		     "measure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA label=module_hashes\n", true);
	expect_valid("dont_appraise fsname=proc\ndont_appraise fsname=sysfs\ndont_appraise fsname=securityfs\ndont_appraise fsmagic=0X64626720 uid=0\nappraise appraise_type=imasig\n", true);
	/* Filesystems that can: memfds are on tmpfs and hugetlbfs. */
	expect_one(NO_MODULE_FS("dont_appraise")
		   "dont_appraise fsmagic=0x858458f6\nappraise func=MODULE_CHECK appraise_type=imasig\n",
		   "15:1: warning: dont_appraise matches module reads on ramfs, which can hold module files, before the appraise rule on line 16 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	expect_one("dont_appraise fsmagic=958458f6\nappraise func=MODULE_CHECK appraise_type=imasig",
		   "1:1: warning: dont_appraise matches module reads on hugetlbfs, which can hold module files, before the appraise rule on line 2 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	expect_one("dont_measure fsname=overlay\nmeasure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA",
		   "1:1: warning: dont_measure matches module reads on overlay, which can hold module files, before the measure rule on line 2 (measure func=MODULE_CHECK): those loads are missing from the measurement list");
	expect_one("dont_appraise fsmagic=0x6165676c\nappraise func=MODULE_CHECK appraise_type=imasig",
		   "1:1: warning: dont_appraise matches module reads on pstore, which can hold module files, before the appraise rule on line 2 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	expect_one("dont_appraise fsmagic=0x1234\nappraise func=MODULE_CHECK appraise_type=imasig",
		   "1:1: warning: dont_appraise matches module reads on filesystem 0x1234, unknown to modhash and taken as one that can hold module files, before the appraise rule on line 2 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	/* A module rule for such a filesystem never applies. */
	expect_one("appraise func=MODULE_CHECK fsmagic=0x62656572 appraise_type=imasig",
		   "1:1: warning: this rule never applies: no module file can be on sysfs (its files are made by the kernel)");
}

/* First match wins: the warning names the rule that decides. */
static void test_deciding_rule(void **state)
{
	(void)state;
	/* The dont_appraise never applies: line 1 decides first. */
	expect_one("appraise func=MODULE_CHECK appraise_type=imasig\ndont_appraise fsmagic=0x01021994\nappraise func=MODULE_CHECK appraise_type=imasig|modsig",
		   "3:1: warning: this appraise rule never applies to modules: line 1 (appraise func=MODULE_CHECK appraise_type=imasig) decides first every module read it matches");
	/* Line 1 decides line 3's reads, not line 2 (a dead rule itself). */
	expect_valid("dont_appraise func=MODULE_CHECK\nappraise func=MODULE_CHECK appraise_type=imasig|modsig\nappraise func=MODULE_CHECK appraise_type=imasig", false);
	{
		struct policy p;

		parse("dont_appraise func=MODULE_CHECK\nappraise func=MODULE_CHECK appraise_type=imasig|modsig\nappraise func=MODULE_CHECK appraise_type=imasig", &p);
		assert_int_equal(p.n_diags, 3);
		assert_string_equal(p.diags[2].message,
				    "this appraise rule never applies to modules: line 1 (dont_appraise func=MODULE_CHECK) decides first every module read it matches");
		policy_free(&p);
	}
	/* The same filesystem twice: the first line decides, the second never does. */
	expect_one("dont_appraise fsmagic=0x01021994\ndont_appraise\tfsmagic=1021994\nappraise func=MODULE_CHECK appraise_type=imasig",
		   "1:1: warning: dont_appraise matches module reads on tmpfs, which can hold module files, before the appraise rule on line 3 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	/* Line 1 decides root's files only: tmpfs files of others pass line 2. */
	expect_one("appraise fowner=0 appraise_type=imasig\ndont_appraise fsmagic=0x01021994\nappraise   func=MODULE_CHECK\t appraise_type=imasig  ",
		   "2:1: warning: dont_appraise matches module reads on tmpfs, which can hold module files, before the appraise rule on line 3 (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted");
	/* Conditions: uid=0 on both, so line 1 decides every read of line 2. */
	expect_one("appraise uid=0 appraise_type=imasig\nappraise func=MODULE_CHECK uid=0",
		   "2:1: warning: this appraise rule never applies to modules: line 1 (appraise uid=0 appraise_type=imasig) decides first every module read it matches");
	/* A dead measure rule is not the one whose template matters. */
	expect_one("measure func=MODULE_CHECK\nmeasure func=MODULE_CHECK template=ima\nmeasure func=CRITICAL_DATA label=module_hashes",
		   "2:1: warning: this measure rule never applies to modules: line 1 (measure func=MODULE_CHECK) decides first every module read it matches");
	/* A long rule is named by its first words. */
	expect_one("appraise func=MODULE_CHECK appraise_type=imasig uid=0 obj_type="
		   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		   "\n\tappraise  uid=0 func=MODULE_CHECK fowner=0 obj_type="
		   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		   "2:2: warning: this appraise rule never applies to modules: line 1 (appraise func=MODULE_CHECK appraise_type=imasig uid=0 ...) decides first every module read it matches");
	/* Measure and appraise rules do not decide for each other. */
	expect_valid("measure func=MODULE_CHECK\nmeasure func=CRITICAL_DATA\nappraise func=MODULE_CHECK appraise_type=imasig", true);
}

/* The command: exit 0 clean, 1 warnings, 2 errors; FILE:LINE:COL lines. */
static void test_command(void **state)
{
	char dir[] = "/tmp/modhash-policy.XXXXXX", out[4096], expect[1024];
	const char *clean, *weak, *bad, *usual;

	(void)state;
	assert_non_null(mkdtemp(dir));
	clean = write_file(dir, "clean.policy", "# only a comment\n", 17);
	weak = write_file(dir, "weak.policy", "appraise func=MODULE_CHECK\n", 27);
	bad = write_file(dir, "bad.policy", "\n\tmeasure fsmagic=0xz\n", 22);
	usual = write_file(dir, "usual.policy", NO_MODULE_FS("dont_appraise") "appraise func=MODULE_CHECK appraise_type=imasig\n",
			   strlen(NO_MODULE_FS("dont_appraise") "appraise func=MODULE_CHECK appraise_type=imasig\n"));
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", (char *)usual, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	assert_string_equal(out, "");
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", (char *)clean, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	assert_string_equal(out, "");
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", (char *)clean, (char *)weak, NULL }, out, sizeof(out)), EXIT_REFUSED);
	snprintf(expect, sizeof(expect), "%s:1:1: warning: ", weak);
	assert_memory_equal(out, expect, strlen(expect));
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", "-e", (char *)weak, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	assert_string_equal(out, "");
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", (char *)weak, (char *)bad, NULL }, out, sizeof(out)), EXIT_ERROR);
	snprintf(expect, sizeof(expect), "%s:2:10: error: fsmagic=: not a hex number: 0xz\n", bad);
	assert_non_null(strstr(out, expect));
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", "/nonexistent", NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "/nonexistent: cannot open"));
	assert_int_equal(run_command(cmd_lint_policy, (char *[]){ "lint-policy", NULL }, out, sizeof(out)), EXIT_ERROR);
	unlink(clean);
	unlink(weak);
	unlink(bad);
	unlink(usual);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_rules),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_every_line_reported),
		cmocka_unit_test(test_allowlist_warnings),
		cmocka_unit_test(test_module_filesystems),
		cmocka_unit_test(test_deciding_rule),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
