// SPDX-License-Identifier: GPL-2.0
/* cmd-check.c - modhash check: does a kernel accept these module files? */
#include <getopt.h>
#include <string.h>

#include "commands.h"
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
		"  -q, --quiet           print only the modules that are not accepted\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 all accepted, 1 some not, 2 error.  See modhash-check(1).\n");
}

struct check_opts {
	const char *strip;
	bool signed_ok, quiet;
};

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
	if (o->quiet && verdict_accepted(a.verdict, o->signed_ok))
		return;
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
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_opts o = { module_strip_program(), false, false };
	const char *kernel = RUNNING_KERNEL, *map = NULL;
	struct verdict_tally tally;
	struct module_list list;
	struct allowlist al;
	size_t i, v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "k:s:qh", options, NULL)) != -1) {
		switch (c) {
		case 'k': kernel = optarg; break;
		case 's': map = optarg; break;
		case 'G': o.signed_ok = true; break;
		case 'S': o.strip = optarg; break;
		case 'q': o.quiet = true; break;
		case 'h': usage(stdout); return EXIT_ACCEPTED;
		default: usage(stderr); return EXIT_ERROR;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (kernel_allowlist_load_map(kernel, map, &al))
		return EXIT_ERROR;
	memset(&list, 0, sizeof(list));
	memset(&tally, 0, sizeof(tally));
	for (; optind < argc; optind++)
		if (module_list_add(&list, argv[optind]))
			tally.error = true;
	for (i = 0; i < list.n; i++)
		check_one(&al, &list.v[i], &o, &tally);
	printf("# %zu module%s:", list.n, list.n == 1 ? "" : "s");
	for (v = 0; v <= VERDICT_MISSING; v++)
		if (tally.count[v])
			printf(" %zu %s", tally.count[v],
			       verdict_name((enum verdict)v));
	printf("\n");
	module_list_free(&list);
	allowlist_free(&al);
	if (fflush(stdout))
		return EXIT_ERROR;
	return verdict_tally_exit(&tally, o.signed_ok);
}
