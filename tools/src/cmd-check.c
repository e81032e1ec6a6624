// SPDX-License-Identifier: GPL-2.0
/* cmd-check.c - modhash check: does a kernel accept these module files? */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json-out.h"
#include "kernel-image.h"
#include "module-assess.h"
#include "module-file.h"
#include "module-tree.h"
#include "util.h"

#define RUNNING_KERNEL "/sys/kernel/security/ima/module_hashes"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash check [OPTION]... FILE|DIR...\n"
		"Tell whether KERNEL's module allowlist accepts each module file: a\n"
		".ko, .ko.xz, .ko.zst or .ko.gz, every module below a directory, or an\n"
		"installed /lib/modules/RELEASE tree (through its modules.order).\n"
		"One line a module, tab-separated: path, verdict (listed, not-listed,\n"
		"listed-after-strip, needs-signature, missing), the digest the loader\n"
		"computes, and why.\n\n"
		"  -k, --kernel=KERNEL   the kernel (raw list, vmlinux, bzImage or securityfs\n"
		"                        file; default " RUNNING_KERNEL ")\n"
		"  -s, --system-map=FILE the kernel's System.map (for a bzImage)\n"
		"      --signed-ok       count needs-signature as accepted (the kernel\n"
		"                        trusts the signer)\n"
		"      --strip=PROGRAM   strip program (default $STRIP or strip)\n"
		"  -f, --format=FORMAT   text (default) or json: one document with the\n"
		"                        same facts\n"
		"  -q, --quiet           print only the modules that are not accepted, no\n"
		"                        summary\n"
		"  -v, --verbose         say which kernel and modules are read\n"
		"  -V, --version         print the version and the features\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 all accepted, 1 some not, 2 error.  See modhash-check(1).\n");
}

struct check_opts {
	const char *strip;
	bool signed_ok;
	json_object *modules;	/* --format=json: the array, else NULL */
};

static json_object *json_module(const char *path, const char *verdict,
				json_object *digest, const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "verdict", json_object_new_string(verdict));
	json_object_object_add(o, "digest", digest);
	json_object_object_add(o, "reason", json_object_new_string(reason));
	return o;
}

/* The tally and the list's facts as JSON, after the modules. */
static int print_json(const struct allowlist *al, const char *kernel,
		      const struct verdict_tally *tally, json_object *modules,
		      int status)
{
	json_object *root = json_object_new_object();
	json_object *counts = json_object_new_object();
	size_t v;

	json_object_object_add(root, "kernel", json_object_new_string(kernel));
	json_object_object_add(root, "algorithm",
			       json_object_new_string(hash_algo_name(al->algo)));
	json_object_object_add(root, "modules", modules);
	for (v = 0; v <= VERDICT_MISSING; v++)
		json_object_object_add(counts, verdict_name((enum verdict)v),
				       json_object_new_uint64(tally->count[v]));
	json_object_object_add(root, "counts", counts);
	json_object_object_add(root, "accepted",
			       json_object_new_boolean(status == EXIT_ACCEPTED));
	return json_out_print(root);
}

static void check_one(const struct allowlist *al, const struct module_entry *e,
		      const struct check_opts *o, struct verdict_tally *tally)
{
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1] = "-";
	struct module_assessment a;

	if (e->missing) {
		memset(&a, 0, sizeof(a));
		a.facts.missing = true;
		a.verdict = verdict_decide(&a.facts);
		verdict_reason(&a.facts, a.verdict, a.reason, sizeof(a.reason));
	} else if (module_assess(al, e->path, o->strip, false, &a)) {
		tally->error = true;
		return;
	} else {
		hex_encode(a.loaded, al->digest_size, hex);
	}
	verdict_tally_add(tally, a.verdict);
	if (verbosity < VERBOSITY_NORMAL &&
	    verdict_accepted(a.verdict, o->signed_ok))
		return;
	if (o->modules) {
		json_object_array_add(o->modules, json_module(
			e->path, verdict_name(a.verdict),
			e->missing ? NULL : json_out_digest(hash_algo_name(al->algo),
							    a.loaded, al->digest_size),
			a.reason));
		return;
	}
	printf("%s\t%s\t%s%s%s\t%s\n", e->path, verdict_name(a.verdict),
	       e->missing ? "" : hash_algo_name(al->algo),
	       e->missing ? "" : ":", hex, a.reason);
}

int cmd_check(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "system-map", required_argument, NULL, 's' },
		{ "signed-ok", no_argument, NULL, 'G' },
		{ "strip", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		CLI_COMMON_OPTIONS,
	};
	struct check_opts o = { module_strip_program(), false, NULL };
	const char *kernel = RUNNING_KERNEL, *map = NULL;
	struct verdict_tally tally;
	struct module_list list;
	struct allowlist al;
	size_t i, v;
	bool json = false;
	int c, status = EXIT_ERROR;

	while ((c = cli_getopt(argc, argv, "k:s:f:", options, usage,
				&status)) != -1) {
		switch (c) {
		case CLI_STOP: return status;
		case 'k': kernel = optarg; break;
		case 's': map = optarg; break;
		case 'G': o.signed_ok = true; break;
		case 'S': o.strip = optarg; break;
		case 'f':
			if (json_out_format(optarg, &json))
				return EXIT_ERROR;
			break;
		}
	}
	if (optind == argc)
		return usage_error("missing FILE|DIR: the module files to check");
	if (kernel_allowlist_load_map(kernel, map, &al))
		return EXIT_ERROR;
	memset(&list, 0, sizeof(list));
	memset(&tally, 0, sizeof(tally));
	if (json)
		o.modules = json_object_new_array();
	for (; optind < argc; optind++)
		if (module_list_add(&list, argv[optind]))
			tally.error = true;
	verbose("%zu module file%s to check%s", list.n, list.n == 1 ? "" : "s",
		o.signed_ok ? ", needs-signature counted as accepted" : "");
	for (i = 0; i < list.n; i++)
		check_one(&al, &list.v[i], &o, &tally);
	status = verdict_tally_exit(&tally, o.signed_ok);
	if (json) {
		if (print_json(&al, kernel, &tally, o.modules, status))
			status = EXIT_ERROR;
	} else if (verbosity >= VERBOSITY_NORMAL) {
		printf("# %zu module%s:", list.n, list.n == 1 ? "" : "s");
		for (v = 0; v <= VERDICT_MISSING; v++)
			if (tally.count[v])
				printf(" %zu %s", tally.count[v],
				       verdict_name((enum verdict)v));
		printf("\n");
	}
	if (!json && fflush(stdout))
		status = EXIT_ERROR;
	module_list_free(&list);
	allowlist_free(&al);
	return status;
}
