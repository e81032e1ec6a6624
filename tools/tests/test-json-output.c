// SPDX-License-Identifier: GPL-2.0
/*
 * test-json-output.c - check and diff with --format=json: one JSON
 * document with the facts of the text output (verify-log's JSON is in
 * test-verify-log.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <linux/hash_info.h>

#include "commands.h"
#include "fixtures.h"
#include "format.h"
#include "util.h"
#include "run-command.h"

static char out[16384];
static char m_digest[80];

/* m.ko and n.ko; a.bin lists m.ko's digest and one more, b.bin only that one. */
static int setup(void **state)
{
	unsigned char d[2][32] = { { 0 } }, *mod;
	struct allowlist a, b;
	char hex[65];
	size_t len;

	(void)state;
	fixture_start();
	if (fixture_sh("printf 'int f(void) { return 2; }' > m.c && cc -c -o m.ko m.c && "
		       "printf 'int g(void) { return 3; }' > n.c && cc -c -o n.ko n.c"))
		return -1;
	mod = fixture_read("m.ko", &len);
	if (!mod || !EVP_Digest(mod, len, d[0], NULL, EVP_sha256(), NULL))
		return -1;
	free(mod);
	memset(d[1], 0x99, 32);
	hex_encode(d[0], 32, hex);
	snprintf(m_digest, sizeof(m_digest), "sha256:%s", hex);
	if (allowlist_build(HASH_ALGO_SHA256, &d[0][0], 2, &a) ||
	    allowlist_build(HASH_ALGO_SHA256, &d[1][0], 1, &b) ||
	    fixture_write("a.bin", a.blob, a.blob_len) ||
	    fixture_write("b.bin", b.blob, b.blob_len))
		return -1;
	allowlist_free(&a);
	allowlist_free(&b);
	return 0;
}

static const char *get_string(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

static void test_check_json(void **state)
{
	char a[256], m[256], n[256];
	json_object *root, *mods, *counts, *v;

	(void)state;
	snprintf(a, sizeof(a), "%s", fixture_path("a.bin"));
	snprintf(m, sizeof(m), "%s", fixture_path("m.ko"));
	snprintf(n, sizeof(n), "%s", fixture_path("n.ko"));
	assert_int_equal(run_command(cmd_check, (char *[]){ "check", "-k", a, "--format=json", m, n, NULL }, out, sizeof(out)), EXIT_REFUSED);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_string_equal(get_string(root, "algorithm"), "sha256");
	assert_true(json_object_object_get_ex(root, "modules", &mods));
	assert_int_equal(json_object_array_length(mods), 2);
	v = json_object_array_get_idx(mods, 0);
	assert_string_equal(get_string(v, "path"), m);
	assert_string_equal(get_string(v, "verdict"), "listed");
	assert_string_equal(get_string(v, "digest"), m_digest);
	v = json_object_array_get_idx(mods, 1);
	assert_string_equal(get_string(v, "verdict"), "not-listed");
	assert_true(json_object_object_get_ex(root, "counts", &counts));
	assert_int_equal(json_object_get_int(json_object_object_get(counts, "listed")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(counts, "not-listed")), 1);
	assert_false(json_object_get_boolean(json_object_object_get(root, "accepted")));
	json_object_put(root);
	/* -q leaves the accepted ones out, as in the text. */
	assert_int_equal(run_command(cmd_check, (char *[]){ "check", "-k", a, "-q", "-f", "json", m, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_int_equal(json_object_array_length(json_object_object_get(root, "modules")), 0);
	assert_true(json_object_get_boolean(json_object_object_get(root, "accepted")));
	json_object_put(root);
	assert_int_equal(run_command(cmd_check, (char *[]){ "check", "-k", a, "--format=xml", m, NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "--format: xml is neither text nor json"));
}

static void test_diff_json(void **state)
{
	char a[256], b[256], dir[256];
	json_object *root, *added, *removed, *v, *names;

	(void)state;
	snprintf(a, sizeof(a), "%s", fixture_path("a.bin"));
	snprintf(b, sizeof(b), "%s", fixture_path("b.bin"));
	snprintf(dir, sizeof(dir), "--modules-a=%s", fixture_dir);
	assert_int_equal(run_command(cmd_diff, (char *[]){ "diff", "--format=json", dir, a, b, NULL }, out, sizeof(out)), EXIT_REFUSED);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_true(json_object_get_boolean(json_object_object_get(root, "comparable")));
	assert_int_equal(json_object_get_int(json_object_object_get(root, "common")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(json_object_object_get(root, "a"), "digests")), 2);
	assert_true(json_object_object_get_ex(root, "removed", &removed));
	assert_true(json_object_object_get_ex(root, "added", &added));
	assert_int_equal(json_object_array_length(added), 0);
	assert_int_equal(json_object_array_length(removed), 1);
	v = json_object_array_get_idx(removed, 0);
	assert_string_equal(get_string(v, "digest"), m_digest);
	assert_true(json_object_object_get_ex(v, "modules", &names));
	assert_int_equal(json_object_array_length(names), 1);
	assert_non_null(strstr(get_string(json_object_array_get_idx(names, 0), "path"), "/m.ko"));
	json_object_put(root);
	assert_int_equal(run_command(cmd_diff, (char *[]){ "diff", "-f", "json", a, a, NULL }, out, sizeof(out)), EXIT_ACCEPTED);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_int_equal(json_object_array_length(json_object_object_get(root, "removed")), 0);
	assert_int_equal(json_object_array_length(json_object_object_get(root, "added")), 0);
	json_object_put(root);
	/* B to A without module trees: the digest, no names. */
	assert_int_equal(run_command(cmd_diff, (char *[]){ "diff", "-f", "json", b, a, NULL }, out, sizeof(out)), EXIT_REFUSED);
	root = json_tokener_parse(out);
	assert_non_null(root);
	v = json_object_array_get_idx(json_object_object_get(root, "added"), 0);
	assert_non_null(v);
	assert_string_equal(get_string(v, "digest"), m_digest);
	assert_true(json_object_object_get_ex(v, "modules", &names));
	assert_null(names);
	json_object_put(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_json),
		cmocka_unit_test(test_diff_json),
	};

	return cmocka_run_group_tests_name("json-output", tests, setup, fixture_teardown);
}
