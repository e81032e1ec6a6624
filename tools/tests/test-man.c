// SPDX-License-Identifier: GPL-2.0
/*
 * test-man.c - the man pages of tools/man, as groff and a reader see
 * them: no warning from groff -man -ww, one header style, an EXIT STATUS
 * and a SEE ALSO naming the other pages, evmctl(1), modinfo(8) and
 * Keylime, and the options every command shares documented in each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixtures.h"

#define MAN_DIR TOOLS_DIR "/man"

static int setup(void **state)
{
	(void)state;
	fixture_start();
	return fixture_sh("ls '%s'/modhash*.1 > pages && test $(wc -l < pages) = 8",
			  MAN_DIR);
}

/* groff's own check: not one warning, in any category (-ww). */
static void test_groff_clean(void **state)
{
	(void)state;
	assert_int_equal(fixture_sh("ok=0; while read -r page; do "
				    "w=$(groff -man -ww -z \"$page\" 2>&1); "
				    "[ -z \"$w\" ] || { echo \"$page: $w\" >&2; ok=1; }; "
				    "done < pages; exit $ok"), 0);
}

/*
 * One header for all: .TH NAME 1 YYYY-MM-DD "modhash" "User Commands",
 * NAME the file's name in capitals.
 */
static void test_one_header(void **state)
{
	(void)state;
	assert_int_equal(fixture_sh("ok=0; while read -r page; do "
				    "name=$(basename \"$page\" .1 | tr a-z A-Z | sed 's/-/\\\\\\\\-/g'); "
				    "head -n 1 \"$page\" | grep -qxE \"\\.TH $name 1 [0-9]{4}-[0-9]{2}-[0-9]{2} "
				    "\\\"modhash\\\" \\\"User Commands\\\"\" || "
				    "{ echo \"$page: $(head -n 1 \"$page\")\" >&2; ok=1; }; "
				    "done < pages; exit $ok"), 0);
}

/* EXIT STATUS, and SEE ALSO with the other pages and the neighbours. */
static void test_sections(void **state)
{
	(void)state;
	assert_int_equal(fixture_sh(
		"ok=0; while read -r page; do "
		"grep -qx '.SH EXIT STATUS' \"$page\" || { echo \"$page: no EXIT STATUS\" >&2; ok=1; }; "
		"sed -n '/^\\.SH SEE ALSO/,/^\\.SH /p' \"$page\" > see; "
		"for ref in 'evmctl (1)' 'modinfo (8)' 'keylime_tenant (1)'; do "
		"grep -qF \".BR $ref\" see || { echo \"$page: no $ref\" >&2; ok=1; }; done; "
		"while read -r other; do "
		"[ \"$other\" = \"$page\" ] && continue; "
		"ref=$(basename \"$other\" .1 | sed 's/-/\\\\-/g'); "
		"grep -qF \".BR $ref (1)\" see || { echo \"$page: no $ref(1)\" >&2; ok=1; }; "
		"done < pages; done < pages; exit $ok"), 0);
}

/* Each command's page has -q, -v, -V and -h; modhash(1) has the table. */
static void test_common_options(void **state)
{
	(void)state;
	assert_int_equal(fixture_sh(
		"ok=0; for page in $(grep -- '-[a-z-]*\\.1$' pages); do "
		"for o in q,quiet v,verbose V,version h,help; do "
		"grep -qF \".BR \\\\-${o%%,*} \\\", \\\" \\\\-\\\\-${o#*,}\" \"$page\" || "
		"{ echo \"$page: no -${o%%,*}\" >&2; ok=1; }; done; done; exit $ok"), 0);
	assert_int_equal(fixture_sh(
		"grep -qx '.SH OPTIONS' '%s/modhash.1' && grep -qx '.SH OUTPUT FILES' '%s/modhash.1' && "
		"grep -q 'follow\\\\-symlinks' '%s/modhash.1'", MAN_DIR, MAN_DIR, MAN_DIR), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groff_clean),
		cmocka_unit_test(test_one_header),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_common_options),
	};

	return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
