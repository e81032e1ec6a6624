// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-verify-log.c - modhash verify-log: replay an IMA measurement list,
 * compare it with the quoted PCR value and check its module loads and its
 * module-allowlist entry against a kernel's list.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "ima-log.h"
#include "kernel-image.h"
#include "pcr-values.h"
#include "util.h"
#include "verify-log.h"

#define MAX_PREFIXES 32

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash verify-log --kernel KERNEL [OPTION]... LOG\n"
		"Replay the IMA measurement list LOG (binary_runtime_measurements or\n"
		"binary_runtime_measurements_ALGO) into PCR 10, stop where it matches\n"
		"the quoted value, and check that every module load up to there is on\n"
		"KERNEL's allowlist and that the module-allowlist entry is KERNEL's list.\n\n"
		"  -k, --kernel KERNEL   the kernel: raw list, vmlinux, bzImage or\n"
		"                        securityfs module_hashes\n"
		"  -b, --bank ALGO       the PCR bank of LOG (sha1, sha256, ...); default:\n"
		"                        from LOG's file name (binary_runtime_measurements\n"
		"                        is sha1)\n"
		"  -p, --pcrs [ALGO,]FILE  quoted PCRs in evmctl's --pcrs form (\"PCR-10: HEX\"\n"
		"                        lines), for bank ALGO (default sha1, as evmctl);\n"
		"                        repeat for more banks, the one of LOG is used\n"
		"      --pcr10 HEX|FILE  the quoted PCR 10 of LOG's bank, as hex or as a\n"
		"                        file such as /sys/class/tpm/tpm0/pcr-sha256/10\n"
		"      --quoted FILE     the PCR values tpm2_checkquote printed (YAML,\n"
		"                        \"pcrs:\" section) once it verified the quote;\n"
		"                        the PCR of LOG's bank is used, and PCRs 0-9\n"
		"                        check the boot_aggregate entry\n"
		"      --pcr N           replay PCR N instead of 10\n"
		"  -m, --module-path PREFIX  a path prefix under which files are modules\n"
		"                        (repeatable; default /lib/modules/ and\n"
		"                        /usr/lib/modules/; *.ko[.xz|.zst|.gz] always are)\n"
		"  -h, --help            this help\n\n"
		"Exit status: 0 all accepted, 1 offending entries or PCR mismatch, 2 error.\n");
}

struct args {
	const char *kernel, *bank, *pcr10, *quoted, *log;
	const char *pcrs[8];
	size_t n_pcrs;
	const char *prefixes[MAX_PREFIXES];
	size_t n_prefixes;
	unsigned int pcr;
};

static int parse_args(int argc, char *argv[], struct args *a)
{
	static const struct option options[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "bank", required_argument, NULL, 'b' },
		{ "pcrs", required_argument, NULL, 'p' },
		{ "pcr10", required_argument, NULL, 'P' },
		{ "quoted", required_argument, NULL, 'Q' },
		{ "pcr", required_argument, NULL, 'n' },
		{ "module-path", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	memset(a, 0, sizeof(*a));
	a->pcr = 10;
	while ((c = getopt_long(argc, argv, "k:b:p:m:h", options, NULL)) != -1) {
		switch (c) {
		case 'k': a->kernel = optarg; break;
		case 'b': a->bank = optarg; break;
		case 'P': a->pcr10 = optarg; break;
		case 'Q': a->quoted = optarg; break;
		case 'p':
			if (a->n_pcrs == sizeof(a->pcrs) / sizeof(a->pcrs[0])) {
				fail_at(NULL, "too many --pcrs");
				return -1;
			}
			a->pcrs[a->n_pcrs++] = optarg;
			break;
		case 'm':
			if (a->n_prefixes == MAX_PREFIXES) {
				fail_at(NULL, "too many --module-path");
				return -1;
			}
			a->prefixes[a->n_prefixes++] = optarg;
			break;
		case 'n':
			a->pcr = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !*optarg || a->pcr > IMA_LOG_MAX_PCR) {
				fail_at(NULL, "--pcr: not a PCR index: %s", optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1 || !a->kernel) {
		fail_at(NULL, "need --kernel KERNEL and one LOG (try --help)");
		return -1;
	}
	if (!!a->pcr10 + !!a->n_pcrs + !!a->quoted > 1) {
		fail_at(NULL, "--pcr10, --pcrs and --quoted exclude each other");
		return -1;
	}
	a->log = argv[optind];
	if (!a->bank)
		a->bank = ima_log_bank_of_path(a->log);
	if (!a->bank) {
		fail_at(a->log, "cannot tell the PCR bank from the file name; give --bank");
		return -1;
	}
	if (!ima_log_bank_size(a->bank)) {
		fail_at(NULL, "--bank: unknown algorithm %s", a->bank);
		return -1;
	}
	return 0;
}

/* The quoted value from --pcr10 (hex, or a file holding it). */
static int read_pcr10(const char *arg, size_t size, unsigned char *out)
{
	unsigned char *text;
	const char *why;
	size_t len;
	int rc;

	if (strspn(arg, "0123456789abcdefABCDEF \n") == strlen(arg)) {
		if (!pcr_values_from_hex(arg, strlen(arg), size, out, &why))
			return 0;
		fail_at(NULL, "--pcr10 %s: %s", arg, why);
		return -1;
	}
	if (read_whole_file(arg, &INPUT_TEXT, &text, &len))
		return -1;
	rc = pcr_values_from_hex((const char *)text, len, size, out, &why);
	if (rc)
		fail_at(arg, "not a PCR value of %zu bytes: %s", size, why);
	free(text);
	return rc;
}

/* The quoted value of PCR in the --pcrs file of BANK. */
static int read_pcrs(const struct args *a, size_t size, unsigned char *out)
{
	size_t i, len, line;
	const char *why;

	for (i = 0; i < a->n_pcrs; i++) {
		const char *comma = strchr(a->pcrs[i], ',');
		const char *path = comma ? comma + 1 : a->pcrs[i];
		size_t alen = comma ? (size_t)(comma - a->pcrs[i]) : 4;
		const char *algo = comma ? a->pcrs[i] : "sha1";
		unsigned char *text;
		int rc;

		if (strlen(a->bank) != alen || strncmp(algo, a->bank, alen))
			continue;
		if (read_whole_file(path, &INPUT_TEXT, &text, &len))
			return -1;
		rc = pcr_values_from_evmctl((const char *)text, len, a->pcr,
					    size, out, &why, &line);
		if (rc && line)
			fail_at(path, "line %zu: %s", line, why);
		else if (rc)
			fail_at(path, "PCR-%02u: %s", a->pcr, why);
		free(text);
		return rc;
	}
	fail_at(NULL, "--pcrs: no file for the %s bank", a->bank);
	return -1;
}

/*
 * The quoted value of PCR in LOG's bank from the tpm2-tools --quoted FILE,
 * and into BOOT (N_BOOT of them) PCRs 0-9 of each bank the quote has all
 * of, for the boot_aggregate.
 */
static int read_quoted(const struct args *a, size_t size, unsigned char *out,
		       struct verify_boot_pcrs *boot, size_t *n_boot)
{
	static const char *const banks[] = { "sha1", "sha256", "sha384", "sha512" };
	unsigned char *text;
	const char *why;
	size_t len, line, k;
	unsigned int i;
	int rc;

	if (read_whole_file(a->quoted, &INPUT_TEXT, &text, &len))
		return -1;
	rc = pcr_values_from_tpm2((const char *)text, len, a->bank, a->pcr,
				  size, out, &why, &line);
	if (rc && line)
		fail_at(a->quoted, "line %zu: %s", line, why);
	else if (rc)
		fail_at(a->quoted, "%s PCR %u: %s", a->bank, a->pcr, why);
	*n_boot = 0;
	for (k = 0; !rc && k < sizeof(banks) / sizeof(banks[0]); k++) {
		struct verify_boot_pcrs *b = &boot[*n_boot];

		snprintf(b->algo, sizeof(b->algo), "%s", banks[k]);
		b->size = ima_log_bank_size(banks[k]);
		for (i = 0; i < 10; i++)
			if (pcr_values_from_tpm2((const char *)text, len, banks[k], i,
						 b->size, b->value[i], &why, &line))
				break;
		if (i == 10)
			(*n_boot)++;
	}
	free(text);
	return rc;
}

static void print_report(const struct args *a, const struct verify_report *rep,
			 const struct allowlist *al)
{
	char hex[2 * IMA_LOG_MAX_DIGEST + 1];
	size_t i;

	hex_encode(rep->pcr_value, rep->pcr_size, hex);
	printf("%s PCR-%02u: %s after %zu entries", a->bank, a->pcr, hex,
	       rep->entries);
	if (!rep->pcr_checked)
		printf(" (no quoted value given)\n");
	else if (rep->pcr_matched)
		printf(": matches the quoted value (%zu bytes after it not covered)\n",
		       rep->rest);
	else
		printf(": the quoted value is never reached\n");
	printf("modules: %zu loads, %zu on the allowlist (%u %s digests)\n",
	       rep->modules, rep->modules_listed, al->count,
	       hash_algo_name(al->algo));
	if (rep->boot_checked && rep->boot_matched)
		printf("boot_aggregate: entry 0 matches the quoted %s PCRs 0-9\n",
		       rep->boot_algo);
	else if (a->quoted && !rep->boot_checked)
		printf("boot_aggregate: not checked (no entry 0 boot_aggregate, or no quoted %s PCRs 0-9)\n",
		       rep->boot_algo[0] ? rep->boot_algo : "-");
	if (rep->allowlist_index != SIZE_MAX)
		printf("module-allowlist: entry %zu matches the kernel's list\n",
		       rep->allowlist_index);
	for (i = 0; i < rep->n_findings; i++) {
		const struct verify_finding *f = &rep->findings[i];

		if (f->index == SIZE_MAX)
			printf("offending: %s\n", f->reason);
		else
			printf("offending: entry %zu (offset %zu): %s: %s: %s\n",
			       f->index, f->offset, f->path[0] ? f->path : "-",
			       f->digest[0] ? f->digest : "-", f->reason);
	}
}

int cmd_verify_log(int argc, char *argv[])
{
	unsigned char expected[IMA_LOG_MAX_DIGEST];
	static struct verify_boot_pcrs boot[4];
	struct verify_options o = { .boot_pcrs = boot };
	struct verify_report rep;
	struct allowlist al;
	unsigned char *log;
	struct ima_log_error err;
	size_t len;
	struct args a;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc > 0 ? EXIT_ACCEPTED : EXIT_ERROR;
	o.bank = a.bank;
	o.pcr = a.pcr;
	if (a.n_prefixes) {
		o.prefixes = a.prefixes;
		o.n_prefixes = a.n_prefixes;
	}
	if (a.pcr10 || a.n_pcrs || a.quoted) {
		size_t size = ima_log_bank_size(a.bank);

		if (a.pcr10 ? read_pcr10(a.pcr10, size, expected) :
		    a.quoted ? read_quoted(&a, size, expected, boot, &o.n_boot_pcrs) :
			       read_pcrs(&a, size, expected))
			return EXIT_ERROR;
		o.expected = expected;
	}
	if (kernel_allowlist_load(a.kernel, &al))
		return EXIT_ERROR;
	if (read_whole_file(a.log, &INPUT_IMA_LOG, &log, &len)) {
		allowlist_free(&al);
		return EXIT_ERROR;
	}
	if (verify_log(log, len, &al, &o, &rep, &err)) {
		fail_at(a.log, "entry %zu (offset %zu): %s at offset %zu",
			err.index, err.entry_offset, err.why, err.offset);
		rc = EXIT_ERROR;
	} else {
		print_report(&a, &rep, &al);
		rc = verify_verdict(&rep);
		verify_report_free(&rep);
	}
	free(log);
	allowlist_free(&al);
	return rc;
}
