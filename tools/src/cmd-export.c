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

#include "commands.h"
#include "export-policy.h"
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
		"  -h, --help            show this help\n\n"
		"Modules the list does not accept are left out and named on standard\n"
		"error (signed ones are kept: their signature may be trusted).\n"
		"Exit status: 0 every module accepted, 1 some not, 2 error.  See\n"
		"modhash-export(1).\n");
}

struct export_opts {
	const char *modules, *prefix, *strip;
	int ima_algo;
	bool keylime;
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

/* Hash the file for IMA and check it against the list.  0, 1 left out, -1. */
static int export_one(const struct allowlist *al, const struct module_entry *e,
		      const struct export_opts *o, const char *prefix,
		      struct export_entry *out)
{
	struct module_assessment a;
	unsigned char *buf;
	size_t len;
	unsigned int n;
	int ret;

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
	if (read_whole_file(e->path, &INPUT_MODULE, &buf, &len))
		return -1;
	ret = EVP_Digest(buf, len, out->digest, &n,
			 hash_algo_md((unsigned int)o->ima_algo), NULL) ? 0 : -1;
	free(buf);
	if (ret) {
		fail_at(e->path, "cannot hash");
		return -1;
	}
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

static int write_output(const char *output, const struct allowlist *al,
			const struct export_entry *v, size_t n,
			const struct export_opts *o)
{
	unsigned char event[ALLOWLIST_MAX_DIGEST];
	struct out_file out;
	json_object *json;
	FILE *fp = out_open(&out, output);

	if (!fp)
		return -1;
	if (o->keylime) {
		if (allowlist_event_digest(al, (unsigned int)o->ima_algo, event)) {
			out_abort(&out);
			return -1;
		}
		json = export_keylime(v, n, (unsigned int)o->ima_algo, event);
		fputs(json_object_to_json_string_ext(json,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE),
		      fp);
		fputc('\n', fp);
		json_object_put(json);
	} else {
		export_sha256sum(fp, v, n, (unsigned int)o->ima_algo);
	}
	return out_commit(&out);
}

int cmd_export(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "modules", required_argument, NULL, 'm' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "ima-hash", required_argument, NULL, 'H' },
		{ "system-map", required_argument, NULL, 's' },
		{ "strip", required_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct export_opts o = { NULL, NULL, module_strip_program(), -1, false };
	const char *format = NULL, *output = "-", *map = NULL, *ima = "sha256";
	struct export_entry *v = NULL;
	struct module_list list;
	struct allowlist al;
	char *prefix = NULL;
	size_t i, n = 0;
	int c, ret = EXIT_ERROR, refused = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:m:p:s:o:h", options, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'm': o.modules = optarg; break;
		case 'p': o.prefix = optarg; break;
		case 'H': ima = optarg; break;
		case 's': map = optarg; break;
		case 'S': o.strip = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(stdout); return EXIT_ACCEPTED;
		default: usage(stderr); return EXIT_ERROR;
		}
	}
	o.ima_algo = hash_algo_by_name(ima);
	if (optind != argc - 1 || !format || !o.modules || o.ima_algo < 0 ||
	    (strcmp(format, "sha256sum") && strcmp(format, "keylime"))) {
		if (o.ima_algo < 0)
			fail_at(NULL, "unknown hash algorithm '%s'", ima);
		usage(stderr);
		return EXIT_ERROR;
	}
	o.keylime = !strcmp(format, "keylime");
	memset(&list, 0, sizeof(list));
	if (kernel_allowlist_load_map(argv[optind], map, &al))
		return EXIT_ERROR;
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
	if (write_output(output, &al, v, n, &o))
		goto out;
	ret = refused ? EXIT_REFUSED : EXIT_ACCEPTED;
out:
	for (i = 0; v && i < n; i++)
		free(v[i].path);
	free(v);
	free(prefix);
	module_list_free(&list);
	allowlist_free(&al);
	return ret;
}
