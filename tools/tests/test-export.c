// SPDX-License-Identifier: GPL-2.0
/*
 * test-export.c - modhash export --format=keylime as a user runs it, on a
 * tree of a module compiled here (plain and .ko.xz) and a list holding
 * its digest: both /usr layouts, the installed and the init_module
 * digests, the boot_aggregate from binary and ASCII lists or a value,
 * log_hash_alg, merging into a base policy and refusing a base that is
 * not a runtime policy (one case per rule of NOTES.md, S1-S8), naming
 * the file and the field.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <openssl/sha.h>

#include <linux/hash_info.h>

#include "boot-aggregate.h"
#include "commands.h"
#include "export-policy.h"
#include "fixtures.h"
#include "keylime-schema.h"
#include "log-builder.h"
#include "run-command.h"
#include "util.h"

static char out[8192];
static char policy_path[600];
static unsigned char ba[32];	/* the boot_aggregate of the lists made here */
static char ba_hex[65];

/* The path of NAME in the fixture directory; eight can be in use. */
static const char *f(const char *name)
{
	static char path[8][600];
	static int i;

	i = (i + 1) % 8;
	snprintf(path[i], sizeof(path[i]), "%s/%s", fixture_dir, name);
	return path[i];
}

static const char *hex_of(const unsigned char *d, size_t n)
{
	static char hex[2][129];
	static int i;

	i ^= 1;
	hex_encode(d, n, hex[i]);
	return hex[i];
}

/* sha256 of a fixture file, or of sha256(file) with TWICE. */
static const char *file_digest(const char *name, bool twice)
{
	unsigned char d[32];
	size_t len;
	unsigned char *buf = fixture_read(name, &len);

	assert_non_null(buf);
	SHA256(buf, len, d);
	if (twice)
		SHA256(d, 32, d);
	free(buf);
	return hex_of(d, 32);
}

/* modhash export ARGS... (NULL-terminated); its exit status. */
static int export(const char *first, ...)
{
	char *argv[24] = { "export" };
	int argc = 1;
	va_list ap;

	va_start(ap, first);
	for (argv[argc] = (char *)first; argv[argc] && argc < 23;
	     argv[++argc] = va_arg(ap, char *))
		;
	va_end(ap);
	return run_command(cmd_export, argv, out, sizeof(out));
}

/* Each list made here, the boot_aggregate first. */
static int write_lists(void)
{
	struct blob sha1 = { .len = 0 }, sha256 = { .len = 0 };
	struct blob other = { .len = 0 };
	unsigned char d[32] = { 7 };
	FILE *fp;

	memset(ba, 0x5a, sizeof(ba));
	ba[31] = 0xc3;
	hex_encode(ba, 32, ba_hex);
	log_add_ng(&sha1, "sha1", "boot_aggregate", "sha256", ba, 32);
	log_add_ng(&sha1, "sha1", "/lib/modules/tree/kernel/m.ko", "sha256", d, 32);
	log_add_ng(&sha256, "sha256", "boot_aggregate", "sha256", ba, 32);
	log_add_ng(&other, "sha256", "/lib/modules/tree/kernel/m.ko", "sha256", d, 32);
	if (fixture_write("sha1.log", sha1.data, sha1.len) ||
	    fixture_write("sha256.log", sha256.data, sha256.len) ||
	    fixture_write("other.log", other.data, other.len))
		return -1;
	fp = fopen(f("ascii.log"), "w");
	if (!fp)
		return -1;
	fprintf(fp, "10 %s ima-ng sha256:%s boot_aggregate\n",
		"0123456789012345678901234567890123456789", ba_hex);
	fprintf(fp, "10 %s ima-ng sha256:%s /x\n",
		"0123456789012345678901234567890123456789", hex_of(d, 32));
	return fclose(fp);
}

/* tree/: m.ko and z.ko.xz (the same module compressed); list.bin. */
static int setup(void **state)
{
	unsigned char digest[32], *mod;
	struct allowlist al;
	size_t len;

	(void)state;
	fixture_start();
	snprintf(policy_path, sizeof(policy_path), "%s",
		 f("policy.json"));
	if (fixture_sh("printf 'int f(void) { return 3; }' > m.c && "
		       "cc -c -o m.ko m.c && mkdir -p tree/kernel && "
		       "cp m.ko tree/kernel/ && xz -c m.ko > tree/kernel/z.ko.xz && "
		       "printf 'kernel/m.ko\\nkernel/z.ko.xz\\n' > tree/modules.order"))
		return -1;
	mod = fixture_read("m.ko", &len);
	if (!mod)
		return -1;
	SHA256(mod, len, digest);
	free(mod);
	if (allowlist_build(HASH_ALGO_SHA256, digest, 1, &al) ||
	    fixture_write("list.bin", al.blob, al.blob_len))
		return -1;
	allowlist_free(&al);
	return write_lists();
}

/* The policy written, parsed; FIELD of it (a.b: nested objects). */
static json_object *policy;

static json_object *get(const char *path)
{
	char copy[256], *key, *save = NULL;
	json_object *o = policy;

	snprintf(copy, sizeof(copy), "%s", path);
	for (key = strtok_r(copy, ".", &save); key && o;
	     key = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
	return o;
}

/* The digest list NAME of the policy's OBJECT ("digests", "ima-buf"). */
static json_object *list_of(const char *object, const char *name)
{
	json_object *o = get(object), *list = NULL;

	if (o)
		json_object_object_get_ex(o, name, &list);
	return list;
}

/* Is HEX the only digest of NAME in OBJECT? */
static bool only(const char *object, const char *name, const char *hex)
{
	json_object *list = list_of(object, name);

	return list && json_object_array_length(list) == 1 &&
	       !strcmp(json_object_get_string(json_object_array_get_idx(list, 0)),
		       hex);
}

static void load_policy(void)
{
	char field[320];

	json_object_put(policy);
	policy = json_object_from_file(policy_path);
	assert_non_null(policy);
	assert_null(keylime_policy_check(policy, field, sizeof(field)));
}

static int teardown(void **state)
{
	(void)state;
	json_object_put(policy);
	fixture_end();
	return 0;
}

static void test_both_layouts_and_forms(void **state)
{
	const char *m = file_digest("m.ko", false);

	(void)state;
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--ima-log", f("sha256.log"), "-o",
				policy_path, f("list.bin"), NULL), 0);
	load_policy();
	/* The file as installed, under both layouts. */
	assert_true(only("digests", "/lib/modules/tree/kernel/m.ko", m));
	assert_true(only("digests", "/usr/lib/modules/tree/kernel/m.ko", m));
	m = file_digest("tree/kernel/z.ko.xz", false);
	assert_true(only("digests", "/lib/modules/tree/kernel/z.ko.xz", m));
	assert_true(only("digests", "/usr/lib/modules/tree/kernel/z.ko.xz", m));
	/* ...and decompressed, as an initrd of Debian 12 holds it: m.ko. */
	m = file_digest("m.ko", false);
	assert_true(only("digests", "/lib/modules/tree/kernel/z.ko", m));
	assert_true(only("digests", "/usr/lib/modules/tree/kernel/z.ko", m));
	/* Both images are m.ko: one init_module digest, H(H(m.ko)). */
	assert_true(only("ima-buf", "init_module", file_digest("m.ko", true)));
	assert_true(only("ima-buf", "module-allowlist",
			 file_digest("list.bin", true)));
	assert_true(only("digests", "boot_aggregate", ba_hex));
	assert_string_equal(json_object_get_string(get("ima.log_hash_alg")),
			    "sha1");
	assert_null(strstr(out, "warning"));
	/* A --prefix under /usr/lib gets its /lib twin. */
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"-p", "/usr/lib/modules/r", "-o", policy_path,
				f("list.bin"), NULL), 0);
	load_policy();
	assert_non_null(list_of("digests", "/lib/modules/r/kernel/m.ko"));
	assert_non_null(list_of("digests", "/usr/lib/modules/r/kernel/m.ko"));
	assert_non_null(strstr(out, "warning: no boot_aggregate"));
	assert_null(list_of("digests", "boot_aggregate"));
}

static void test_boot_aggregate_sources(void **state)
{
	static const char *const logs[] = { "sha1.log", "sha256.log", "ascii.log" };
	char upper[80], hex[BOOT_AGGREGATE_HEX];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(boot_aggregate_from_log(f(logs[i]), hex), 0);
		assert_string_equal(hex, ba_hex);
	}
	snprintf(upper, sizeof(upper), "SHA256:%s", ba_hex);
	for (i = 7; upper[i]; i++)
		upper[i] = (char)toupper((unsigned char)upper[i]);
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--boot-aggregate", upper, "--ima-log",
				f("ascii.log"), "--boot-aggregate",
				"sha1:0123456789abcdef0123456789abcdef01234567",
				"-o", policy_path, f("list.bin"), NULL), 0);
	load_policy();
	/* Two distinct values: the same one given twice is listed once. */
	assert_int_equal(json_object_array_length(list_of("digests",
							  "boot_aggregate")), 2);
	/* A list that does not start with it, a value that is not hex. */
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--ima-log", f("other.log"), "-o",
				f("none.json"), f("list.bin"),
				NULL), 2);
	assert_non_null(strstr(out, "other.log: no boot_aggregate: the first "
			       "entry is not the boot_aggregate"));
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--ima-log", f("m.c"), "-o",
				f("none.json"), f("list.bin"),
				NULL), 2);
	assert_non_null(strstr(out, "m.c: no boot_aggregate"));
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--boot-aggregate", "sha256:xyz", "-o",
				f("none.json"), f("list.bin"),
				NULL), 2);
	assert_non_null(strstr(out, "boot_aggregate 'sha256:xyz': not"));
	assert_int_equal(fixture_sh("! ls none.json* 2>/dev/null"), 0);
}

static void test_log_hash_alg(void **state)
{
	(void)state;
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--log-hash-alg", "sha256", "-o", policy_path,
				f("list.bin"), NULL), 0);
	load_policy();
	assert_string_equal(json_object_get_string(get("ima.log_hash_alg")),
			    "sha256");
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--log-hash-alg", "md5", f("list.bin"),
				NULL), 2);
	assert_non_null(strstr(out, "--log-hash-alg: not sha1, sha256"));
	/* Keylime's options with the sha256sum format: a usage error. */
	assert_int_equal(export("-f", "sha256sum", "-m", f("tree"),
				"--ima-log", f("sha1.log"),
				f("list.bin"), NULL), 2);
	assert_non_null(strstr(out, "need --format=keylime"));
}

/*
 * A base policy; TOP's members (each after a comma) come last and so
 * replace the ones of the same name.
 */
static int write_base(const char *name, const char *top)
{
	FILE *fp = fopen(f(name), "w");

	if (!fp)
		return -1;
	fprintf(fp, "{%s%s}\n",
		"\"meta\": {\"version\": 1, \"generator\": 1, \"timestamp\": \"t\"},"
		"\"release\": 4, \"excludes\": [\"/tmp/.*\"], \"keyrings\": {},"
		"\"verification-keys\": \"\","
		"\"digests\": {\"/usr/bin/x\": [\"" "0123456789abcdef0123456789abcdef01234567" "\"],"
		"  \"/lib/modules/tree/kernel/m.ko\": [\"" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" "\"]},"
		"\n\"ima-buf\": {\"kexec-cmdline\": [\"" "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" "\"]},\n"
		"\"ima\": {\"ignored_keyrings\": [\".ima\"], \"log_hash_alg\": \"sha256\", \"dm_policy\": null}",
		top);
	return fclose(fp);
}

static void test_base_merge(void **state)
{
	json_object *list;

	(void)state;
	assert_int_equal(write_base("base.json", ""), 0);
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--base", f("base.json"), "--ima-log",
				f("sha1.log"), "-o", policy_path,
				f("list.bin"), NULL), 0);
	load_policy();
	/* The base's entries are kept, the modules' added. */
	assert_int_equal(json_object_get_int(get("release")), 4);
	assert_int_equal(json_object_get_int(get("meta.generator")), 1);
	assert_string_equal(json_object_get_string(get("meta.timestamp")), "t");
	assert_non_null(list_of("digests", "/usr/bin/x"));
	assert_non_null(list_of("ima-buf", "kexec-cmdline"));
	assert_non_null(list_of("ima-buf", "init_module"));
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(get("excludes"), 0)), "/tmp/.*");
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(get("ima.ignored_keyrings"), 0)), ".ima");
	list = list_of("digests", "/lib/modules/tree/kernel/m.ko");
	assert_int_equal(json_object_array_length(list), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(list, 1)),
			    file_digest("m.ko", false));
	/* The base's log_hash_alg unless one is asked for. */
	assert_string_equal(json_object_get_string(get("ima.log_hash_alg")),
			    "sha256");
	assert_int_equal(export("-f", "keylime", "-m", f("tree"),
				"--base", f("base.json"),
				"--log-hash-alg", "sha1", "-o", policy_path,
				f("list.bin"), NULL), 0);
	load_policy();
	assert_string_equal(json_object_get_string(get("ima.log_hash_alg")),
			    "sha1");
}

/* Bases that break one rule each: the message names the field. */
static void test_base_refused(void **state)
{
	static const struct {
		const char *top, *message;
	} cases[] = {
		/* S1: a member of the wrong type; S1 proper: below */
		{ ",\"ima-buf\": 0", "ima-buf: not an object" },
		{ ",\"verification-keys\": 1", "verification-keys: not a string" },
		/* S2 */
		{ ",\"meta\": {\"version\": 1, \"generator\": 7}",
		  "meta.generator: not a generator Keylime knows" },
		{ ",\"meta\": {\"version\": true, \"generator\": 0}",
		  "meta.version: not an integer" },
		/* S3 */
		{ ",\"release\": -1", "release: negative" },
		/* S4 */
		{ ",\"digests\": {\"/x\": [\"ABCDEF0123456789ABCDEF0123456789ABCDEF01\"]}",
		  "digests[\"/x\"][0]: not 40 to 128 lower-case hex digits" },
		{ ",\"keyrings\": {\".ima\": []}",
		  "keyrings[\".ima\"]: an empty array" },
		/* S5 */
		{ ",\"excludes\": [\"/tmp\", 3]", "excludes[1]: not a string" },
		/* S6 */
		{ ",\"ima\": {\"ignored_keyrings\": [], \"log_hash_alg\": \"md5\", \"dm_policy\": null}",
		  "ima.log_hash_alg: not sha1" },
		{ ",\"ima\": {\"ignored_keyrings\": [], \"log_hash_alg\": \"sha1\"}",
		  "ima.dm_policy: missing" },
		/* S7 */
		{ ",\"verification-keys\": \"{\\\"keyids\\\": [\\\"a\\\"], \\\"pubkeys\\\": []}\"",
		  "verification-keys.keyids: holds something else" },
		/* S8 */
		{ ",\"payload\": \"e30=\"", "payload: a signed policy (DSSE envelope)" },
	};
	static const struct {
		const char *make, *message;
	} files[] = {
		/* S1: a member missing; not JSON at all */
		{ "grep -v ima-buf base.json", "ima-buf: missing" },
		{ "printf '{\"meta\": '", "unexpected end of data" },
		{ "(cat base.json; echo x)", "something follows the JSON text" },
	};
	const size_t n = sizeof(cases) / sizeof(cases[0]);
	size_t i;

	(void)state;
	assert_int_equal(write_base("base.json", ""), 0);
	for (i = 0; i < n + sizeof(files) / sizeof(files[0]); i++) {
		if (i < n)
			assert_int_equal(write_base("bad.json", cases[i].top), 0);
		else
			assert_int_equal(fixture_sh("%s > bad.json",
						    files[i - n].make), 0);
		assert_int_equal(export("-f", "keylime", "-m", f("tree"),
					"--base", f("bad.json"), "-o",
					f("none.json"), f("list.bin"), NULL), 2);
		if (!strstr(out, "bad.json: not a Keylime runtime policy: ") ||
		    !strstr(out, i < n ? cases[i].message : files[i - n].message))
			fail_msg("case %zu: got %s", i, out);
	}
	assert_int_equal(fixture_sh("! ls none.json* 2>/dev/null"), 0);
}

static void test_twin_path(void **state)
{
	char *twin;

	(void)state;
	twin = export_twin_path("/lib/modules/r/a.ko");
	assert_string_equal(twin, "/usr/lib/modules/r/a.ko");
	free(twin);
	twin = export_twin_path("/usr/lib/modules/r/a.ko");
	assert_string_equal(twin, "/lib/modules/r/a.ko");
	free(twin);
	assert_null(export_twin_path("/opt/a.ko"));
	assert_null(export_twin_path("/library/a.ko"));
}

static void test_unpacked_path(void **state)
{
	char *p;

	(void)state;
	p = export_unpacked_path("/lib/modules/r/a.ko.xz");
	assert_string_equal(p, "/lib/modules/r/a.ko");
	free(p);
	p = export_unpacked_path("/usr/lib/modules/r/b.ko.zst");
	assert_string_equal(p, "/usr/lib/modules/r/b.ko");
	free(p);
	p = export_unpacked_path("c.ko.gz");
	assert_string_equal(p, "c.ko");
	free(p);
	assert_null(export_unpacked_path("/lib/modules/r/a.ko"));
	assert_null(export_unpacked_path("/lib/modules/r/a.xz"));
	assert_null(export_unpacked_path(".ko.xz"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_layouts_and_forms),
		cmocka_unit_test(test_boot_aggregate_sources),
		cmocka_unit_test(test_log_hash_alg),
		cmocka_unit_test(test_base_merge),
		cmocka_unit_test(test_base_refused),
		cmocka_unit_test(test_twin_path),
		cmocka_unit_test(test_unpacked_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
