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

#include "cli.h"
#include "commands.h"
#include "ima-ascii.h"
#include "ima-log.h"
#include "ima-signature.h"
#include "json-out.h"
#include "kernel-image.h"
#include "pcr-values.h"
#include "quote-check.h"
#include "reference.h"
#include "util.h"
#include "verify-log.h"

#define MAX_PREFIXES 32
#define MAX_CERTS 32

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: modhash verify-log --kernel KERNEL [OPTION]... LOG\n"
		"Replay the IMA measurement list LOG (binary_runtime_measurements[_ALGO]\n"
		"or ascii_runtime_measurements[_ALGO]) into PCR 10, stop where it matches\n"
		"the quoted value, and judge every module load up to there: listed\n"
		"(on KERNEL's allowlist, or an installed file of the reference), signed-by\n"
		"KEY (a signature that verifies with a given certificate), or offending,\n"
		"with the reason; and check that the module-allowlist entry is KERNEL's\n"
		"list.  Loads through init_module() are critical-data entries (policy\n"
		"rule \"measure func=CRITICAL_DATA label=modules\").\n\n"
		"  -k, --kernel KERNEL   the kernel: raw list, vmlinux, bzImage or\n"
		"                        securityfs module_hashes\n"
		"  -s, --system-map FILE the kernel's System.map (for a bzImage; default:\n"
		"                        System.map next to KERNEL)\n"
		"  -b, --bank ALGO       the PCR bank LOG must be of (sha1, sha256, ...);\n"
		"                        default: the bank its entries are of\n"
		"      --pcrs [ALGO,]FILE  quoted PCRs in evmctl's --pcrs form (\"PCR-10: HEX\"\n"
		"                        lines), for bank ALGO (default sha1, as evmctl);\n"
		"                        repeat for more banks, the one of LOG is used\n"
		"      --pcr10 HEX|FILE  the quoted PCR 10 of LOG's bank, as hex or as a\n"
		"                        file such as /sys/class/tpm/tpm0/pcr-sha256/10\n"
		"      --quote FILE      a TPM quote (tpm2_quote -m), verified with all of:\n"
		"      --quote-sig FILE    its signature (tpm2_quote -s)\n"
		"      --ak-pub FILE       the AK's TPM2B_PUBLIC (tpm2_createak -u)\n"
		"      --nonce HEX         the nonce the quote must hold (tpm2_quote -q)\n"
		"      --pcr-values FILE   the quoted PCR values (tpm2_quote -o FILE -F values)\n"
		"      --ak-name HEX|FILE  the AK name the credential was made for\n"
		"                        (tpm2_createak -n); the PCR of LOG's bank is used,\n"
		"                        and PCRs 0-9 check the boot_aggregate entry\n"
		"      --pcr N           replay PCR N instead of 10\n"
		"  -r, --reference FILE  digests of installed module files, as modhash\n"
		"                        export writes them (sha256sum or keylime format):\n"
		"                        a file measured with one of them is listed (how\n"
		"                        compressed modules are verified)\n"
		"      --modules FILE|DIR  the same made here from the module files (an\n"
		"                        installed tree, a directory, a file): each one\n"
		"                        whose decompressed image is listed\n"
		"      --ima-hash ALGO   IMA's file hash for --modules (default sha256)\n"
		"  -c, --cert FILE       certificates whose signatures count (ima-sig,\n"
		"                        ima-modsig): DER, DER ones after another (a\n"
		"                        kernel's built-in certificate list) or PEM;\n"
		"                        repeatable\n"
		"      --module-path PREFIX  a path prefix under which files are modules\n"
		"                        (repeatable; default /lib/modules/ and\n"
		"                        /usr/lib/modules/; *.ko[.xz|.zst|.gz] always are)\n"
		"  -f, --format FORMAT   text (default) or json\n"
		"  -q, --quiet           print only what makes the exit status 1: the\n"
		"                        offending entries, a PCR that does not match\n"
		"  -v, --verbose         say what is read and decided, on standard error\n"
		"  -V, --version         print the version and the features\n"
		"  -h, --help            show this help\n\n"
		"-p (--pcrs) and -m (--module-path) are gone: -p and -m mean --prefix\n"
		"and --modules in the other commands (modhash(1), OPTIONS).\n"
		"Exit status: 0 all accepted, 1 offending entries or PCR mismatch, 2 error.\n");
}

struct args {
	const char *kernel, *map, *bank, *pcr10, *log, *reference;
	const char *modules, *ima_hash;
	struct quote_files quote;
	const char *pcrs[8];
	size_t n_pcrs;
	const char *prefixes[MAX_PREFIXES];
	size_t n_prefixes;
	const char *certs[MAX_CERTS];
	size_t n_certs;
	unsigned int pcr;
	bool json;
};

/* Append ARG to LIST (of MAX), or fail naming OPTION. */
static int add_arg(const char **list, size_t *n, size_t max, const char *arg,
		   const char *option)
{
	if (*n == max) {
		usage_error("more than %zu %s", max, option);
		return -1;
	}
	list[(*n)++] = arg;
	return 0;
}

/* The quote's options (quote-check.h): no short forms. */
enum {
	OPT_QUOTE = 0x100, OPT_QUOTE_SIG, OPT_AK_PUB, OPT_AK_NAME, OPT_NONCE,
	OPT_PCR_VALUES, OPT_PCRS, OPT_MODULE_PATH,
};

/* Store the quote option C; false if C is not one. */
static bool quote_option(int c, const char *arg, struct quote_files *q)
{
	switch (c) {
	case OPT_QUOTE: q->quote = arg; break;
	case OPT_QUOTE_SIG: q->sig = arg; break;
	case OPT_AK_PUB: q->ak_pub = arg; break;
	case OPT_AK_NAME: q->ak_name = arg; break;
	case OPT_NONCE: q->nonce = arg; break;
	case OPT_PCR_VALUES: q->pcr_values = arg; break;
	default: return false;
	}
	return true;
}

/* What the options leave wrong: 0, or EXIT_ERROR after a usage error. */
static int check_args(const struct args *a, int argc, char *argv[])
{
	const char *missing = quote_files_any(&a->quote) ?
			      quote_files_missing(&a->quote) : NULL;

	if (!a->kernel)
		return usage_error("missing --kernel KERNEL");
	if (optind == argc)
		return usage_error("missing LOG");
	if (optind < argc - 1)
		return usage_error("too many arguments: '%s' after LOG",
				   argv[optind + 1]);
	if (a->reference && a->modules)
		return usage_error("--reference and --modules exclude each other");
	if (!!a->pcr10 + !!a->n_pcrs + quote_files_any(&a->quote) > 1)
		return usage_error("--pcr10, --pcrs and --quote exclude each other");
	if (missing)
		return usage_error("checking a quote needs %s too", missing);
	if (a->bank && !ima_log_bank_size(a->bank))
		return usage_error("--bank: unknown algorithm %s", a->bank);
	return 0;
}

/*
 * The options and LOG into A: 0, or -1 when the command must return
 * *STATUS at once (--help, --version, a usage error).
 */
static int parse_args(int argc, char *argv[], struct args *a, int *status)
{
	static const struct option options[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "system-map", required_argument, NULL, 's' },
		{ "bank", required_argument, NULL, 'b' },
		{ "pcrs", required_argument, NULL, OPT_PCRS },
		{ "pcr10", required_argument, NULL, 'P' },
		{ "quote", required_argument, NULL, OPT_QUOTE },
		{ "quote-sig", required_argument, NULL, OPT_QUOTE_SIG },
		{ "ak-pub", required_argument, NULL, OPT_AK_PUB },
		{ "ak-name", required_argument, NULL, OPT_AK_NAME },
		{ "nonce", required_argument, NULL, OPT_NONCE },
		{ "pcr-values", required_argument, NULL, OPT_PCR_VALUES },
		{ "pcr", required_argument, NULL, 'n' },
		{ "reference", required_argument, NULL, 'r' },
		{ "modules", required_argument, NULL, 'M' },
		{ "ima-hash", required_argument, NULL, 'I' },
		{ "cert", required_argument, NULL, 'c' },
		{ "module-path", required_argument, NULL, OPT_MODULE_PATH },
		{ "format", required_argument, NULL, 'f' },
		CLI_COMMON_OPTIONS,
	};
	int c, rc = 0;
	char *end;

	memset(a, 0, sizeof(*a));
	a->pcr = 10;
	a->ima_hash = "sha256";
	*status = EXIT_ERROR;
	while (!rc && (c = cli_getopt(argc, argv, "k:s:b:r:c:f:", options,
				      usage, status)) != -1) {
		if (c == CLI_STOP)
			return -1;
		if (quote_option(c, optarg, &a->quote))
			continue;
		switch (c) {
		case 'k': a->kernel = optarg; break;
		case 's': a->map = optarg; break;
		case 'b': a->bank = optarg; break;
		case 'P': a->pcr10 = optarg; break;
		case 'r': a->reference = optarg; break;
		case 'M': a->modules = optarg; break;
		case 'I': a->ima_hash = optarg; break;
		case OPT_PCRS:
			rc = add_arg(a->pcrs, &a->n_pcrs, 8, optarg, "--pcrs");
			break;
		case 'c':
			rc = add_arg(a->certs, &a->n_certs, MAX_CERTS, optarg,
				     "--cert");
			break;
		case OPT_MODULE_PATH:
			rc = add_arg(a->prefixes, &a->n_prefixes, MAX_PREFIXES,
				     optarg, "--module-path");
			break;
		case 'f':
			rc = json_out_format(optarg, &a->json);
			break;
		case 'n':
			a->pcr = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !*optarg || a->pcr > IMA_LOG_MAX_PCR) {
				usage_error("--pcr: not a PCR index: %s", optarg);
				rc = -1;
			}
			break;
		}
	}
	if (rc || check_args(a, argc, argv))
		return -1;
	a->log = argv[optind];
	return 0;
}

/*
 * Read LOG (binary, or ASCII rebuilt as binary) into *LOG and tell its
 * bank from its entries into a->bank, checking a --bank given.
 */
static int read_log(struct args *a, unsigned char **log, size_t *len)
{
	const char *bank, *why;
	bool ascii;

	if (read_whole_file(a->log, &INPUT_IMA_LOG, log, len))
		return -1;
	ascii = ima_ascii_detect(*log, *len);
	if (ascii) {
		struct ima_ascii_error err;
		unsigned char *bin;
		size_t bin_len;

		if (ima_ascii_to_binary((const char *)*log, *len, &bin,
					&bin_len, &err)) {
			fail_at(a->log, "line %zu: %s", err.line, err.why);
			goto fail;
		}
		free(*log);
		*log = bin;
		*len = bin_len;
	}
	bank = ima_log_detect_bank(*log, *len, &why);
	if (!bank) {
		fail_at(a->log, "cannot tell its PCR bank: %s", why);
		goto fail;
	}
	if (a->bank && strcmp(a->bank, bank)) {
		fail_at(a->log, "its entries are of the %s bank, not of %s (--bank)",
			bank, a->bank);
		goto fail;
	}
	verbose("%s: %s list, %s bank%s", a->log, ascii ? "an ASCII" : "a binary",
		bank, a->bank ? " (as --bank says)" : ", told from its entries");
	a->bank = bank;
	return 0;
fail:
	free(*log);
	*log = NULL;
	return -1;
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

/* "offending: entry 5 (offset 812): PATH: DIGEST: REASON" and the like. */
static void print_result(const struct verify_finding *f)
{
	if (f->status == VERIFY_SIGNED)
		printf("signed-by %s", f->key);
	else
		printf("%s", verify_status_name(f->status));
	if (f->index == SIZE_MAX) {
		printf(": %s\n", f->reason);
		return;
	}
	printf(": entry %zu (offset %zu): %s: %s: %s", f->index, f->offset,
	       f->path[0] ? f->path : "-", f->digest[0] ? f->digest : "-",
	       f->reason);
	if (f->reference)
		printf(" (%s)", f->reference);
	printf("\n");
}

/* -q: only what makes the exit status 1. */
static void print_refusals(const struct args *a,
			   const struct verify_report *rep)
{
	size_t i;

	if (rep->pcr_checked && !rep->pcr_matched)
		printf("%s PCR-%02u: the quoted value is never reached\n",
		       a->bank, a->pcr);
	for (i = 0; i < rep->n_results; i++)
		if (rep->results[i].status == VERIFY_OFFENDING)
			print_result(&rep->results[i]);
}

static void print_report(const struct args *a, const struct verify_report *rep,
			 const struct allowlist *al)
{
	char hex[2 * IMA_LOG_MAX_DIGEST + 1];
	size_t i;

	if (verbosity < VERBOSITY_NORMAL) {
		print_refusals(a, rep);
		return;
	}
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
	printf("modules: %zu loads, %zu on the allowlist", rep->modules,
	       rep->modules_listed);
	if (rep->modules_signed)
		printf(", %zu signed", rep->modules_signed);
	printf(" (%u %s digests)\n", al->count, hash_algo_name(al->algo));
	if (rep->boot_checked && rep->boot_matched)
		printf("boot_aggregate: entry 0 matches the quoted %s PCRs 0-9\n",
		       rep->boot_algo);
	else if (quote_files_any(&a->quote) && !rep->boot_checked)
		printf("boot_aggregate: not checked (no entry 0 boot_aggregate, or no quoted %s PCRs 0-9)\n",
		       rep->boot_algo[0] ? rep->boot_algo : "-");
	if (rep->allowlist_index != SIZE_MAX)
		printf("module-allowlist: entry %zu matches the kernel's list\n",
		       rep->allowlist_index);
	for (i = 0; i < rep->n_results; i++)
		print_result(&rep->results[i]);
}

static json_object *json_result(const struct verify_finding *f)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "entry", f->index == SIZE_MAX ? NULL :
				json_object_new_uint64(f->index));
	json_object_object_add(o, "offset", f->index == SIZE_MAX ? NULL :
				json_object_new_uint64(f->offset));
	json_object_object_add(o, "path", json_out_string(f->path[0] ? f->path : NULL));
	json_object_object_add(o, "digest", json_out_string(f->digest[0] ? f->digest : NULL));
	json_object_object_add(o, "verdict",
			       json_object_new_string(verify_status_name(f->status)));
	json_object_object_add(o, "key", json_out_string(f->key[0] ? f->key : NULL));
	json_object_object_add(o, f->status == VERIFY_SIGNED ? "signer" : "reason",
			       json_out_string(f->reason));
	if (f->reference)
		json_object_object_add(o, "reference",
				       json_object_new_string(f->reference));
	return o;
}

static int print_json(const struct args *a, const struct verify_report *rep,
		      const struct allowlist *al, const char *quote_line,
		      int verdict)
{
	json_object *root = json_object_new_object(), *pcr, *mods, *list, *boot;
	size_t i;

	json_object_object_add(root, "log", json_object_new_string(a->log));
	json_object_object_add(root, "bank", json_object_new_string(a->bank));
	json_object_object_add(root, "quote", json_out_string(quote_line[0] ? quote_line : NULL));
	json_object_object_add(root, "entries", json_object_new_uint64(rep->entries));
	pcr = json_object_new_object();
	json_object_object_add(pcr, "index", json_object_new_int((int)a->pcr));
	json_object_object_add(pcr, "replayed",
			       json_out_digest(a->bank, rep->pcr_value, rep->pcr_size));
	json_object_object_add(pcr, "quoted", json_object_new_boolean(rep->pcr_checked));
	json_object_object_add(pcr, "matched", json_object_new_boolean(rep->pcr_matched));
	json_object_object_add(pcr, "bytes_not_covered",
			       json_object_new_uint64(rep->pcr_matched ? rep->rest : 0));
	json_object_object_add(root, "pcr", pcr);
	boot = json_object_new_object();
	json_object_object_add(boot, "checked", json_object_new_boolean(rep->boot_checked));
	json_object_object_add(boot, "matched", json_object_new_boolean(rep->boot_matched));
	json_object_object_add(boot, "bank", json_out_string(rep->boot_algo[0] ? rep->boot_algo : NULL));
	json_object_object_add(root, "boot_aggregate", boot);
	json_object_object_add(root, "module_allowlist_entry",
			       rep->allowlist_index == SIZE_MAX ? NULL :
			       json_object_new_uint64(rep->allowlist_index));
	mods = json_object_new_object();
	json_object_object_add(mods, "loads", json_object_new_uint64(rep->modules));
	json_object_object_add(mods, "listed", json_object_new_uint64(rep->modules_listed));
	json_object_object_add(mods, "signed", json_object_new_uint64(rep->modules_signed));
	json_object_object_add(mods, "allowlist_algorithm",
			       json_object_new_string(hash_algo_name(al->algo)));
	json_object_object_add(mods, "allowlist_digests", json_object_new_uint64(al->count));
	json_object_object_add(root, "modules", mods);
	list = json_object_new_array();
	for (i = 0; i < rep->n_results; i++)
		json_object_array_add(list, json_result(&rep->results[i]));
	json_object_object_add(root, "results", list);
	json_object_object_add(root, "verdict", json_object_new_string(
		verdict == EXIT_ACCEPTED ? "accepted" : "refused"));
	return json_out_print(root);
}

/*
 * The quoted PCR value(s) the options give, into EXPECTED and O; with
 * --quote, its verdict line into LINE.  0, or -1 with *RC the exit code:
 * EXIT_REFUSED for a refused quote (its line in LINE), EXIT_ERROR.
 */
static int read_quote(const struct args *a, unsigned char *expected,
		      struct verify_boot_pcrs *boot, size_t max_boot,
		      struct verify_options *o, char *line, size_t line_size,
		      int *rc)
{
	size_t size = ima_log_bank_size(a->bank);

	*rc = EXIT_ERROR;
	if (quote_files_any(&a->quote)) {
		*rc = quote_check(&a->quote, a->bank, a->pcr, expected, boot,
				  max_boot, &o->n_boot_pcrs, line, line_size);
		if (*rc != EXIT_ACCEPTED)
			return -1;
	} else if (!a->pcr10 && !a->n_pcrs) {
		return 0;
	} else if (a->pcr10 ? read_pcr10(a->pcr10, size, expected) :
		   read_pcrs(a, size, expected)) {
		return -1;
	}
	o->expected = expected;
	return 0;
}

/* A refused quote vouches for nothing: its line alone, or its JSON. */
static int print_refused_quote(const struct args *a, const char *line)
{
	json_object *root;

	if (!a->json) {
		printf("%s\n", line);
		return fflush(stdout);
	}
	root = json_object_new_object();
	json_object_object_add(root, "log", json_object_new_string(a->log));
	json_object_object_add(root, "quote", json_object_new_string(line));
	json_object_object_add(root, "verdict", json_object_new_string("refused"));
	return json_out_print(root);
}

int cmd_verify_log(int argc, char *argv[])
{
	unsigned char expected[IMA_LOG_MAX_DIGEST];
	static struct verify_boot_pcrs boot[4];
	struct verify_options o = { .boot_pcrs = boot };
	struct sig_keys keys = { NULL, 0, false };
	struct reference ref = { NULL, 0 };
	struct verify_report rep;
	struct allowlist al = { 0 };
	unsigned char *log = NULL;
	struct ima_log_error err;
	size_t len, i;
	char quote_line[QUOTE_LINE_MAX] = "";
	struct args a;
	int rc;

	if (parse_args(argc, argv, &a, &rc))
		return rc;
	rc = EXIT_ERROR;
	if (read_log(&a, &log, &len))
		return EXIT_ERROR;
	o.bank = a.bank;
	o.pcr = a.pcr;
	if (a.n_prefixes) {
		o.prefixes = a.prefixes;
		o.n_prefixes = a.n_prefixes;
	}
	if (read_quote(&a, expected, boot, sizeof(boot) / sizeof(boot[0]), &o,
		       quote_line, sizeof(quote_line), &rc)) {
		if (rc == EXIT_REFUSED && print_refused_quote(&a, quote_line))
			rc = EXIT_ERROR;
		goto out;
	}
	rc = EXIT_ERROR;
	for (i = 0; i < a.n_certs; i++)
		if (sig_keys_add_file(&keys, a.certs[i]))
			goto out;
	o.keys = &keys;
	if (kernel_allowlist_load_map(a.kernel, a.map, &al))
		goto out;
	if (a.reference || a.modules) {
		if (a.reference ? reference_load(a.reference, &ref) :
		    reference_from_modules(a.modules, &al, a.ima_hash, &ref))
			goto out;
		o.reference = &ref;
	}
	if (verify_log(log, len, &al, &o, &rep, &err)) {
		fail_at(a.log, "entry %zu (offset %zu): %s at offset %zu",
			err.index, err.entry_offset, err.why, err.offset);
		goto out;
	}
	rc = verify_verdict(&rep);
	if (a.json) {
		if (print_json(&a, &rep, &al, quote_line, rc))
			rc = EXIT_ERROR;
	} else {
		if (quote_line[0] && verbosity >= VERBOSITY_NORMAL)
			printf("%s\n", quote_line);
		print_report(&a, &rep, &al);
		if (fflush(stdout))
			rc = EXIT_ERROR;
	}
	verify_report_free(&rep);
out:
	free(log);
	allowlist_free(&al);
	reference_free(&ref);
	sig_keys_free(&keys);
	return rc;
}
