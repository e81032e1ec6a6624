// SPDX-License-Identifier: GPL-2.0
/*
 * test-output.c - what list prints, parsed back: list's JSON (json-c),
 * the sha256sum forms, and the ima-buf digest of the list computed
 * another way (export's own output: test-export.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <openssl/sha.h>

#include <linux/hash_info.h>

#include "export-policy.h"
#include "list-output.h"

static struct allowlist al;
static unsigned char d[3][32];

static int setup(void **state)
{
	(void)state;
	memset(d, 0, sizeof(d));
	d[0][0] = 0x10;
	d[1][0] = 0x20;
	d[2][0] = 0x30;
	return allowlist_build(HASH_ALGO_SHA256, &d[0][0], 3, &al) ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	allowlist_free(&al);
	return 0;
}

static char *render(enum list_format fmt, const struct digest_names *names)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	assert_int_equal(list_output_write(fp, fmt, &al, names), 0);
	fclose(fp);
	return out;
}

static void make_names(struct digest_names *names)
{
	memset(names, 0, sizeof(*names));
	names->digest_size = 32;
	assert_int_equal(digest_names_add(names, d[0], "/m/a.ko", "as-installed"), 0);
	assert_int_equal(digest_names_add(names, d[1], "/m/a.ko", "stripped"), 0);
	assert_int_equal(digest_names_add(names, d[0], "/m/a.ko", "stripped"), 0);
	digest_names_sort(names);
}

static void test_list_json_shape(void **state)
{
	struct digest_names names;
	json_object *root, *v, *digests, *entry, *mods;
	char *out;

	(void)state;
	make_names(&names);
	assert_int_equal(names.n, 2);	/* one path, one digest: once */
	out = render(LIST_JSON, &names);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "algo", &v));
	assert_string_equal(json_object_get_string(v), "sha256");
	assert_true(json_object_object_get_ex(root, "version", &v));
	assert_int_equal(json_object_get_int(v), 1);
	assert_true(json_object_object_get_ex(root, "count", &v));
	assert_int_equal(json_object_get_int(v), 3);
	assert_true(json_object_object_get_ex(root, "unnamed", &v));
	assert_int_equal(json_object_get_int(v), 1);
	assert_true(json_object_object_get_ex(root, "digests", &digests));
	assert_int_equal(json_object_array_length(digests), 3);
	entry = json_object_array_get_idx(digests, 1);
	assert_true(json_object_object_get_ex(entry, "digest", &v));
	assert_string_equal(json_object_get_string(v),
			    "2000000000000000000000000000000000000000000000000000000000000000");
	assert_true(json_object_object_get_ex(entry, "modules", &mods));
	assert_int_equal(json_object_array_length(mods), 1);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(mods, 0),
					      "form", &v));
	assert_string_equal(json_object_get_string(v), "stripped");
	json_object_put(root);
	free(out);
	/* Without names: no "modules", no "unnamed". */
	out = render(LIST_JSON, NULL);
	root = json_tokener_parse(out);
	assert_false(json_object_object_get_ex(root, "unnamed", &v));
	json_object_object_get_ex(root, "digests", &digests);
	assert_false(json_object_object_get_ex(json_object_array_get_idx(digests, 0),
					       "modules", &v));
	json_object_put(root);
	free(out);
	digest_names_free(&names);
}

static void test_text_forms(void **state)
{
	struct digest_names names;
	char *out;

	(void)state;
	make_names(&names);
	out = render(LIST_SHA256SUM, &names);
	assert_string_equal(out,
		"1000000000000000000000000000000000000000000000000000000000000000  /m/a.ko\n"
		"# 2000000000000000000000000000000000000000000000000000000000000000  /m/a.ko (stripped)\n"
		"# 3000000000000000000000000000000000000000000000000000000000000000  (no module file found)\n");
	free(out);
	out = render(LIST_HEX, NULL);
	assert_int_equal(strlen(out), 3 * (7 + 64 + 1));
	assert_memory_equal(out, "sha256:10000000", 15);
	free(out);
	out = render(LIST_RAW, NULL);
	assert_memory_equal(out, al.blob, al.blob_len);
	free(out);
	digest_names_free(&names);
	{
		enum list_format f;

		assert_int_equal(list_format_parse("json", &f), 0);
		assert_int_equal(f, LIST_JSON);
		assert_int_equal(list_format_parse("yaml", &f), -1);
	}
}

static void test_event_digest(void **state)
{
	unsigned char got[32], inner[32], want[32];

	(void)state;
	assert_int_equal(allowlist_event_digest(&al, HASH_ALGO_SHA256, got), 0);
	SHA256(al.blob, al.blob_len, inner);
	SHA256(inner, 32, want);
	assert_memory_equal(got, want, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_json_shape),
		cmocka_unit_test(test_text_forms),
		cmocka_unit_test(test_event_digest),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
