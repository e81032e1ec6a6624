/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcr-values.h - quoted PCR values a measurement list is checked against,
 * in the two text forms verifiers have at hand:
 *  - evmctl's --pcrs file (ima_measurement --pcrs [ALGO,]FILE): one bank
 *    per file, lines "PCR-NN: HEX" (TPM 1.2's sysfs "pcrs" form; the hex
 *    may have a space between bytes; other lines are ignored);
 *  - one value alone, as in /sys/class/tpm/tpm0/pcr-sha256/10: hex digits
 *    (either case, optionally separated by spaces) and a newline;
 *  - the YAML tpm2-tools prints for a quote (tpm2_checkquote once it has
 *    verified the quote, or tpm2_quote): a "pcrs:" section at the start
 *    of a line, one "  BANK:" line per bank, then "    N: 0xHEX" (or
 *    "    N : 0xHEX") lines.
 */
#ifndef MODHASH_PCR_VALUES_H
#define MODHASH_PCR_VALUES_H

#include <stddef.h>

/*
 * Find PCR in the evmctl-style TEXT of LEN bytes and decode its SIZE-byte
 * value into OUT.  Returns 0, or -1 with *WHY and *LINE (1-based; 0 when
 * the PCR is missing).
 */
int pcr_values_from_evmctl(const char *text, size_t len, unsigned int pcr,
			   size_t size, unsigned char *out, const char **why,
			   size_t *line);

/*
 * Find PCR of BANK (sha1, sha256, ...) in the "pcrs:" section of the
 * tpm2-tools TEXT of LEN bytes and decode its SIZE-byte value into OUT.
 * Returns 0, or -1 with *WHY and *LINE (1-based; 0 when the section, the
 * bank or the PCR is missing).
 */
int pcr_values_from_tpm2(const char *text, size_t len, const char *bank,
			 unsigned int pcr, size_t size, unsigned char *out,
			 const char **why, size_t *line);

/* Decode one SIZE-byte value from TEXT.  0, or -1 with *WHY. */
int pcr_values_from_hex(const char *text, size_t len, size_t size,
			unsigned char *out, const char **why);

#endif
