// SPDX-License-Identifier: GPL-2.0
/* boot-aggregate.c - the boot_aggregate from an IMA list or a value. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "boot-aggregate.h"
#include "ima-log.h"
#include "util.h"

#define BOOT_AGGREGATE "boot_aggregate"

/* Copy N hex digits (40 to 128, even) from S, lower case; false if not. */
static bool take_hex(const char *s, size_t n, char *hex)
{
	size_t i;

	if (n < 40 || n > 2 * ALLOWLIST_MAX_DIGEST || n % 2)
		return false;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		hex[i] = (char)tolower((unsigned char)s[i]);
	}
	hex[n] = '\0';
	return true;
}

int boot_aggregate_parse(const char *value, char *hex)
{
	const char *colon = strchr(value, ':');
	const char *digits = colon ? colon + 1 : value;

	if (take_hex(digits, strlen(digits), hex))
		return 0;
	fail_at(NULL, "boot_aggregate '%s': not [ALGO:]HEX with 40 to 128 hex digits",
		value);
	return -1;
}

/*
 * The first line of an ASCII list: "PCR TEMPLATE-HASH TEMPLATE DIGEST
 * NAME...", DIGEST "algo:hex" (bare hex for the "ima" template).
 */
static const char *from_ascii(const char *text, size_t len, char *hex)
{
	const char *f[5], *end = memchr(text, '\n', len), *p = text;
	size_t n[5], i;

	if (!end)
		end = text + len;
	for (i = 0; i < 5; i++) {
		f[i] = p;
		while (p < end && *p != ' ')
			p++;
		n[i] = (size_t)(p - f[i]);
		if (p < end)
			p++;
		else if (i < 4)
			return "the first line has fewer than 5 fields";
	}
	if (n[4] != sizeof(BOOT_AGGREGATE) - 1 ||
	    memcmp(f[4], BOOT_AGGREGATE, n[4]))
		return "the first entry is not the boot_aggregate";
	for (i = 0; i < n[3] && f[3][i] != ':'; i++)
		;
	if (i < n[3])
		i++;
	else
		i = 0;
	if (!take_hex(f[3] + i, n[3] - i, hex))
		return "the boot_aggregate's digest is not hex";
	return NULL;
}

/* The first entry of a binary list, with the bank it verifies under. */
static const char *from_binary(const unsigned char *data, size_t len,
			       char *hex)
{
	static const char *const banks[] = {
		"sha1", "sha256", "sha384", "sha512"
	};
	unsigned char digest[EVP_MAX_MD_SIZE];
	struct ima_log_error err;
	struct ima_log_entry e;
	struct ima_log log;
	size_t i;

	for (i = 0; i < sizeof(banks) / sizeof(banks[0]); i++) {
		const EVP_MD *md = EVP_get_digestbyname(banks[i]);

		ima_log_init(&log, data, len, ima_log_bank_size(banks[i]));
		if (ima_log_next(&log, &e, &err) != 1 || !md ||
		    ima_log_template_digest(&e, md, digest) !=
		    e.template_hash.len ||
		    memcmp(digest, e.template_hash.data, e.template_hash.len))
			continue;
		if (!e.decoded || strcmp(e.name, BOOT_AGGREGATE))
			return "the first entry is not the boot_aggregate";
		if (e.digest.len < 20 || e.digest.len > ALLOWLIST_MAX_DIGEST)
			return "the boot_aggregate's digest has a wrong size";
		hex_encode(e.digest.data, e.digest.len, hex);
		return NULL;
	}
	return "not an IMA measurement list (no bank's template hash fits its first entry)";
}

const char *boot_aggregate_from_buffer(const unsigned char *buf, size_t len,
				       char *hex)
{
	/* An ASCII list starts with the PCR index in decimal and a space. */
	if (len > 2 && isdigit(buf[0]) && memchr(buf, ' ', len < 4 ? len : 4))
		return from_ascii((const char *)buf, len, hex);
	return from_binary(buf, len, hex);
}

int boot_aggregate_from_log(const char *path, char *hex)
{
	unsigned char *buf;
	const char *why;
	size_t len;

	if (read_whole_file(path, &INPUT_IMA_LOG, &buf, &len))
		return -1;
	why = boot_aggregate_from_buffer(buf, len, hex);
	free(buf);
	if (why)
		fail_at(path, "no boot_aggregate: %s", why);
	return why ? -1 : 0;
}
