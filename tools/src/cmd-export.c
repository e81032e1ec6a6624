// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-export.c - modhash export: reference values for attestation, the
 * digests of the module files as installed (what IMA measures when
 * finit_module() reads them), cross-checked against the kernel's list.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "boot-aggregate.h"
#include "export-policy.h"
#include "keylime-schema.h"
#include "kernel-image.h"
#include "module-assess.h"
#include "module-file.h"
#include "module-tree.h"
#include "util.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash export --format=FORMAT --modules=DIR [OPTION]... KERNEL\n"
		"Reference values for the modules installed in DIR, as IMA measures them,\n"
		"after checking each against KERNEL's module allowlist.\n\n"
		"  -f, --format=FORMAT   sha256sum (\"hex  path\" lines, for sha256sum -c and\n"
		"                        keylime-policy create runtime) or keylime (a\n"
		"                        Keylime runtime policy, JSON)\n"
		"  -m, --modules=DIR     an installed /lib/modules/RELEASE tree (or any\n"
		"                        directory of modules)\n"
		"  -p, --prefix=PATH     the path IMA logs for DIR (default /lib/modules/\n"
		"                        and DIR's name for a tree, DIR itself otherwise)\n"
		"      --ima-hash=ALGO   IMA's file hash (ima_hash=; default sha256)\n"
		"  -s, --system-map=FILE the kernel's System.map (for a bzImage)\n"
		"      --strip=PROGRAM   strip program (default $STRIP or strip)\n"
		"  -o, --output=FILE     write FILE atomically instead of standard output\n"
		"      --follow-symlinks\n"
		"                        if FILE is a symbolic link, replace its target\n"
		"                        (without it, a link at FILE is refused)\n"
		"  -q, --quiet           no warnings that leave the exit status at 0\n"
		"  -v, --verbose         say what is read, exported and written\n"
		"  -V, --version         print the version and the features\n"
		"  -h, --help            show this help\n\n"
		"For --format=keylime:\n"
		"      --ima-log=FILE    take the boot_aggregate from this IMA list\n"
		"                        (binary or ASCII, any bank; repeatable)\n"
		"      --boot-aggregate=[ALGO:]HEX  list this boot_aggregate (repeatable)\n"
		"      --log-hash-alg=ALGO  the template hash of the list the agent sends:\n"
		"                        sha1 (default: ascii_runtime_measurements), or\n"
		"                        sha256, sha384, sha512 (ascii_runtime_measurements_ALGO)\n"
		"      --base=FILE       merge into this runtime policy (keeps its entries)\n\n"
		"Modules the list does not accept are left out and named on standard\n"
		"error (signed ones are kept: their signature may be trusted).\n"
		"Exit status: 0 every module accepted, 1 some not, 2 error.  See\n"
		"modhash-export(1).\n");
}

/* The most boot aggregates one export lists. */
#define MAX_BOOT_AGGREGATES 16

struct export_opts {
	const char *modules, *prefix, *strip;
	int ima_algo;
	bool keylime;
	const char *log_hash_alg, *base;
	unsigned int out_flags;		/* out_open()'s */
	const char *ima_logs[MAX_BOOT_AGGREGATES];
	size_t n_ima_logs;
	const char *values[MAX_BOOT_AGGREGATES];
	size_t n_values;
};

static char *default_prefix(const char *dir)
{
	char real[PATH_MAX], *prefix;

	if (!realpath(dir, real))
		return NULL;
	if (!module_tree_is_installed(dir))
		return strdup(real);
	prefix = malloc(strlen(real) + sizeof("/lib/modules/"));
	if (prefix)
		sprintf(prefix, "/lib/modules/%s", basename(real));
	return prefix;
}

/*
 * The file's digest (what MODULE_CHECK measures), its decompressed
 * image's (what MODULE_CHECK measures of the initrd's decompressed copy)
 * and the init_module entry's digest of that image (what a loader that
 * decompresses in user space hands to init_module).  0 or -1.
 */
static int hash_module(const char *path, unsigned int algo,
		       struct export_entry *out)
{
	struct module_file m;
	unsigned int n;
	int ok;

	if (module_file_read(path, &m))
		return -1;
	out->compressed = m.comp != COMP_NONE;
	ok = EVP_Digest(m.file, m.file_len, out->digest, &n,
			hash_algo_md(algo), NULL) &&
	     EVP_Digest(m.image, m.image_len, out->image_digest, &n,
			hash_algo_md(algo), NULL) &&
	     !ima_hashed_buffer_digest(algo, m.image, m.image_len,
				       out->buffer_digest);
	module_file_free(&m);
	if (!ok)
		fail_at(path, "cannot hash");
	return ok ? 0 : -1;
}

/* Hash the file for IMA and check it against the list.  0, 1 left out, -1. */
static int export_one(const struct allowlist *al, const struct module_entry *e,
		      const struct export_opts *o, const char *prefix,
		      struct export_entry *out)
{
	struct module_assessment a;

	if (e->missing) {
		fail_at(e->path, "not exported: missing (named by the tree's "
			"index, not installed)");
		return 1;
	}
	if (module_assess(al, e->path, o->strip, false, &a))
		return -1;
	if (a.verdict != VERDICT_LISTED && a.verdict != VERDICT_NEEDS_SIGNATURE) {
		fail_at(e->path, "not exported: %s: %s", verdict_name(a.verdict),
			a.reason);
		return 1;
	}
	if (hash_module(e->path, (unsigned int)o->ima_algo, out))
		return -1;
	out->path = malloc(strlen(prefix) + strlen(e->name) + 2);
	if (!out->path)
		return -1;
	sprintf(out->path, "%s/%s", prefix, e->name);
	if (a.verdict == VERDICT_NEEDS_SIGNATURE) {
		fail_at(e->path, "exported, but %s: %s", verdict_name(a.verdict),
			a.reason);
		return 1;
	}
	return 0;
}

/* What --format=keylime adds to the modules, read before any is hashed. */
struct keylime_inputs {
	struct keylime_options k;
	unsigned char event[ALLOWLIST_MAX_DIGEST];
	char hex[2 * MAX_BOOT_AGGREGATES][BOOT_AGGREGATE_HEX];
	char *aggregates[2 * MAX_BOOT_AGGREGATES];
};

/* The base and every boot aggregate asked for.  0 or -1. */
static int keylime_inputs(const struct export_opts *o,
			  struct keylime_inputs *in)
{
	size_t i, n = 0;

	memset(in, 0, sizeof(*in));
	in->k.algo = (unsigned int)o->ima_algo;
	in->k.log_hash_alg = o->log_hash_alg;
	in->k.allowlist_event = in->event;
	in->k.boot_aggregates = in->aggregates;
	for (i = 0; i < 2 * MAX_BOOT_AGGREGATES; i++)
		in->aggregates[i] = in->hex[i];
	for (i = 0; i < o->n_ima_logs; i++)
		if (boot_aggregate_from_log(o->ima_logs[i], in->hex[n++]))
			return -1;
	for (i = 0; i < o->n_values; i++)
		if (boot_aggregate_parse(o->values[i], in->hex[n++]))
			return -1;
	in->k.n_boot_aggregates = n;
	if (o->base && !(in->k.base = keylime_policy_read(o->base)))
		return -1;
	return 0;
}

/* Has the policy a boot_aggregate?  Keylime refuses entry 0 without. */
static void warn_boot_aggregate(json_object *policy)
{
	json_object *digests, *x;

	if (json_object_object_get_ex(policy, "digests", &digests) &&
	    json_object_object_get_ex(digests, BOOT_AGGREGATE_NAME, &x))
		return;
	if (verbosity < VERBOSITY_NORMAL)
		return;
	fail_at(NULL, "warning: no boot_aggregate (--ima-log, --boot-aggregate): "
		"Keylime refuses the list's first entry unless a measured-boot "
		"policy gives it one");
}

static int write_keylime(FILE *fp, const struct allowlist *al,
			 const struct export_entry *v, size_t n,
			 struct keylime_inputs *in)
{
	json_object *policy;

	if (allowlist_event_digest(al, in->k.algo, in->event))
		return -1;
	policy = export_keylime(v, n, &in->k);
	if (!policy)
		return -1;
	warn_boot_aggregate(policy);
	fputs(json_object_to_json_string_ext(policy,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), fp);
	fputc('\n', fp);
	json_object_put(policy);
	return 0;
}

static int write_output(const char *output, const struct allowlist *al,
			const struct export_entry *v, size_t n,
			const struct export_opts *o, struct keylime_inputs *in)
{
	struct out_file out;
	FILE *fp = out_open(&out, output, o->out_flags);

	if (!fp)
		return -1;
	if (o->keylime) {
		if (write_keylime(fp, al, v, n, in)) {
			out_abort(&out);
			return -1;
		}
	} else {
		export_sha256sum(fp, v, n, (unsigned int)o->ima_algo);
	}
	return out_commit(&out);
}

/* Options only --format=keylime takes; NULL if all is well. */
static const char *keylime_usage(const struct export_opts *o)
{
	if (!o->keylime && (o->n_ima_logs || o->n_values || o->base ||
			    o->log_hash_alg))
		return "--ima-log, --boot-aggregate, --log-hash-alg and --base "
		       "need --format=keylime";
	if (o->log_hash_alg && !keylime_log_hash_alg_known(o->log_hash_alg))
		return "--log-hash-alg: not sha1, sha256, sha384 or sha512";
	return NULL;
}

/* Add ARG to a repeatable option's list; false if it is full. */
static bool add_arg(const char **list, size_t *n, const char *arg)
{
	if (*n == MAX_BOOT_AGGREGATES)
		return false;
	list[(*n)++] = arg;
	return true;
}

enum { OPT_IMA_HASH = 256, OPT_STRIP, OPT_IMA_LOG, OPT_BOOT_AGGREGATE,
       OPT_LOG_HASH_ALG, OPT_BASE, OPT_FOLLOW_SYMLINKS };

int cmd_export(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "modules", required_argument, NULL, 'm' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "ima-hash", required_argument, NULL, OPT_IMA_HASH },
		{ "system-map", required_argument, NULL, 's' },
		{ "strip", required_argument, NULL, OPT_STRIP },
		{ "output", required_argument, NULL, 'o' },
		{ "follow-symlinks", no_argument, NULL, OPT_FOLLOW_SYMLINKS },
		{ "ima-log", required_argument, NULL, OPT_IMA_LOG },
		{ "boot-aggregate", required_argument, NULL, OPT_BOOT_AGGREGATE },
		{ "log-hash-alg", required_argument, NULL, OPT_LOG_HASH_ALG },
		{ "base", required_argument, NULL, OPT_BASE },
		CLI_COMMON_OPTIONS,
	};
	struct export_opts o = { .strip = module_strip_program(), .ima_algo = -1 };
	const char *format = NULL, *output = "-", *map = NULL, *ima = "sha256";
	const char *why = NULL;
	struct export_entry *v = NULL;
	struct keylime_inputs in;
	struct module_list list;
	struct allowlist al;
	char *prefix = NULL;
	size_t i, n = 0;
	int c, ret = EXIT_ERROR, refused = 0, status;

	while ((c = cli_getopt(argc, argv, "f:m:p:s:o:", options, usage,
				&status)) != -1) {
		switch (c) {
		case CLI_STOP: return status;
		case 'f': format = optarg; break;
		case 'm': o.modules = optarg; break;
		case 'p': o.prefix = optarg; break;
		case OPT_IMA_HASH: ima = optarg; break;
		case 's': map = optarg; break;
		case OPT_STRIP: o.strip = optarg; break;
		case 'o': output = optarg; break;
		case OPT_FOLLOW_SYMLINKS:
			o.out_flags |= OUT_FOLLOW_SYMLINKS;
			break;
		case OPT_IMA_LOG:
			if (!add_arg(o.ima_logs, &o.n_ima_logs, optarg))
				why = "too many --ima-log";
			break;
		case OPT_BOOT_AGGREGATE:
			if (!add_arg(o.values, &o.n_values, optarg))
				why = "too many --boot-aggregate";
			break;
		case OPT_LOG_HASH_ALG: o.log_hash_alg = optarg; break;
		case OPT_BASE: o.base = optarg; break;
		}
	}
	o.ima_algo = hash_algo_by_name(ima);
	o.keylime = format && !strcmp(format, "keylime");
	if (!why)
		why = keylime_usage(&o);
	if (why)
		return usage_error("%s", why);
	if (!format)
		return usage_error("missing --format (sha256sum or keylime)");
	if (strcmp(format, "sha256sum") && !o.keylime)
		return usage_error("unknown format '%s' (sha256sum or keylime)",
				   format);
	if (!o.modules)
		return usage_error("missing --modules DIR");
	if (o.ima_algo < 0)
		return usage_error("--ima-hash: unknown hash algorithm '%s'", ima);
	if (optind == argc)
		return usage_error("missing KERNEL");
	if (optind < argc - 1)
		return usage_error("too many arguments: '%s' after KERNEL",
				   argv[optind + 1]);
	memset(&list, 0, sizeof(list));
	memset(&in, 0, sizeof(in));
	if (o.keylime && keylime_inputs(&o, &in)) {
		json_object_put(in.k.base);
		return EXIT_ERROR;
	}
	if (kernel_allowlist_load_map(argv[optind], map, &al)) {
		json_object_put(in.k.base);
		return EXIT_ERROR;
	}
	prefix = o.prefix ? strdup(o.prefix) : default_prefix(o.modules);
	if (!prefix) {
		fail_at(o.modules, "cannot resolve the directory");
		goto out;
	}
	if (module_list_add(&list, o.modules))
		goto out;
	v = calloc(list.n + 1, sizeof(*v));
	if (!v)
		goto out;
	for (i = 0; i < list.n; i++) {
		int r = export_one(&al, &list.v[i], &o, prefix, &v[n]);

		if (r < 0)
			goto out;
		refused |= r;
		if (v[n].path)
			n++;
	}
	verbose("%s: %zu module files, %zu exported under %s", o.modules,
		list.n, n, prefix);
	if (write_output(output, &al, v, n, &o, &in))
		goto out;
	verbose("%s: written as %s", strcmp(output, "-") ? output : "(stdout)",
		format);
	ret = refused ? EXIT_REFUSED : EXIT_ACCEPTED;
out:
	for (i = 0; v && i < n; i++)
		free(v[i].path);
	free(v);
	free(prefix);
	module_list_free(&list);
	allowlist_free(&al);
	json_object_put(in.k.base);
	return ret;
}
