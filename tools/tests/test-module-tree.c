// SPDX-License-Identifier: GPL-2.0
/*
 * test-module-tree.c - which module files a tree or directory holds:
 * modules.order first, modules.dep for the rest, compressed names found,
 * missing ones reported, bad index lines named; and the digest -> module
 * index built over such a tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/hash_info.h>

#include "fixtures.h"
#include "module-names.h"
#include "module-tree.h"

static int count_add(void *ctx, const char *name)
{
	(void)name;
	++*(int *)ctx;
	return 0;
}

static void test_index_parsing(void **state)
{
	static const char order[] = "kernel/a.ko\n\nkernel/b.ko\n";
	static const char dep[] = "kernel/a.ko:\nkernel/b.ko.xz: kernel/a.ko\n";
	static const char bad_dep[] = "kernel/a.ko:\nkernel/b.ko\n";
	static const char bad_order[] = "kernel/a.ko\nkernel/readme.txt\n";
	int n = 0;

	(void)state;
	assert_int_equal(module_tree_parse_index(order, sizeof(order) - 1, false,
						 count_add, &n), 0);
	assert_int_equal(n, 2);
	n = 0;
	assert_int_equal(module_tree_parse_index(dep, sizeof(dep) - 1, true,
						 count_add, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(module_tree_parse_index(bad_dep, sizeof(bad_dep) - 1,
						 true, count_add, &n), 2);
	assert_int_equal(module_tree_parse_index(bad_order, sizeof(bad_order) - 1,
						 false, count_add, &n), 2);
	assert_true(module_name_is_module("x/y.ko.zst"));
	assert_false(module_name_is_module("x/y.ko.bz2"));
	assert_int_equal(module_name_base_len("a.ko.gz"), 4);
}

static void test_installed_tree(void **state)
{
	struct module_list list;
	char *tree;

	(void)state;
	fixture_start();
	assert_int_equal(fixture_sh(
		"mkdir -p t/kernel t/extra && printf 'int f;' > m.c && cc -c -o m.o m.c && "
		"cp m.o t/kernel/a.ko && xz -c m.o > t/kernel/b.ko.xz && "
		"cp m.o t/extra/d.ko && "
		"printf 'kernel/a.ko\\nkernel/b.ko\\nkernel/c.ko\\n' > t/modules.order && "
		"printf 'kernel/a.ko:\\nkernel/b.ko.xz: kernel/a.ko\\nextra/d.ko:\\n' > t/modules.dep"), 0);
	tree = strdup(fixture_path("t"));
	memset(&list, 0, sizeof(list));
	assert_true(module_tree_is_installed(tree));
	assert_int_equal(module_list_add(&list, tree), 0);
	assert_int_equal(list.n, 4);
	assert_string_equal(list.v[0].name, "kernel/a.ko");
	assert_string_equal(list.v[1].name, "kernel/b.ko.xz");
	assert_false(list.v[1].missing);
	assert_string_equal(list.v[2].name, "kernel/c.ko");
	assert_true(list.v[2].missing);
	assert_string_equal(list.v[3].name, "extra/d.ko");
	module_list_free(&list);
	/* Not a tree: walked, sorted, non-modules left out. */
	assert_int_equal(fixture_sh("rm t/modules.order t/modules.dep && "
				    "touch t/kernel/notes.txt"), 0);
	assert_false(module_tree_is_installed(tree));
	assert_int_equal(module_list_add(&list, tree), 0);
	assert_int_equal(list.n, 3);
	assert_string_equal(list.v[0].name, "extra/d.ko");
	assert_string_equal(list.v[2].name, "kernel/b.ko.xz");
	/* A file argument is taken as it is; a missing one is an error. */
	assert_int_equal(module_list_add(&list, fixture_path("m.o")), 0);
	assert_int_equal(list.n, 4);
	assert_int_equal(module_list_add(&list, fixture_path("none.ko")), -1);
	module_list_free(&list);
	/* A bad modules.order line is an error naming the line. */
	assert_int_equal(fixture_sh("printf 'kernel/a.ko\\n../x y.ko\\n' > t/modules.order"), 0);
	assert_int_equal(module_list_add(&list, tree), -1);
	module_list_free(&list);
	free(tree);
	fixture_end();
}

static void test_digest_names_of_tree(void **state)
{
	struct digest_names names;
	const struct digest_name *dn;
	struct allowlist al;
	unsigned char zero[32] = { 0 }, digest[32];
	size_t len, n;
	unsigned char *obj;

	(void)state;
	fixture_start();
	assert_int_equal(fixture_sh("mkdir t && printf 'int f;' > m.c && "
				    "cc -g -c -o t/m.ko m.c && xz -c t/m.ko > t/n.ko.xz"), 0);
	assert_null(allowlist_build(HASH_ALGO_SHA256, zero, 1, &al));
	assert_int_equal(digest_names_build(&al, fixture_path("t"), "strip",
					    &names), 0);
	obj = fixture_read("t/m.ko", &len);
	assert_int_equal(allowlist_digest(&al, obj, len, digest), 0);
	n = digest_names_find(&names, digest, &dn);
	/* The same bytes, as m.ko and decompressed from n.ko.xz. */
	assert_int_equal(n, 2);
	assert_string_equal(dn[0].form, "as-installed");
	assert_string_equal(dn[1].form, "decompressed");
	/* m.ko has debug info: its stripped form is another digest. */
	assert_int_equal(names.n, 4);
	assert_int_equal(digest_names_find(&names, zero, &dn), 0);
	free(obj);
	digest_names_free(&names);
	allowlist_free(&al);
	fixture_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_parsing),
		cmocka_unit_test(test_installed_tree),
		cmocka_unit_test(test_digest_names_of_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
