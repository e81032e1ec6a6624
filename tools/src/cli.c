// SPDX-License-Identifier: GPL-2.0
/* cli.c - the options every command shares, usage errors, --version. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include <linux/module_hashes.h>

#include "cli.h"
#include "decompress.h"
#include "util.h"

#ifndef MODHASH_VERSION
#error "MODHASH_VERSION: tools/Makefile passes it, from debian/changelog"
#endif

int verbosity;

static void vreport(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", progname);
	return EXIT_ERROR;
}

void verbose(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < VERBOSITY_VERBOSE)
		return;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

/*
 * The features, as "kmod --version" lists them: each compression a kernel
 * or a module may come in (decompress.c's own names), then the checks the
 * libraries give: IMA signatures (libimaevm, OpenSSL), TPM 2.0 quotes
 * (libtss2-mu), JSON output (json-c).  All are always linked in.
 */
static const char *const features[] = {
	"ima-sig", "tpm2-quote", "json",
};

static void print_feature(FILE *fp, const char *name, bool first)
{
	fputs(first ? "+" : " +", fp);
	for (; *name; name++)
		fputc(toupper((unsigned char)*name), fp);
}

int print_version(FILE *fp)
{
	enum compression comp;
	size_t i;

	fprintf(fp, "modhash %s\n", MODHASH_VERSION);
	fprintf(fp, "allowlist format: %s version %u (<linux/module_hashes.h>)\n",
		MODULE_HASHES_MAGIC, MODULE_HASHES_VERSION);
	for (comp = COMP_GZIP; strcmp(compression_name(comp), "none"); comp++)
		print_feature(fp, compression_name(comp), comp == COMP_GZIP);
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		print_feature(fp, features[i], false);
	fputc('\n', fp);
	if (fflush(fp) || ferror(fp)) {
		fail_at("(stdout)", "write error");
		return EXIT_ERROR;
	}
	return EXIT_ACCEPTED;
}

/*
 * Is WORD ("--name" or "--name=value") the long option of LONGOPTS whose
 * value is VAL?  Its name, without any value, goes to NAME.
 */
static bool is_long_option(const char *word, int val,
			   const struct option *longopts, char *name,
			   size_t size)
{
	size_t n;

	if (strncmp(word, "--", 2))
		return false;
	n = strcspn(word, "=");
	snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), word);
	if (!val)
		return true;
	for (; longopts->name; longopts++)
		if (longopts->val == val &&
		    !strncmp(longopts->name, word + 2, n - 2))
			return true;
	return false;
}

/* Does NAME start more than one of LONGOPTS' names? */
static bool prefix_of_many(const char *name, const struct option *longopts)
{
	size_t n = strlen(name), found = 0;

	for (; longopts->name; longopts++)
		found += !strncmp(longopts->name, name, n);
	return found > 1;
}

/*
 * Why getopt_long() returned C (':' or '?'), in words.  A long option at
 * fault is the word before OPTIND (getopt_long() has passed it); a short
 * one is OPTOPT, which may be in the middle of a group such as -qx.
 */
static int bad_option(int c, char *argv[], const struct option *longopts)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	char name[64];
	bool is_long = is_long_option(word, optopt, longopts, name,
				      sizeof(name));

	if (c == ':' && is_long)
		return usage_error("option '%s' needs an argument", name);
	if (c == ':')
		return usage_error("option '-%c' needs an argument", optopt);
	if (is_long && optopt)
		return usage_error("option '%s' takes no argument", name);
	if (is_long)
		return usage_error("%s option '%s'", prefix_of_many(name + 2,
				   longopts) ? "ambiguous" : "unknown", name);
	if (optopt > ' ' && optopt < 127)
		return usage_error("unknown option '-%c'", optopt);
	return usage_error("unknown option '%s'", word);
}

int cli_getopt(int argc, char *argv[], const char *shortopts,
	       const struct option *longopts, void (*usage)(FILE *),
	       int *status)
{
	static char *const *started;
	char all[128];
	int c;

	/* A new command line, or the caller (a test) asked for a new start. */
	if (started != argv || optind == 0) {
		started = argv;
		optind = 0;	/* glibc: start over, forget any state */
		verbosity = VERBOSITY_NORMAL;
	}
	/* ':' first: a missing argument is ':', not '?'; opterr 0: we tell. */
	snprintf(all, sizeof(all), ":%sqvVh", shortopts);
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, all, longopts, NULL);
		switch (c) {
		case 'q':
			verbosity = VERBOSITY_QUIET;
			continue;
		case 'v':
			verbosity = VERBOSITY_VERBOSE;
			continue;
		case 'V':
			*status = print_version(stdout);
			break;
		case 'h':
			usage(stdout);
			*status = EXIT_ACCEPTED;
			break;
		case ':':
		case '?':
			*status = bad_option(c, argv, longopts);
			break;
		case -1:
			started = NULL;
			return -1;
		default:
			return c;
		}
		started = NULL;
		return CLI_STOP;
	}
}
