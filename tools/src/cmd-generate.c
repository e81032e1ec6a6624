// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-generate.c - modhash generate: a module allowlist, in the format of
 * <linux/module_hashes.h>, for the modules of a kernel build
 * (modules.order), of a directory or installed tree, or of a DKMS build.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/hash_info.h>

#include "cli.h"
#include "commands.h"
#include "format.h"
#include "kbuild-order.h"
#include "list-output.h"
#include "module-file.h"
#include "module-names.h"
#include "module-tree.h"
#include "util.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash generate [OPTION]... SOURCE...\n"
		"Write the module allowlist of the modules in each SOURCE, in the format\n"
		"the kernel builds into vmlinux.  A SOURCE is a kernel build's\n"
		"modules.order (or the build directory holding it), a module file, an\n"
		"installed /lib/modules/RELEASE tree, or any directory of modules such as\n"
		"a DKMS build or /var/lib/dkms/NAME/VERSION/KERNEL/ARCH/module.\n\n"
		"  -a, --algo=ALGO       sha256, sha384 or sha512 (default: the build's\n"
		"                        CONFIG_MODULE_HASHES_ALGO, else sha256)\n"
		"      --forms=FORMS     built, stripped or built,stripped (default: the\n"
		"                        build's CONFIG_MODULE_HASHES_FORMS, else built)\n"
		"  -f, --format=FORMAT   raw (the list's bytes, the default), hex,\n"
		"                        sha256sum or json, as modhash list writes them\n"
		"      --strip=PROGRAM   strip program for the stripped form of module\n"
		"                        files (default $STRIP or strip)\n"
		"  -o, --output=FILE     write FILE atomically instead of standard output\n"
		"      --follow-symlinks\n"
		"                        if FILE is a symbolic link, replace its target\n"
		"                        (without it, a link at FILE is refused)\n"
		"  -q, --quiet           nothing but the list and errors (the default)\n"
		"  -v, --verbose         say what each SOURCE is and what is written\n"
		"  -V, --version         print the version and the features\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 written, 2 error (a missing or unreadable module, named).\n"
		"See modhash-generate(1).\n");
}

enum { FORM_BUILT = 1, FORM_STRIPPED = 2 };

struct generate {
	struct allowlist hasher;	/* the algorithm, for allowlist_digest */
	unsigned int forms;		/* --forms, or 0 for each source's */
	const char *strip;
	unsigned char *digests;
	size_t n, cap;
	/* With a text format: the file behind each digest, for the output. */
	bool named;
	unsigned int out_flags;		/* out_open()'s */
	struct digest_names names;
	char **paths;			/* the names' paths, owned here */
	size_t n_paths;
};

static int parse_forms(const char *arg, unsigned int *forms)
{
	if (!strcmp(arg, "built"))
		*forms = FORM_BUILT;
	else if (!strcmp(arg, "stripped"))
		*forms = FORM_STRIPPED;
	else if (!strcmp(arg, "built,stripped") ||
		 !strcmp(arg, "stripped,built"))
		*forms = FORM_BUILT | FORM_STRIPPED;
	else
		return -1;
	return 0;
}

/* Room for one more digest; returns where it goes, or NULL. */
static unsigned char *next_digest(struct generate *g)
{
	size_t size = g->hasher.digest_size;

	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 512;
		unsigned char *more = realloc(g->digests, cap * size);

		if (!more) {
			fail_at(NULL, "out of memory");
			return NULL;
		}
		g->digests = more;
		g->cap = cap;
	}
	return g->digests + g->n * size;
}

/*
 * The digest just written at the end of the list is that of PATH in FORM
 * (module-names.h): keep it, and name it if the output will.
 */
static int keep_digest(struct generate *g, const char *path, const char *form)
{
	const unsigned char *digest = g->digests + g->n * g->hasher.digest_size;
	char **more;

	g->n++;
	if (!g->named)
		return 0;
	if (!g->n_paths || strcmp(g->paths[g->n_paths - 1], path)) {
		more = realloc(g->paths, (g->n_paths + 1) * sizeof(*more));
		if (!more)
			goto oom;
		g->paths = more;
		g->paths[g->n_paths] = strdup(path);
		if (!g->paths[g->n_paths])
			goto oom;
		g->n_paths++;
	}
	if (!digest_names_add(&g->names, digest, g->paths[g->n_paths - 1], form))
		return 0;
oom:
	fail_at(NULL, "out of memory");
	return -1;
}

/* Hash LEN bytes of BUF, the file PATH in FORM, into the list. */
static int add_digest(struct generate *g, const unsigned char *buf,
		      size_t len, const char *path, const char *form)
{
	unsigned char *out = next_digest(g);

	if (!out)
		return -1;
	if (allowlist_digest(&g->hasher, buf, len, out)) {
		fail_at(path, "cannot hash with %s",
			hash_algo_name(g->hasher.algo));
		return -1;
	}
	return keep_digest(g, path, form);
}

/* --- a kernel build: modules.order ---------------------------------------- */

/* A SOURCE argument: a kernel build (ORDER set) or modules (ORDER NULL). */
struct source {
	const char *arg;
	char *order;		/* the build's modules.order */
	char *build_dir;	/* what its paths are relative to */
	char *config;		/* its .config */
	char *text;		/* modules.order's contents */
	size_t len;
};


/* Hash the file STEM SUFFIX of modules.order's LINE as it is. */
static int add_build_file(struct generate *g, const struct kbuild_module *m,
			  const char *suffix, const char *order)
{
	char *path = malloc(strlen(m->stem) + strlen(suffix) + 1);
	unsigned char *buf = NULL;
	struct stat st;
	size_t len;
	int ret = -1;

	if (!path) {
		fail_at(NULL, "out of memory");
		return -1;
	}
	sprintf(path, "%s%s", m->stem, suffix);
	if (stat(path, &st) && errno == ENOENT)
		fail_at(path, "missing (named by %s, line %zu)", order, m->line);
	else if (!read_whole_file(path, &INPUT_MODULE, &buf, &len))
		ret = add_digest(g, buf, len, path, "as-installed");
	free(buf);
	free(path);
	return ret;
}

/* Which forms a build's list holds, from its .config. */
static int build_forms(const struct generate *g, const char *config,
		       unsigned int *forms)
{
	char value[64];
	int found;

	*forms = g->forms;
	if (*forms)
		return 0;
	*forms = FORM_BUILT;
	found = kbuild_config_string(config, "CONFIG_MODULE_HASHES_FORMS",
				     value, sizeof(value));
	if (found < 0)
		return -1;
	if (found && parse_forms(value, forms)) {
		fail_at(config, "CONFIG_MODULE_HASHES_FORMS: unknown forms \"%s\"",
			value);
		return -1;
	}
	return 0;
}

static int add_build(struct generate *g, const struct source *s)
{
	struct kbuild_order order;
	unsigned int forms;
	size_t i;
	int ret = -1;

	if (build_forms(g, s->config, &forms) ||
	    kbuild_order_from_text(s->text, s->len, s->order, s->build_dir,
				   &order))
		return -1;
	for (i = 0; i < order.n; i++) {
		if ((forms & FORM_BUILT) &&
		    add_build_file(g, &order.v[i], ".ko", s->order))
			goto out;
		if ((forms & FORM_STRIPPED) &&
		    add_build_file(g, &order.v[i], ".ko.stripped", s->order))
			goto out;
	}
	ret = 0;
out:
	kbuild_order_free(&order);
	return ret;
}

/* --- module files, directories and installed trees ------------------------ */

/*
 * A module file as the loader gets it: decompressed, signature and all.
 * Its stripped form is that of its contents without the signature.
 */
static int add_module_file(struct generate *g, const struct module_entry *e)
{
	struct module_file m;
	unsigned char *out;
	int ret = -1, err;

	if (e->missing) {
		fail_at(e->path, "missing (named by the tree's modules.order or modules.dep)");
		return -1;
	}
	if (module_file_read(e->path, &m))
		return -1;
	if (m.problem) {
		fail_at(e->path, "the kernel would not load it: %s", m.problem);
		goto out;
	}
	if ((g->forms & FORM_BUILT) &&
	    add_digest(g, m.image, m.image_len, e->path,
		       m.comp == COMP_NONE ? "as-installed" : "decompressed"))
		goto out;
	if (g->forms & FORM_STRIPPED) {
		out = next_digest(g);
		if (!out)
			goto out;
		err = module_stripped_digest(&g->hasher, m.image, m.content_len,
					     g->strip, e->path, out);
		if (err > 0)
			fail_at(e->path, "%s --strip-debug cannot read it", g->strip);
		if (err || keep_digest(g, e->path, "stripped"))
			goto out;
	}
	ret = 0;
out:
	module_file_free(&m);
	return ret;
}

static int add_modules(struct generate *g, const char *arg)
{
	struct module_list list = { 0 };
	unsigned int forms = g->forms;
	size_t i;
	int ret = -1;

	if (module_list_add(&list, arg))
		goto out;
	if (!list.n) {
		fail_at(arg, "no module files (*.ko, *.ko.xz, *.ko.zst, *.ko.gz) in it");
		goto out;
	}
	if (!g->forms)
		g->forms = FORM_BUILT;
	for (i = 0; i < list.n; i++)
		if (add_module_file(g, &list.v[i]))
			goto out;
	ret = 0;
out:
	g->forms = forms;
	module_list_free(&list);
	return ret;
}

/* --- sources -------------------------------------------------------------- */

static void source_free(struct source *s)
{
	free(s->order);
	free(s->build_dir);
	free(s->config);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

/*
 * Is ARG a kernel build: a modules.order naming objects, or a directory
 * holding one?  Fills S either way.  0, or -1 after fail_at().
 */
static int find_build(const char *arg, struct source *s)
{
	struct stat st;
	bool is_dir;
	char *copy;

	memset(s, 0, sizeof(*s));
	s->arg = arg;
	if (stat(arg, &st)) {
		fail_at(arg, "%s", strerror(errno));
		return -1;
	}
	is_dir = S_ISDIR(st.st_mode);
	if (!is_dir && module_name_is_module(arg))
		return 0;
	if (is_dir) {
		s->order = malloc(strlen(arg) + sizeof("/modules.order"));
		if (s->order)
			sprintf(s->order, "%s/modules.order", arg);
		s->build_dir = strdup(arg);
	} else {
		s->order = strdup(arg);
		copy = strdup(arg);
		s->build_dir = copy ? strdup(dirname(copy)) : NULL;
		free(copy);
	}
	s->config = s->build_dir ? malloc(strlen(s->build_dir) +
					  sizeof("/.config")) : NULL;
	if (!s->order || !s->config) {
		fail_at(NULL, "out of memory");
		goto fail;
	}
	sprintf(s->config, "%s/.config", s->build_dir);
	if (is_dir && (stat(s->order, &st) || !S_ISREG(st.st_mode)))
		goto modules;
	if (read_whole_file(s->order, &INPUT_TEXT, (unsigned char **)&s->text,
			    &s->len))
		goto fail;
	/* An empty modules.order is a build without modules. */
	if (kbuild_order_names_objects(s->text, s->len) || (!is_dir && !s->len))
		return 0;
	if (is_dir)
		goto modules;	/* an installed tree's modules.order */
	fail_at(arg, "not a kernel build's modules.order (dir/x.o lines); give an installed tree as its directory");
fail:
	source_free(s);
	return -1;
modules:
	source_free(s);
	s->arg = arg;
	return 0;
}

/*
 * The algorithm: --algo, else the CONFIG_MODULE_HASHES_ALGO of the first
 * kernel build among the sources, else the kernel's default, sha256.
 * An unknown one is -1, said on stderr if TELL.
 */
static int choose_algo(const char *algo_arg, const struct source *sources,
		       size_t n, bool tell)
{
	const char *name = algo_arg ? algo_arg : "sha256";
	char value[32];
	int id, found = 0;
	size_t i;

	for (i = 0; !algo_arg && !found && i < n; i++) {
		if (!sources[i].order)
			continue;
		found = kbuild_config_string(sources[i].config,
					     "CONFIG_MODULE_HASHES_ALGO",
					     value, sizeof(value));
		if (found < 0)
			return -1;
		if (found)
			name = value;
	}
	id = hash_algo_by_name(name);
	if (id != HASH_ALGO_SHA256 && id != HASH_ALGO_SHA384 &&
	    id != HASH_ALGO_SHA512) {
		if (tell)
			fail_at(NULL, "unknown digest algorithm '%s' (sha256, sha384, sha512)",
				name);
		return -1;
	}
	return id;
}

static int write_list(struct generate *g, const char *output,
		      enum list_format fmt)
{
	struct allowlist al;
	struct out_file out;
	const char *why;
	size_t n;
	FILE *fp;
	int ret = -1;

	n = digests_sort_unique(g->digests, g->n, g->hasher.digest_size);
	if (n > UINT32_MAX) {
		fail_at(NULL, "more than %u digests", UINT32_MAX);
		return -1;
	}
	why = allowlist_build(g->hasher.algo, g->digests, (uint32_t)n, &al);
	if (why) {
		fail_at(NULL, "%s", why);
		return -1;
	}
	digest_names_sort(&g->names);
	fp = out_open(&out, output, g->out_flags);
	if (fp && list_output_write(fp, fmt, &al, g->named ? &g->names : NULL)) {
		fail_at(output, "cannot write the output");
		out_abort(&out);
	} else if (fp && !out_commit(&out)) {
		verbose("%s: %zu %s digests", strcmp(output, "-") ? output :
			"(stdout)", n, hash_algo_name(g->hasher.algo));
		ret = 0;
	}
	allowlist_free(&al);
	return ret;
}

int cmd_generate(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "algo", required_argument, NULL, 'a' },
		{ "forms", required_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "strip", required_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "follow-symlinks", no_argument, NULL, 'L' },
		CLI_COMMON_OPTIONS,
	};
	struct generate g = { .strip = module_strip_program() };
	const char *algo = NULL, *format = "raw", *output = "-";
	struct source *sources;
	enum list_format fmt;
	int c, id, ret = EXIT_ERROR, status;
	size_t i, n;

	while ((c = cli_getopt(argc, argv, "a:f:o:", options, usage,
				&status)) != -1) {
		switch (c) {
		case CLI_STOP: return status;
		case 'a': algo = optarg; break;
		case 'f': format = optarg; break;
		case 'o': output = optarg; break;
		case 'L': g.out_flags |= OUT_FOLLOW_SYMLINKS; break;
		case 'S': g.strip = optarg; break;
		case 'F':
			if (parse_forms(optarg, &g.forms))
				return usage_error("unknown forms '%s' (built, stripped, built,stripped)",
						   optarg);
			break;
		}
	}
	if (algo && choose_algo(algo, NULL, 0, false) < 0)
		return usage_error("unknown digest algorithm '%s' (sha256, sha384, sha512)",
				   algo);
	if (optind == argc)
		return usage_error("missing SOURCE: a modules.order, a module file or a directory");
	if (list_format_parse(format, &fmt))
		return usage_error("unknown format '%s' (raw, hex, sha256sum, json)",
				   format);
	if (fmt == LIST_RAW && !strcmp(output, "-") && isatty(STDOUT_FILENO))
		return usage_error("the raw list is binary and standard output is a terminal: give -o FILE or --format=hex");
	n = (size_t)(argc - optind);
	sources = calloc(n, sizeof(*sources));
	if (!sources) {
		fail_at(NULL, "out of memory");
		return EXIT_ERROR;
	}
	for (i = 0; i < n; i++)
		if (find_build(argv[optind + i], &sources[i]))
			goto out;
	id = choose_algo(algo, sources, n, true);
	if (id < 0)
		goto out;
	g.hasher.algo = (unsigned int)id;
	g.hasher.digest_size = hash_algo_size(g.hasher.algo);
	g.names.digest_size = g.hasher.digest_size;
	g.named = fmt != LIST_RAW;
	for (i = 0; i < n; i++) {
		const struct source *s = &sources[i];

		size_t before = g.n;

		if (s->order ? add_build(&g, s) : add_modules(&g, s->arg))
			goto out;
		verbose("%s: %s, %zu digest%s", s->arg,
			s->order ? "a kernel build's modules.order" :
			"module files", g.n - before, g.n - before == 1 ? "" : "s");
	}
	if (!write_list(&g, output, fmt))
		ret = EXIT_ACCEPTED;
out:
	for (i = 0; i < n; i++)
		source_free(&sources[i]);
	free(sources);
	free(g.digests);
	digest_names_free(&g.names);
	for (i = 0; i < g.n_paths; i++)
		free(g.paths[i]);
	free(g.paths);
	return ret;
}
