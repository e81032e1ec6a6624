// SPDX-License-Identifier: GPL-2.0
/* cmd-diff.c - modhash diff: compare two kernels' allowlists. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json-out.h"
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
		"  -f, --format=FORMAT   text (default) or json: one document with the\n"
		"                        same facts\n"
		"  -q, --quiet           print only the differences, no summary\n"
		"  -v, --verbose         say which kernels and module trees are read\n"
		"  -V, --version         print the version and the features\n"
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
	json_object *removed, *added;	/* --format=json, else NULL */
};

/* One digest only one side has, as JSON, into P's arrays. */
static void json_change(struct printer *p, char sign, const struct side *s,
			const unsigned char *digest)
{
	json_object *o = json_object_new_object(), *names = NULL;
	const struct digest_name *dn;
	size_t n = s->modules ? digest_names_find(&s->names, digest, &dn) : 0;

	json_object_object_add(o, "digest", json_out_digest(
		hash_algo_name(s->al.algo), digest, s->al.digest_size));
	if (s->modules)
		names = json_object_new_array();
	for (; n; n--, dn++) {
		json_object *name = json_object_new_object();

		json_object_object_add(name, "path", json_object_new_string(dn->path));
		json_object_object_add(name, "form", json_object_new_string(dn->form));
		json_object_array_add(names, name);
	}
	json_object_object_add(o, "modules", names);
	json_object_array_add(sign == '-' ? p->removed : p->added, o);
}

static void print_change(void *opaque, char sign, const unsigned char *digest)
{
	struct printer *p = opaque;
	const struct side *s = sign == '-' ? p->a : p->b;
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	const struct digest_name *dn;
	size_t n;

	if (p->added) {
		json_change(p, sign, s, digest);
		return;
	}
	n = s->modules ? digest_names_find(&s->names, digest, &dn) : 0;
	hex_encode(digest, s->al.digest_size, hex);
	printf("%c %s:%s", sign, hash_algo_name(s->al.algo), hex);
	if (s->modules && !n)
		printf("  (no module file in %s)", s->modules);
	for (; n; n--, dn++)
		printf("  %s (%s)", dn->path, dn->form);
	printf("\n");
}

static json_object *json_side(const struct side *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kernel", json_object_new_string(s->kernel));
	json_object_object_add(o, "algorithm",
			       json_object_new_string(hash_algo_name(s->al.algo)));
	json_object_object_add(o, "digests", json_object_new_uint64(s->al.count));
	return o;
}

static int print_json(struct printer *p, const struct list_diff *d)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "a", json_side(p->a));
	json_object_object_add(root, "b", json_side(p->b));
	json_object_object_add(root, "comparable", json_object_new_boolean(d->comparable));
	json_object_object_add(root, "removed", p->removed);
	json_object_object_add(root, "added", p->added);
	json_object_object_add(root, "common", json_object_new_uint64(d->common));
	p->removed = p->added = NULL;
	return json_out_print(root);
}

/* The "#" lines after the changes (not under -q). */
static void print_summary(const struct side *a, const struct side *b,
			  const struct list_diff *d)
{
	if (!d->comparable)
		printf("# A uses %s and B %s: no digest can be common\n",
		       hash_algo_name(a->al.algo), hash_algo_name(b->al.algo));
	printf("# %s: %u digests, %s: %u digests\n", a->kernel, a->al.count,
	       b->kernel, b->al.count);
	printf("# added %u, removed %u, common %u\n", d->added, d->removed,
	       d->common);
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
	if (s->modules)
		verbose("%s: module files named from %s", s->kernel, s->modules);
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
		{ "format", required_argument, NULL, 'f' },
		CLI_COMMON_OPTIONS,
	};
	struct side a, b;
	struct printer p = { &a, &b, NULL, NULL };
	const char *strip = module_strip_program();
	struct list_diff d;
	int c, ret = EXIT_ERROR, status;
	bool json = false;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	while ((c = cli_getopt(argc, argv, "f:", options, usage,
				&status)) != -1) {
		switch (c) {
		case CLI_STOP: return status;
		case 'a': a.modules = optarg; break;
		case 'b': b.modules = optarg; break;
		case 'A': a.map = optarg; break;
		case 'B': b.map = optarg; break;
		case 'S': strip = optarg; break;
		case 'f':
			if (json_out_format(optarg, &json))
				return EXIT_ERROR;
			break;
		}
	}
	if (optind == argc)
		return usage_error("missing KERNEL_A and KERNEL_B");
	if (optind == argc - 1)
		return usage_error("missing KERNEL_B");
	if (optind < argc - 2)
		return usage_error("too many arguments: '%s' after KERNEL_B",
				   argv[optind + 2]);
	a.kernel = argv[optind];
	b.kernel = argv[optind + 1];
	if (load_side(&a, strip) || load_side(&b, strip))
		goto out;
	if (json) {
		p.removed = json_object_new_array();
		p.added = json_object_new_array();
	}
	d = allowlist_diff(&a.al, &b.al, print_change, &p);
	ret = d.added || d.removed ? EXIT_REFUSED : EXIT_ACCEPTED;
	if (json) {
		if (print_json(&p, &d))
			ret = EXIT_ERROR;
		goto out;
	}
	if (verbosity >= VERBOSITY_NORMAL)
		print_summary(&a, &b, &d);
	if (fflush(stdout))
		ret = EXIT_ERROR;
out:
	json_object_put(p.removed);
	json_object_put(p.added);
	digest_names_free(&a.names);
	digest_names_free(&b.names);
	allowlist_free(&a.al);
	allowlist_free(&b.al);
	return ret;
}
