// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ima-log.c - libFuzzer target: the IMA measurement list parser, the
 * PCR replay and verify-log's judgement, on the sha1 and sha256 banks;
 * the input read as an ASCII list too, and the bank told from its entries.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/hash_info.h>

#include "format.h"
#include "ima-ascii.h"
#include "ima-log.h"
#include "pcr-replay.h"
#include "verify-log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const uint8_t *data, size_t size, const char *bank)
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	struct ima_log_error err;
	struct ima_log_entry e;
	struct pcr_replay r;
	struct ima_log it;
	size_t last_end = 0;
	int rc;

	if (pcr_replay_init(&r, bank, 10))
		__builtin_trap();
	ima_log_init(&it, data, size, r.size);
	while ((rc = ima_log_next(&it, &e, &err)) > 0) {
		if (e.offset != last_end || e.offset + e.size > size)
			__builtin_trap();
		last_end = e.offset + e.size;
		(void)ima_log_template_digest(&e, r.md, digest);
		(void)pcr_replay_template_ok(&r, &e);
		if (pcr_replay_extend(&r, &e) < 0)
			__builtin_trap();
	}
	if (rc < 0 && (err.offset > size || err.entry_offset != last_end ||
		       err.offset < err.entry_offset))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char digests[2][32] = { { 1 }, { 2 } };
	struct verify_options o = { .bank = "sha256", .pcr = 10 };
	unsigned char expected[32] = { 0 };
	struct verify_report rep;
	struct ima_log_error err;
	struct allowlist al;

	walk(data, size, "sha1");
	walk(data, size, "sha256");
	{
		struct ima_ascii_error aerr;
		unsigned char *bin;
		size_t bin_len;
		const char *why;

		(void)ima_log_detect_bank(data, size, &why);
		if (!ima_ascii_to_binary((const char *)data, size, &bin,
					 &bin_len, &aerr)) {
			walk(bin, bin_len, "sha256");
			free(bin);
		} else if (!aerr.why) {
			__builtin_trap();
		}
	}
	if (allowlist_build(HASH_ALGO_SHA256, &digests[0][0], 2, &al))
		__builtin_trap();
	o.expected = size & 1 ? expected : NULL;
	if (!verify_log(data, size, &al, &o, &rep, &err))
		verify_report_free(&rep);
	allowlist_free(&al);
	return 0;
}
