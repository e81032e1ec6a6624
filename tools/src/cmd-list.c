// SPDX-License-Identifier: GPL-2.0
/* cmd-list.c - modhash list: print a kernel's module allowlist. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <linux/module_hashes.h>

#include "allowlist-text.h"
#include "cli.h"
#include "commands.h"
#include "kernel-image.h"
#include "list-output.h"
#include "module-file.h"
#include "util.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash list [OPTION]... KERNEL\n"
		"Print the module allowlist built into KERNEL: a raw list, a vmlinux,\n"
		"a bzImage, or /sys/kernel/security/ima/module_hashes.\n\n"
		"  -f, --format=FORMAT   hex (algo:hex lines, the default), sha256sum\n"
		"                        (\"hex  path\" lines), json, or raw (the list's bytes)\n"
		"  -m, --modules=DIR     name each digest's module file from DIR (an\n"
		"                        installed /lib/modules/RELEASE or any directory)\n"
		"  -s, --system-map=FILE the kernel's System.map (for a bzImage; default:\n"
		"                        System.map next to it)\n"
		"      --strip=PROGRAM   strip program for --modules (default $STRIP or strip)\n"
		"  -o, --output=FILE     write FILE atomically instead of standard output\n"
		"      --follow-symlinks\n"
		"                        if FILE is a symbolic link, replace its target\n"
		"                        (without it, a link at FILE is refused)\n"
		"  -q, --quiet           nothing but the list and errors (the default)\n"
		"  -v, --verbose         say what is read and written, on standard error\n"
		"  -V, --version         print the version and the features\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 listed, 2 error.  See modhash-list(1).\n");
}

int cmd_list(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "modules", required_argument, NULL, 'm' },
		{ "system-map", required_argument, NULL, 's' },
		{ "strip", required_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "follow-symlinks", no_argument, NULL, 'L' },
		CLI_COMMON_OPTIONS,
	};
	const char *format = "hex", *modules = NULL, *map = NULL;
	const char *strip = module_strip_program(), *output = "-";
	struct digest_names names;
	struct allowlist al;
	struct out_file out;
	enum list_format fmt;
	FILE *fp;
	unsigned int out_flags = 0;
	int c, ret = EXIT_ERROR, status;

	while ((c = cli_getopt(argc, argv, "f:m:s:o:", options, usage,
				&status)) != -1) {
		switch (c) {
		case CLI_STOP: return status;
		case 'f': format = optarg; break;
		case 'm': modules = optarg; break;
		case 's': map = optarg; break;
		case 'S': strip = optarg; break;
		case 'o': output = optarg; break;
		case 'L': out_flags |= OUT_FOLLOW_SYMLINKS; break;
		}
	}
	if (optind == argc)
		return usage_error("missing KERNEL");
	if (optind < argc - 1)
		return usage_error("too many arguments: '%s' after KERNEL",
				   argv[optind + 1]);
	if (list_format_parse(format, &fmt))
		return usage_error("unknown format '%s' (hex, sha256sum, json, raw)",
				   format);
	if (kernel_allowlist_load_map(argv[optind], map, &al))
		return EXIT_ERROR;
	memset(&names, 0, sizeof(names));
	names.digest_size = al.digest_size;
	if (modules && digest_names_build(&al, modules, strip, &names))
		goto out;
	fp = out_open(&out, output, out_flags);
	if (!fp)
		goto out;
	if (list_output_write(fp, fmt, &al, modules ? &names : NULL)) {
		fail_at(output, "cannot write the output");
		out_abort(&out);
		goto out;
	}
	if (!out_commit(&out)) {
		verbose("%s: %u digests as %s", strcmp(output, "-") ? output :
			"(stdout)", al.count, format);
		ret = EXIT_ACCEPTED;
	}
out:
	digest_names_free(&names);
	allowlist_free(&al);
	return ret;
}
