// SPDX-License-Identifier: GPL-2.0
/*
 * test-elf-reader.c - the list found through ELF symbols, through
 * System.map addresses, and the errors of both, on an ELF made by cc/ld.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "elf-reader.h"
#include "kernel-fixture.h"
#include "system-map.h"

static int setup(void **state)
{
	(void)state;
	fixture_start();
	return kernel_fixture_make();
}

static int teardown(void **state)
{
	(void)state;
	allowlist_free(&fixture_list);
	fixture_end();
	return 0;
}

static void test_symbols_give_the_list(void **state)
{
	struct elf_range r;
	size_t len, where;
	unsigned char *elf = fixture_read("vmlinux", &len);

	(void)state;
	assert_non_null(elf);
	assert_true(elf_looks_like(elf, len));
	assert_true(elf_has_symbols(elf, len));
	assert_null(elf_symbol_range(elf, len, "__module_hashes_start",
				     "__module_hashes_end", &r, &where));
	assert_int_equal(r.size, fixture_list.blob_len);
	assert_memory_equal(elf + r.offset, fixture_list.blob, r.size);
	free(elf);
}

static void test_relocatable_object_too(void **state)
{
	struct elf_range r;
	size_t len, where;
	unsigned char *obj = fixture_read("k.o", &len);

	(void)state;
	assert_non_null(obj);
	assert_null(elf_symbol_range(obj, len, "__module_hashes_start",
				     "__module_hashes_end", &r, &where));
	assert_memory_equal(obj + r.offset, fixture_list.blob, r.size);
	free(obj);
}

static void test_symbol_errors(void **state)
{
	struct elf_range r;
	size_t len, where;
	size_t stripped_len;
	unsigned char *stripped = fixture_read("vmlinux.stripped",
					       &stripped_len);
	unsigned char *elf = fixture_read("vmlinux", &len);

	(void)state;
	assert_string_equal(elf_symbol_range(elf, len, "__module_hashes_start",
					     "no_such_symbol", &r, &where),
			    "symbol not found");
	assert_string_equal(elf_symbol_range(elf, len, "__module_hashes_start",
					     "linux_banner", &r, &where),
			    "start and end symbols in different sections");
	assert_string_equal(elf_symbol_range(elf, len, "__module_hashes_end",
					     "__module_hashes_start", &r, &where),
			    "end symbol before start symbol");
	assert_false(elf_has_symbols(stripped, stripped_len));
	assert_string_equal(elf_symbol_range(stripped, stripped_len,
					     "__module_hashes_start",
					     "__module_hashes_end", &r, &where),
			    "no symbol table");
	assert_string_equal(elf_symbol_range((const unsigned char *)"KMODHASH",
					     8, "a", "b", &r, &where),
			    "not an ELF file");
	/* Cut short: the section's bytes are not all in the file. */
	assert_non_null(elf_symbol_range(elf, len / 2, "__module_hashes_start",
					 "__module_hashes_end", &r, &where));
	free(elf);
	free(stripped);
}

static void test_system_map_addresses(void **state)
{
	struct elf_range r;
	size_t len, map_len, where, line;
	unsigned char *stripped = fixture_read("vmlinux.stripped", &len);
	char *map = (char *)fixture_read("System.map", &map_len);
	uint64_t start, end;

	(void)state;
	assert_null(system_map_find(map, map_len, "__module_hashes_start",
				    &start, &line));
	assert_null(system_map_find(map, map_len, "__module_hashes_end",
				    &end, &line));
	assert_int_equal(end - start, fixture_list.blob_len);
	assert_null(elf_address_range(stripped, len, start, end, &r, &where));
	assert_memory_equal(stripped + r.offset, fixture_list.blob, r.size);
	assert_string_equal(elf_address_range(stripped, len, 16, 32, &r,
					      &where),
			    "no section holds the list's addresses");
	free(stripped);
	free(map);
}

static void test_system_map_errors(void **state)
{
	static const char bad[] = "ffffffff81000000 T _text\n"
				  "ffffffff81000010 T\n";
	static const char good[] = "ffffffff81000000 T _text\n"
				   "ffffffff81acc000 ? __nosave_begin\n"
				   "ffffffff81acd000 D after_question_mark\n";
	uint64_t addr;
	size_t line;

	(void)state;
	assert_string_equal(system_map_find(bad, sizeof(bad) - 1, "x", &addr,
					    &line),
			    "not a System.map line (ADDRESS TYPE NAME)");
	assert_int_equal(line, 2);
	assert_string_equal(system_map_find(good, sizeof(good) - 1, "_etext",
					    &addr, &line),
			    "symbol not in the System.map");
	assert_int_equal(line, 0);
	assert_null(system_map_find(good, sizeof(good) - 1, "_text", &addr,
				    &line));
	assert_true(addr == 0xffffffff81000000ull);
	/* kbuild's System.map has "?" types (linker-script symbols). */
	assert_null(system_map_find(good, sizeof(good) - 1,
				    "after_question_mark", &addr, &line));
	assert_int_equal(line, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols_give_the_list),
		cmocka_unit_test(test_relocatable_object_too),
		cmocka_unit_test(test_symbol_errors),
		cmocka_unit_test(test_system_map_addresses),
		cmocka_unit_test(test_system_map_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
