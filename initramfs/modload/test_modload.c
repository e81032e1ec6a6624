// SPDX-License-Identifier: GPL-2.0
/*
 * test_modload.c - cmocka unit tests for the pure parts of modload
 * (modload_lib.c): errno names, message -> errno name, argument parsing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "modload_lib.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	int value;
	const char *name;
} expected_names[] = {
	{ EPERM, "EPERM" },		{ ENOENT, "ENOENT" },
	{ E2BIG, "E2BIG" },		{ ENOEXEC, "ENOEXEC" },
	{ EBADF, "EBADF" },		{ EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" },		{ EACCES, "EACCES" },
	{ EFAULT, "EFAULT" },		{ EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" },		{ EINVAL, "EINVAL" },
	{ ETXTBSY, "ETXTBSY" },		{ EFBIG, "EFBIG" },
	{ ENOSPC, "ENOSPC" },		{ ERANGE, "ERANGE" },
	{ ENOSYS, "ENOSYS" },		{ ENODATA, "ENODATA" },
	{ ENOPKG, "ENOPKG" },		{ EBADMSG, "EBADMSG" },
	{ EOPNOTSUPP, "EOPNOTSUPP" },	{ ENOKEY, "ENOKEY" },
	{ EKEYEXPIRED, "EKEYEXPIRED" },	{ EKEYREVOKED, "EKEYREVOKED" },
	{ EKEYREJECTED, "EKEYREJECTED" },
	{ EDEADLK, "EDEADLK" },
};

/* ---- errno name lookup ------------------------------------------------ */

static void test_errno_name_known(void **state)
{
	char buf[MODLOAD_ERRNAME_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(expected_names); i++) {
		const char *got = modload_errno_name(expected_names[i].value,
						     buf, sizeof(buf));

		assert_string_equal(got, expected_names[i].name);
		/* Known names come from the table, not the scratch buffer. */
		assert_ptr_not_equal(got, buf);
	}
}

static void test_errno_name_alias_prefers_canonical(void **state)
{
	char buf[MODLOAD_ERRNAME_MAX];

	(void)state;
	/* ENOTSUP == EOPNOTSUPP, EWOULDBLOCK == EAGAIN on Linux. */
	assert_string_equal(modload_errno_name(ENOTSUP, buf, sizeof(buf)),
			    "EOPNOTSUPP");
	assert_string_equal(modload_errno_name(EWOULDBLOCK, buf, sizeof(buf)),
			    "EAGAIN");
}

static void test_errno_name_unknown(void **state)
{
	char buf[MODLOAD_ERRNAME_MAX];
	const char *got;

	(void)state;
	got = modload_errno_name(4095, buf, sizeof(buf));
	assert_ptr_equal(got, buf);
	assert_string_equal(got, "E4095");

	/* Kernel-internal ENOTSUPP (524) has no userspace name. */
	assert_string_equal(modload_errno_name(524, buf, sizeof(buf)), "E524");
	assert_string_equal(modload_errno_name(0, buf, sizeof(buf)), "E0");
	assert_string_equal(modload_errno_name(-5, buf, sizeof(buf)), "E-5");
	assert_string_equal(modload_errno_name(INT32_MIN, buf, sizeof(buf)),
			    "E-2147483648");
}

static void test_errno_name_unknown_truncates(void **state)
{
	char buf[4];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_string_equal(modload_errno_name(12345, buf, sizeof(buf)), "E12");
}

/* ---- message -> errno name -------------------------------------------- */

static void test_errname_from_strerror(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(expected_names); i++) {
		const char *got = modload_errname_from_message(
					strerror(expected_names[i].value));

		assert_non_null(got);
		assert_string_equal(got, expected_names[i].name);
	}
}

static void test_errname_literal_messages(void **state)
{
	(void)state;
	assert_string_equal(
		modload_errname_from_message("Key was rejected by service"),
		"EKEYREJECTED");
	assert_string_equal(
		modload_errname_from_message("No such file or directory"),
		"ENOENT");
	assert_string_equal(
		modload_errname_from_message("Operation not permitted"),
		"EPERM");
	/* kmod's own wording for ENOEXEC, as insmod prints it. */
	assert_string_equal(
		modload_errname_from_message("insmod: ERROR: could not insert module /mods/x.ko: Invalid module format"),
		"ENOEXEC");
	/* Trailing newline from a captured line is ignored. */
	assert_string_equal(
		modload_errname_from_message("Required key not available\n"),
		"ENOKEY");
}

static void test_errname_kmod_line(void **state)
{
	(void)state;
	assert_string_equal(modload_errname_from_message(
		"insmod: ERROR: could not insert module /lib/foo.ko: "
		"Key was rejected by service"), "EKEYREJECTED");
	assert_string_equal(modload_errname_from_message(
		"insmod: ERROR: could not insert module foo.ko: File exists"),
		"EEXIST");
}

static void test_errname_unknown(void **state)
{
	(void)state;
	assert_null(modload_errname_from_message("Frobnication failed"));
	assert_null(modload_errname_from_message("key was rejected by service"));
	assert_null(modload_errname_from_message("Key was rejected"));
	assert_null(modload_errname_from_message("insmod: ERROR: bogus"));
	assert_null(modload_errname_from_message(": "));
	assert_null(modload_errname_from_message(""));
	assert_null(modload_errname_from_message(NULL));
}

/* ---- argument parsing ------------------------------------------------- */

static void test_parse_mode_words(void **state)
{
	(void)state;
	assert_int_equal(modload_parse_mode("finit"), MODLOAD_MODE_FINIT);
	assert_int_equal(modload_parse_mode("finit-compressed"),
			 MODLOAD_MODE_FINIT_COMPRESSED);
	assert_int_equal(modload_parse_mode("init"), MODLOAD_MODE_INIT);
	assert_int_equal(modload_parse_mode("errname"), MODLOAD_MODE_ERRNAME);
	assert_int_equal(modload_parse_mode("--help"), MODLOAD_MODE_HELP);
	assert_int_equal(modload_parse_mode("-h"), MODLOAD_MODE_HELP);
	assert_int_equal(modload_parse_mode("finit_module"), MODLOAD_MODE_NONE);
	assert_int_equal(modload_parse_mode("FINIT"), MODLOAD_MODE_NONE);
	assert_int_equal(modload_parse_mode("finit-"), MODLOAD_MODE_NONE);
	assert_int_equal(modload_parse_mode(""), MODLOAD_MODE_NONE);
	assert_int_equal(modload_parse_mode(NULL), MODLOAD_MODE_NONE);
}

static void test_mode_flags(void **state)
{
	(void)state;
	assert_int_equal(modload_mode_flags(MODLOAD_MODE_FINIT), 0);
	assert_int_equal(modload_mode_flags(MODLOAD_MODE_FINIT_COMPRESSED), 4);
	assert_int_equal(modload_mode_flags(MODLOAD_MODE_INIT), 0);
	assert_true(modload_mode_is_load(MODLOAD_MODE_FINIT));
	assert_true(modload_mode_is_load(MODLOAD_MODE_FINIT_COMPRESSED));
	assert_true(modload_mode_is_load(MODLOAD_MODE_INIT));
	assert_false(modload_mode_is_load(MODLOAD_MODE_ERRNAME));
	assert_false(modload_mode_is_load(MODLOAD_MODE_HELP));
	assert_false(modload_mode_is_load(MODLOAD_MODE_NONE));
}

static int parse(struct modload_args *a, int argc, char **argv)
{
	return modload_parse_args(argc, argv, a);
}

static void test_parse_load_default_params(void **state)
{
	char *argv[] = { "modload", "finit", "/m.ko", NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 3, argv), 0);
	assert_int_equal(a.mode, MODLOAD_MODE_FINIT);
	assert_string_equal(a.file, "/m.ko");
	assert_string_equal(a.params, "");
	assert_null(a.error);
}

static void test_parse_load_with_params(void **state)
{
	char *argv[] = { "modload", "init", "/m.ko", "foo=1 bar=x", NULL };
	char *argv2[] = { "modload", "finit-compressed", "/m.ko.xz", "a=b",
			  NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 4, argv), 0);
	assert_int_equal(a.mode, MODLOAD_MODE_INIT);
	assert_string_equal(a.file, "/m.ko");
	assert_string_equal(a.params, "foo=1 bar=x");

	assert_int_equal(parse(&a, 4, argv2), 0);
	assert_int_equal(a.mode, MODLOAD_MODE_FINIT_COMPRESSED);
	assert_string_equal(a.file, "/m.ko.xz");
	assert_string_equal(a.params, "a=b");
}

static void test_parse_errname_and_help(void **state)
{
	char *argv[] = { "modload", "errname", "Key was rejected by service",
			 NULL };
	char *help[] = { "modload", "--help", NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 3, argv), 0);
	assert_int_equal(a.mode, MODLOAD_MODE_ERRNAME);
	assert_string_equal(a.message, "Key was rejected by service");
	assert_null(a.file);

	assert_int_equal(parse(&a, 2, help), 0);
	assert_int_equal(a.mode, MODLOAD_MODE_HELP);
}

static void test_parse_bad_mode(void **state)
{
	char *argv[] = { "modload", "insmod", "/m.ko", NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 3, argv), -EINVAL);
	assert_int_equal(a.mode, MODLOAD_MODE_NONE);
	assert_string_equal(a.error, "unknown mode");
}

static void test_parse_missing_mode(void **state)
{
	char *argv[] = { "modload", NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 1, argv), -EINVAL);
	assert_string_equal(a.error, "missing mode");
}

static void test_parse_missing_file(void **state)
{
	static const char *const modes[] = {
		"finit", "finit-compressed", "init"
	};
	struct modload_args a;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		char *argv[] = { "modload", (char *)modes[i], NULL };
		char *empty[] = { "modload", (char *)modes[i], "", NULL };

		assert_int_equal(parse(&a, 2, argv), -EINVAL);
		assert_string_equal(a.error, "missing FILE");
		assert_int_equal(parse(&a, 3, empty), -EINVAL);
		assert_string_equal(a.error, "missing FILE");
	}
}

static void test_parse_too_many(void **state)
{
	char *load[] = { "modload", "finit", "/m.ko", "a=1", "b=2", NULL };
	char *errname[] = { "modload", "errname", "Key", "was", NULL };
	char *errname0[] = { "modload", "errname", NULL };
	char *help[] = { "modload", "--help", "x", NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 5, load), -EINVAL);
	assert_string_equal(a.error, "too many arguments");
	assert_int_equal(parse(&a, 4, errname), -EINVAL);
	assert_non_null(a.error);
	assert_int_equal(parse(&a, 2, errname0), -EINVAL);
	assert_string_equal(a.error, "missing MESSAGE");
	assert_int_equal(parse(&a, 3, help), -EINVAL);
	assert_non_null(a.error);
}

static void test_parse_time(void **state)
{
	char *timed[] = { "modload", "--time", "init", "/m.ko", "a=1", NULL };
	char *plain[] = { "modload", "finit", "/m.ko", NULL };
	char *errname[] = { "modload", "--time", "errname", "Key", NULL };
	char *alone[] = { "modload", "--time", NULL };
	char *nofile[] = { "modload", "--time", "finit", NULL };
	char *span[] = { "modload", "--span", "finit", "/m.ko", NULL };
	char *spanerr[] = { "modload", "--span", "errname", "Key", NULL };
	struct modload_args a;

	(void)state;
	assert_int_equal(parse(&a, 5, timed), 0);
	assert_int_equal(a.timed, MODLOAD_TIMED_DURATION);
	assert_int_equal(a.mode, MODLOAD_MODE_INIT);
	assert_string_equal(a.file, "/m.ko");
	assert_string_equal(a.params, "a=1");

	assert_int_equal(parse(&a, 3, plain), 0);
	assert_int_equal(a.timed, MODLOAD_TIMED_NO);

	assert_int_equal(parse(&a, 4, errname), -EINVAL);
	assert_string_equal(a.error,
			    "--time and --span go with finit, finit-compressed or init");
	assert_int_equal(parse(&a, 4, span), 0);
	assert_int_equal(a.timed, MODLOAD_TIMED_SPAN);
	assert_int_equal(a.mode, MODLOAD_MODE_FINIT);
	assert_int_equal(parse(&a, 4, spanerr), -EINVAL);
	assert_int_equal(parse(&a, 2, alone), -EINVAL);
	assert_string_equal(a.error, "missing mode");
	assert_int_equal(parse(&a, 3, nofile), -EINVAL);
	assert_string_equal(a.error, "missing FILE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_name_known),
		cmocka_unit_test(test_errno_name_alias_prefers_canonical),
		cmocka_unit_test(test_errno_name_unknown),
		cmocka_unit_test(test_errno_name_unknown_truncates),
		cmocka_unit_test(test_errname_from_strerror),
		cmocka_unit_test(test_errname_literal_messages),
		cmocka_unit_test(test_errname_kmod_line),
		cmocka_unit_test(test_errname_unknown),
		cmocka_unit_test(test_parse_mode_words),
		cmocka_unit_test(test_mode_flags),
		cmocka_unit_test(test_parse_load_default_params),
		cmocka_unit_test(test_parse_load_with_params),
		cmocka_unit_test(test_parse_errname_and_help),
		cmocka_unit_test(test_parse_bad_mode),
		cmocka_unit_test(test_parse_missing_mode),
		cmocka_unit_test(test_parse_missing_file),
		cmocka_unit_test(test_parse_too_many),
		cmocka_unit_test(test_parse_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
