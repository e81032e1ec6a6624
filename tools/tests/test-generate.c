// SPDX-License-Identifier: GPL-2.0
/*
 * test-generate.c - modhash generate: the list of a build's modules.order
 * (both forms, the .config's algorithm), of a directory walked for plain
 * and compressed modules, and the errors that name the module at fault.
 * Expected digests come from sha256sum/sha512sum over the very files, or
 * over what xz, zstd, gzip and strip make of them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <linux/hash_info.h>
#include <linux/module_hashes.h>

#include "commands.h"
#include "format.h"
#include "kbuild-order.h"
#include "util.h"
#include "fixtures.h"
#include "run-command.h"

static char out[8192];

/* Run modhash generate with the NULL-terminated arguments. */
#define generate(...) \
	run_command(cmd_generate, (char *[]){ "generate", __VA_ARGS__, NULL }, \
		    out, sizeof(out))

/*
 * The list in fixture NAME: valid, of ALGO, and its digests as sorted hex
 * lines equal to the fixture EXPECT (lines "hex" sorted, no repeats).
 */
static void assert_list(const char *name, unsigned int algo, const char *expect)
{
	const struct module_hashes_header *hdr;
	unsigned char *blob, *want;
	struct allowlist al;
	size_t len, want_len, offset, i;
	char hex[2 * ALLOWLIST_MAX_DIGEST + 2], *got;

	blob = fixture_read(name, &len);
	want = fixture_read(expect, &want_len);
	assert_non_null(blob);
	assert_non_null(want);
	assert_null(allowlist_parse(blob, len, &al, &offset));
	hdr = (const struct module_hashes_header *)blob;
	assert_memory_equal(hdr->magic, MODULE_HASHES_MAGIC, MODULE_HASHES_MAGIC_LEN);
	assert_int_equal(al.algo, algo);
	got = calloc(al.count + 1, sizeof(hex));
	assert_non_null(got);
	for (i = 0; i < al.count; i++) {
		hex_encode(al.digests + i * al.digest_size, al.digest_size, hex);
		strcat(hex, "\n");
		strcat(got, hex);
	}
	assert_string_equal(got, (const char *)want);
	free(got);
	free(blob);
	free(want);
}

/* Two modules with debug information, a and b, as a build leaves them. */
static void make_build(void)
{
	assert_int_equal(fixture_sh(
		"rm -rf b && mkdir -p b/drivers/a b/lib && "
		"printf 'int a_init(void) { return 1; }\\n' > a.c && "
		"printf 'int b_init(void) { return 2; }\\n' > b.c && "
		"cc -g -c -o b/drivers/a/a.ko a.c && cc -g -c -o b/lib/b.ko b.c && "
		"strip --strip-debug -o b/drivers/a/a.ko.stripped b/drivers/a/a.ko && "
		"strip --strip-debug -o b/lib/b.ko.stripped b/lib/b.ko && "
		"printf 'drivers/a/a.o\\n\\nlib/b.o  \\n' > b/modules.order"), 0);
}

/* sha256sum (or TOOL) of FILES as sorted unique hex lines in EXPECT. */
static void expect_sums(const char *tool, const char *files, const char *expect)
{
	assert_int_equal(fixture_sh("%s %s | cut -d' ' -f1 | LC_ALL=C sort -u > %s",
				    tool, files, expect), 0);
}

/*
 * The command printed nothing and wrote to fixture NAME the list of ALGO
 * whose digests TOOL (sha256sum, sha512sum) gives for FILES.
 */
static void assert_generated(const char *name, unsigned int algo,
			     const char *tool, const char *files)
{
	assert_string_equal(out, "");
	expect_sums(tool, files, "expect.hex");
	assert_list(name, algo, "expect.hex");
}

static void test_build(void **state)
{
	char list[512];

	(void)state;
	snprintf(list, sizeof(list), "%s", fixture_path("build.bin"));
	make_build();
	/* No .config: the built form, sha256. */
	assert_int_equal(generate("-o", list, (char *)fixture_path("b/modules.order")), EXIT_ACCEPTED);
	assert_generated("build.bin", HASH_ALGO_SHA256, "sha256sum",
			 "b/drivers/a/a.ko b/lib/b.ko");
	/* The .config's forms and algorithm, as the kernel's build uses them. */
	assert_int_equal(fixture_sh(
		"printf 'CONFIG_MODULES=y\\nCONFIG_MODULE_HASHES_ALGO=\"sha512\"\\n"
		"CONFIG_MODULE_HASHES_FORMS=\"built,stripped\"\\n' > b/.config"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("b")), EXIT_ACCEPTED);
	assert_generated("build.bin", HASH_ALGO_SHA512, "sha512sum",
			 "b/drivers/a/a.ko b/lib/b.ko b/drivers/a/a.ko.stripped b/lib/b.ko.stripped");
	/* Options win over the .config. */
	assert_int_equal(generate("-a", "sha256", "--forms=stripped", "-o", list,
				  (char *)fixture_path("b/modules.order")), EXIT_ACCEPTED);
	assert_generated("build.bin", HASH_ALGO_SHA256, "sha256sum",
			 "b/drivers/a/a.ko.stripped b/lib/b.ko.stripped");
	/* An empty modules.order is a build without modules: a list of none. */
	assert_int_equal(fixture_sh("mkdir -p e && : > e/modules.order && : > none.hex"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("e/modules.order")), EXIT_ACCEPTED);
	assert_list("build.bin", HASH_ALGO_SHA256, "none.hex");
}

/*
 * A directory: walked below, .ko and compressed forms (hashed as the
 * loader gets them, decompressed), anything else and symlinks left out.
 */
static void test_directory_walk(void **state)
{
	char list[512];

	(void)state;
	snprintf(list, sizeof(list), "%s", fixture_path("walk.bin"));
	make_build();
	assert_int_equal(fixture_sh(
		"rm -rf w && mkdir -p w/kernel/deeper w/extra && "
		"cp b/drivers/a/a.ko w/kernel/a.ko && "
		"xz -c b/lib/b.ko > w/kernel/deeper/b.ko.xz && "
		"cp b/lib/b.ko.stripped w/extra/bs.ko && zstd -q -c w/extra/bs.ko > w/extra/bs2.ko.zst && "
		"gzip -n -c b/drivers/a/a.ko.stripped > w/extra/as.ko.gz && "
		"echo notes > w/README && cp b/lib/b.ko w/extra/b.o && "
		"ln -s ../kernel/a.ko w/extra/link.ko"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("w")), EXIT_ACCEPTED);
	assert_generated("walk.bin", HASH_ALGO_SHA256, "sha256sum",
			 "b/drivers/a/a.ko b/lib/b.ko b/lib/b.ko.stripped b/drivers/a/a.ko.stripped");
	/* Both forms: the stripped one made with strip --strip-debug. */
	assert_int_equal(generate("--forms=built,stripped", "-o", list,
				  (char *)fixture_path("w/kernel")), EXIT_ACCEPTED);
	assert_int_equal(fixture_sh("xz -dc w/kernel/deeper/b.ko.xz > b-plain && "
				    "strip --strip-debug -o b-stripped b-plain"), 0);
	assert_generated("walk.bin", HASH_ALGO_SHA256, "sha256sum",
			 "b/drivers/a/a.ko b/lib/b.ko b/drivers/a/a.ko.stripped b-stripped");
	/* The text forms name the file behind each digest. */
	assert_int_equal(generate("-f", "sha256sum", (char *)fixture_path("w/kernel")), EXIT_ACCEPTED);
	assert_int_equal(fixture_sh("sha256sum \"$PWD/w/kernel/a.ko\" > a.sum && "
				    "printf '# %%s  %%s (decompressed)\\n' $(sha256sum < b-plain | cut -d' ' -f1) "
				    "\"$PWD/w/kernel/deeper/b.ko.xz\" > b.sum"), 0);
	{
		size_t len;
		char *a = (char *)fixture_read("a.sum", &len);
		char *b = (char *)fixture_read("b.sum", &len);

		assert_non_null(a);
		assert_non_null(b);
		assert_non_null(strstr(out, a));
		assert_non_null(strstr(out, b));
		free(a);
		free(b);
	}
	/* Several sources make one list; module files may be named. */
	assert_int_equal(generate("-o", list, (char *)fixture_path("w/kernel/a.ko"),
				  (char *)fixture_path("w/extra")), EXIT_ACCEPTED);
	assert_generated("walk.bin", HASH_ALGO_SHA256, "sha256sum",
			 "b/drivers/a/a.ko b/lib/b.ko.stripped b/drivers/a/a.ko.stripped");
}

/* The command printed exactly the line FMT makes. */
static void assert_out(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void assert_out(const char *fmt, ...)
{
	char expect[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(expect, sizeof(expect), fmt, ap);
	va_end(ap);
	assert_string_equal(out, expect);
}

/* LIST is the path of "kept.bin", an output that must stay as it is. */
static void start_kept(char *list, size_t size)
{
	snprintf(list, size, "%s", fixture_path("kept.bin"));
	make_build();
	assert_int_equal(fixture_write("kept.bin", "kept\n", 5), 0);
}

/* Nothing is written when anything fails; the output stays as it was. */
static void assert_untouched(const char *name)
{
	size_t len;
	unsigned char *kept = fixture_read(name, &len);

	assert_non_null(kept);
	assert_string_equal((const char *)kept, "kept\n");
	free(kept);
	assert_int_equal(fixture_sh("test \"$(ls %s.* 2>/dev/null)\" = ''", name), 0);
}

static void test_missing_module(void **state)
{
	char list[512];

	(void)state;
	start_kept(list, sizeof(list));
	assert_int_equal(fixture_sh("printf 'drivers/a/a.o\\nlib/gone.o\\nlib/b.o\\n' > b/modules.order"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("b/modules.order")), EXIT_ERROR);
	assert_out("modhash: %s/b/lib/gone.ko: missing (named by %s/b/modules.order, line 2)\n",
		   fixture_dir, fixture_dir);
	assert_untouched("kept.bin");
	/* The stripped form asked for and not made. */
	assert_int_equal(fixture_sh("printf 'lib/b.o\\n' > b/modules.order && rm b/lib/b.ko.stripped"), 0);
	assert_int_equal(generate("--forms=built,stripped", "-o", list,
				  (char *)fixture_path("b")), EXIT_ERROR);
	assert_out("modhash: %s/b/lib/b.ko.stripped: missing (named by %s/b/modules.order, line 1)\n",
		   fixture_dir, fixture_dir);
	assert_untouched("kept.bin");
	/* An installed tree whose modules.order names a module it lacks. */
	assert_int_equal(fixture_sh("rm -rf t && mkdir -p t/kernel && cp b/lib/b.ko t/kernel/ && "
				    "printf 'kernel/b.ko\\nkernel/c.ko\\n' > t/modules.order"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("t")), EXIT_ERROR);
	assert_out("modhash: %s/t/kernel/c.ko: missing (named by the tree's modules.order or modules.dep)\n",
		   fixture_dir);
	assert_untouched("kept.bin");
}

static void test_errors(void **state)
{
	char list[512];

	(void)state;
	start_kept(list, sizeof(list));
	assert_int_equal(generate("-a", "md5", "-o", list, (char *)fixture_path("b")), EXIT_ERROR);
	assert_string_equal(out, "modhash: unknown digest algorithm 'md5' (sha256, sha384, sha512)\n"
			    "Try 'modhash --help'.\n");
	assert_int_equal(generate("--forms=debug", (char *)fixture_path("b")), EXIT_ERROR);
	assert_string_equal(out, "modhash: unknown forms 'debug' (built, stripped, built,stripped)\n"
			    "Try 'modhash --help'.\n");
	assert_int_equal(run_command(cmd_generate, (char *[]){ "generate", NULL }, out, sizeof(out)), EXIT_ERROR);
	assert_non_null(strstr(out, "missing SOURCE"));
	/* An empty directory is a mistake, not an empty list. */
	assert_int_equal(fixture_sh("mkdir -p empty"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("empty")), EXIT_ERROR);
	assert_out("modhash: %s/empty: no module files (*.ko, *.ko.xz, *.ko.zst, *.ko.gz) in it\n",
		   fixture_dir);
	/* A modules.order line that is no object, by its line. */
	assert_int_equal(fixture_sh("printf 'lib/b.o\\nlib/b.ko\\n' > b/modules.order"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("b/modules.order")), EXIT_ERROR);
	assert_out("modhash: %s/b/modules.order: line 2: not an object of the build (dir/x.o)\n",
		   fixture_dir);
	/* Neither a build's modules.order nor a module. */
	assert_int_equal(fixture_sh("printf 'kernel/b.ko\\n' > b/modules.order"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("b/modules.order")), EXIT_ERROR);
	assert_non_null(strstr(out, "not a kernel build's modules.order"));
	/* A compressed module the kernel could not decompress. */
	assert_int_equal(fixture_sh("rm -rf bad && mkdir bad && xz -c b/lib/b.ko | head -c 100 > bad/b.ko.xz"), 0);
	assert_int_equal(generate("-o", list, (char *)fixture_path("bad")), EXIT_ERROR);
	assert_out("modhash: %s/bad/b.ko.xz: the kernel would not load it: does not decompress\n",
		   fixture_dir);
	assert_untouched("kept.bin");
}

static int add_stem(void *ctx, const char *stem, size_t stem_len, size_t line)
{
	char *seen = ctx;

	snprintf(seen + strlen(seen), 256, "%zu:%.*s;", line, (int)stem_len, stem);
	return 0;
}

/* modules.order as kbuild writes it, and the .config's string options. */
static void test_order_and_config(void **state)
{
	static const char order[] = "lib/x.o\n\n/abs/m/y.o \t\r\nz.o";
	char seen[1024] = "", value[16];
	struct kbuild_order o;
	int saved_err, null;

	(void)state;
	assert_int_equal(kbuild_order_parse(order, sizeof(order) - 1, add_stem, seen), 0);
	assert_string_equal(seen, "1:lib/x;3:/abs/m/y;4:z;");
	assert_int_equal(kbuild_order_parse("a.o\nb c.o\n", 10, add_stem, seen), 2);
	assert_int_equal(kbuild_order_parse("a.ko\n", 5, add_stem, seen), 1);
	assert_true(kbuild_order_names_objects("\n\nlib/x.o\n", 9));
	assert_false(kbuild_order_names_objects("kernel/x.ko\n", 12));
	assert_int_equal(kbuild_order_from_text(order, sizeof(order) - 1, "o", "/b", &o), 0);
	assert_int_equal(o.n, 3);
	assert_string_equal(o.v[0].stem, "/b/lib/x");
	assert_string_equal(o.v[1].stem, "/abs/m/y");	/* make M=/abs/m */
	assert_int_equal(o.v[2].line, 4);
	kbuild_order_free(&o);
	assert_int_equal(fixture_sh("printf '# CONFIG_X is not set\\nCONFIG_A=\"sha384\"\\nCONFIG_B=y\\nCONFIG_C=\"unterminated\\n' > cfg"), 0);
	assert_int_equal(kbuild_config_string(fixture_path("cfg"), "CONFIG_A", value, sizeof(value)), 1);
	assert_string_equal(value, "sha384");
	assert_int_equal(kbuild_config_string(fixture_path("cfg"), "CONFIG_X", value, sizeof(value)), 0);
	/* Its message goes where the test's output does not. */
	saved_err = dup(2);
	null = open("/dev/null", O_WRONLY);
	assert_true(saved_err >= 0 && null >= 0 && dup2(null, 2) == 2);
	close(null);
	assert_int_equal(kbuild_config_string(fixture_path("cfg"), "CONFIG_C", value, sizeof(value)), -1);
	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	assert_int_equal(kbuild_config_string(fixture_path("nonexistent"), "CONFIG_A", value, sizeof(value)), 0);
}

static void test_sort_unique(void **state)
{
	unsigned char d[5][2] = { { 9, 1 }, { 0, 2 }, { 9, 1 }, { 0, 1 }, { 0, 2 } };
	static const unsigned char want[3][2] = { { 0, 1 }, { 0, 2 }, { 9, 1 } };

	(void)state;
	assert_int_equal(digests_sort_unique(&d[0][0], 5, 2), 3);
	assert_memory_equal(d, want, sizeof(want));
	assert_int_equal(digests_sort_unique(&d[0][0], 0, 2), 0);
}

static int setup(void **state)
{
	(void)state;
	fixture_start();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_directory_walk),
		cmocka_unit_test(test_missing_module),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_order_and_config),
		cmocka_unit_test(test_sort_unique),
	};

	return cmocka_run_group_tests_name("generate", tests, setup,
					   fixture_teardown);
}
