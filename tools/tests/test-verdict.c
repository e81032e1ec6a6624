// SPDX-License-Identifier: GPL-2.0
/* test-verdict.c - the verdict matrix, its reasons and check's exit code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "verdict.h"

static enum verdict decide(struct module_facts f, char *reason)
{
	enum verdict v = verdict_decide(&f);

	verdict_reason(&f, v, reason, 320);
	return v;
}

static void test_matrix(void **state)
{
	char why[320];

	(void)state;
	assert_int_equal(decide((struct module_facts){ .loaded_listed = true },
				why), VERDICT_LISTED);
	assert_string_equal(why, "the file is on the list");
	assert_int_equal(decide((struct module_facts){ .loaded_listed = true,
						       .comp = COMP_XZ }, why),
			 VERDICT_LISTED);
	assert_non_null(strstr(why, "decompressed as the kernel does"));
	assert_int_equal(decide((struct module_facts){ .stripped_known = true },
				why), VERDICT_NOT_LISTED);
	assert_non_null(strstr(why, "nor its strip --strip-debug form"));
	assert_int_equal(decide((struct module_facts){ .stripped_known = true,
						       .stripped_listed = true },
				why), VERDICT_LISTED_AFTER_STRIP);
	assert_non_null(strstr(why, "INSTALL_MOD_STRIP=1"));
	assert_int_equal(decide((struct module_facts){ .is_signed = true,
						       .content_listed = true },
				why), VERDICT_NEEDS_SIGNATURE);
	assert_non_null(strstr(why, "without the signature it is on the list"));
	assert_int_equal(decide((struct module_facts){ .is_signed = true,
						       .stripped_known = true },
				why), VERDICT_NEEDS_SIGNATURE);
	assert_non_null(strstr(why, "without the signature it is not on"));
	assert_int_equal(decide((struct module_facts){ .is_signed = true,
						       .bad_signature = true },
				why), VERDICT_NEEDS_SIGNATURE);
	assert_non_null(strstr(why, "malformed"));
	/* A file the loader refuses is not listed, whatever its digest. */
	assert_int_equal(decide((struct module_facts){
				.problem = "bytes after the compressed stream",
				.loaded_listed = true }, why),
			 VERDICT_NOT_LISTED);
	assert_non_null(strstr(why, "bytes after the compressed stream"));
	assert_int_equal(decide((struct module_facts){ .missing = true }, why),
			 VERDICT_MISSING);
	/* Listed as loaded wins over a signature (signed before listing). */
	assert_int_equal(decide((struct module_facts){ .is_signed = true,
						       .loaded_listed = true },
				why), VERDICT_LISTED);
}

static void test_names_and_exit(void **state)
{
	struct verdict_tally t;

	(void)state;
	assert_string_equal(verdict_name(VERDICT_LISTED_AFTER_STRIP),
			    "listed-after-strip");
	assert_string_equal(verdict_name(VERDICT_NEEDS_SIGNATURE),
			    "needs-signature");
	memset(&t, 0, sizeof(t));
	assert_int_equal(verdict_tally_exit(&t, false), 0);
	verdict_tally_add(&t, VERDICT_LISTED);
	assert_int_equal(verdict_tally_exit(&t, false), 0);
	verdict_tally_add(&t, VERDICT_NEEDS_SIGNATURE);
	assert_int_equal(verdict_tally_exit(&t, false), 1);
	assert_int_equal(verdict_tally_exit(&t, true), 0);
	verdict_tally_add(&t, VERDICT_LISTED_AFTER_STRIP);
	assert_int_equal(verdict_tally_exit(&t, true), 1);
	t.error = true;
	assert_int_equal(verdict_tally_exit(&t, true), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_names_and_exit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
