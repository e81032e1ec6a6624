// SPDX-License-Identifier: GPL-2.0
/* cmd-diff.c - modhash diff: compare two kernels' allowlists. */
#include <getopt.h>
#include <string.h>

#include "commands.h"
#include "kernel-image.h"
#include "list-diff.h"
#include "module-file.h"
#include "module-names.h"
#include "util.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash diff [OPTION]... KERNEL_A KERNEL_B\n"
		"Compare the module allowlists of two kernels: each digest only A has\n"
		"(\"-\") or only B has (\"+\"), then the counts.\n\n"
		"      --modules-a=DIR   name A's digests from A's module tree\n"
		"      --modules-b=DIR   name B's digests from B's module tree\n"
		"      --system-map-a=FILE, --system-map-b=FILE\n"
		"                        the kernels' System.map (for a bzImage)\n"
		"      --strip=PROGRAM   strip program (default $STRIP or strip)\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 identical, 1 different, 2 error.  See modhash-diff(1).\n");
}

struct side {
	const char *kernel, *modules, *map;
	struct allowlist al;
	struct digest_names names;
};

struct printer {
	const struct side *a, *b;
};

static void print_change(void *opaque, char sign, const unsigned char *digest)
{
	const struct printer *p = opaque;
	const struct side *s = sign == '-' ? p->a : p->b;
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	const struct digest_name *dn;
	size_t n = s->modules ? digest_names_find(&s->names, digest, &dn) : 0;

	hex_encode(digest, s->al.digest_size, hex);
	printf("%c %s:%s", sign, hash_algo_name(s->al.algo), hex);
	if (s->modules && !n)
		printf("  (no module file in %s)", s->modules);
	for (; n; n--, dn++)
		printf("  %s (%s)", dn->path, dn->form);
	printf("\n");
}

static int load_side(struct side *s, const char *strip)
{
	memset(&s->names, 0, sizeof(s->names));
	if (kernel_allowlist_load_map(s->kernel, s->map, &s->al))
		return -1;
	s->names.digest_size = s->al.digest_size;
	if (s->modules && digest_names_build(&s->al, s->modules, strip,
					     &s->names))
		return -1;
	return 0;
}

int cmd_diff(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "modules-a", required_argument, NULL, 'a' },
		{ "modules-b", required_argument, NULL, 'b' },
		{ "system-map-a", required_argument, NULL, 'A' },
		{ "system-map-b", required_argument, NULL, 'B' },
		{ "strip", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct side a, b;
	struct printer p = { &a, &b };
	const char *strip = module_strip_program();
	struct list_diff d;
	int c, ret = EXIT_ERROR;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'a': a.modules = optarg; break;
		case 'b': b.modules = optarg; break;
		case 'A': a.map = optarg; break;
		case 'B': b.map = optarg; break;
		case 'S': strip = optarg; break;
		case 'h': usage(stdout); return EXIT_ACCEPTED;
		default: usage(stderr); return EXIT_ERROR;
		}
	}
	if (optind != argc - 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	a.kernel = argv[optind];
	b.kernel = argv[optind + 1];
	if (load_side(&a, strip) || load_side(&b, strip))
		goto out;
	d = allowlist_diff(&a.al, &b.al, print_change, &p);
	if (!d.comparable)
		printf("# A uses %s and B %s: no digest can be common\n",
		       hash_algo_name(a.al.algo), hash_algo_name(b.al.algo));
	printf("# %s: %u digests, %s: %u digests\n", a.kernel, a.al.count,
	       b.kernel, b.al.count);
	printf("# added %u, removed %u, common %u\n", d.added, d.removed,
	       d.common);
	if (fflush(stdout))
		goto out;
	ret = d.added || d.removed ? EXIT_REFUSED : EXIT_ACCEPTED;
out:
	digest_names_free(&a.names);
	digest_names_free(&b.names);
	allowlist_free(&a.al);
	allowlist_free(&b.al);
	return ret;
}
