/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot-aggregate.h - the boot_aggregate, IMA's first entry: its digest
 * over PCRs 0-9 (0-7 for SHA-1) of the TPM at IMA's start, which a
 * Keylime runtime policy must list (NOTES.md, rule M8).
 */
#ifndef MODHASH_BOOT_AGGREGATE_H
#define MODHASH_BOOT_AGGREGATE_H

#include "format.h"

/* Lower-case hex of the largest digest, with its NUL. */
#define BOOT_AGGREGATE_HEX (2 * ALLOWLIST_MAX_DIGEST + 1)

/*
 * The boot_aggregate of the IMA measurement list in PATH, in HEX: the
 * binary list of any bank (binary_runtime_measurements_ALGO, the bank
 * told by which template hash width fits the first entry) or the ASCII
 * one (ascii_runtime_measurements*).  0, or -1 after fail_at().
 */
int boot_aggregate_from_log(const char *path, char *hex);

/*
 * The same for a list of LEN bytes in BUF: NULL with HEX filled in, or
 * why there is no boot_aggregate to take.
 */
const char *boot_aggregate_from_buffer(const unsigned char *buf, size_t len,
				       char *hex);

/*
 * A boot_aggregate given as "[ALGO:]HEX" (as the ASCII list shows it, or
 * the bare hex) into HEX, lower case.  0, or -1 after fail_at().
 */
int boot_aggregate_parse(const char *value, char *hex);

#endif
