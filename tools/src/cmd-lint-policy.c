// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-lint-policy.c - modhash lint-policy: check IMA policy files against
 * the 6.12 grammar and warn about rules that defeat the module allowlist.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "policy.h"
#include "util.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash lint-policy [OPTION]... FILE...\n"
		"Check IMA policy files against the policy grammar of Linux 6.12 and\n"
		"warn about rules that make the built-in module allowlist useless or\n"
		"unsafe.  Prints FILE:LINE:COLUMN: error|warning: MESSAGE.\n\n"
		"  -e, --errors-only     do not print or count warnings\n"
		"  -q, --quiet           the same output: each line explains the exit\n"
		"                        status (the default)\n"
		"  -v, --verbose         a line for each file: its rules, errors, warnings\n"
		"  -V, --version         print the version and the features\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 clean, 1 warnings only, 2 errors (the kernel would\n"
		"refuse the policy) or a file that cannot be read.\n");
}

static int diag_order(const void *a, const void *b)
{
	const struct policy_diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	return 0;
}

/* Lint PATH; returns an exit status. */
static int lint_file(const char *path, bool errors_only)
{
	struct policy p;
	unsigned char *text;
	size_t len, i;
	int rc;

	if (read_whole_file(path, &INPUT_TEXT, &text, &len))
		return EXIT_ERROR;
	if (policy_parse((const char *)text, len, &p) || policy_lint(&p)) {
		fail_at(path, "out of memory");
		policy_free(&p);
		free(text);
		return EXIT_ERROR;
	}
	if (p.n_diags)
		qsort(p.diags, p.n_diags, sizeof(p.diags[0]), diag_order);
	for (i = 0; i < p.n_diags; i++) {
		const struct policy_diag *d = &p.diags[i];

		if (d->warning && errors_only)
			continue;
		printf("%s:%u:%u: %s: %s\n", path, d->line, d->column,
		       d->warning ? "warning" : "error", d->message);
	}
	verbose("%s: %zu rule%s, %zu error%s, %zu warning%s%s", path, p.n_rules,
		p.n_rules == 1 ? "" : "s", p.errors, p.errors == 1 ? "" : "s",
		p.warnings, p.warnings == 1 ? "" : "s",
		errors_only && p.warnings ? " (not counted: --errors-only)" : "");
	rc = p.errors ? EXIT_ERROR :
	     p.warnings && !errors_only ? EXIT_REFUSED : EXIT_ACCEPTED;
	policy_free(&p);
	free(text);
	return rc;
}

int cmd_lint_policy(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "errors-only", no_argument, NULL, 'e' },
		CLI_COMMON_OPTIONS,
	};
	bool errors_only = false;
	int c, rc = EXIT_ACCEPTED;

	while ((c = cli_getopt(argc, argv, "e", options, usage, &rc)) != -1) {
		switch (c) {
		case CLI_STOP:
			return rc;
		case 'e':
			errors_only = true;
			break;
		}
	}
	if (optind == argc)
		return usage_error("missing FILE: the policy to check");
	for (; optind < argc; optind++) {
		int file_rc = lint_file(argv[optind], errors_only);

		if (file_rc > rc)
			rc = file_rc;
	}
	if (fflush(stdout)) {
		fail_at("(stdout)", "write error");
		return EXIT_ERROR;
	}
	return rc;
}
