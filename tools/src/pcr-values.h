/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcr-values.h - quoted PCR values a measurement list is checked against,
 * in the text forms verifiers have at hand:
 *  - evmctl's --pcrs file (ima_measurement --pcrs [ALGO,]FILE): one bank
 *    per file, lines "PCR-NN: HEX" (TPM 1.2's sysfs "pcrs" form; the hex
 *    may have a space between bytes; other lines are ignored);
 *  - one value alone, as in /sys/class/tpm/tpm0/pcr-sha256/10: hex digits
 *    (either case, optionally separated by spaces) and a newline.
 * A TPM quote's values are read from the TPM's structures (tpm-quote.h).
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

/* Decode one SIZE-byte value from TEXT.  0, or -1 with *WHY. */
int pcr_values_from_hex(const char *text, size_t len, size_t size,
			unsigned char *out, const char **why);

#endif
