/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ima-ascii.h - IMA's ASCII measurement lists (ascii_runtime_measurements
 * and ascii_runtime_measurements_<algo>), read back into the binary form
 * of ima-log.h, so that one parser, one replay and one judgement serve
 * both.
 *
 * A line is what 6.12's ima_ascii_measurements_show() prints:
 *   PCR (%2d) SP template-hash (hex) SP template-name {SP field}
 * with one space before each field of the template, an empty field
 * printed as nothing.  Digest fields (d-ng, d-ngv2, d-modsig) read
 * "algo:hex" ("type:algo:hex"), names are printed as they are, the other
 * byte fields (sig, buf, modsig, evmsig) as hex.  A template whose fields
 * the ASCII form does not print exactly (the integers of evm-sig) is
 * refused: read its binary list.
 *
 * Names are printed raw, so a name holding a space is told apart by the
 * template's other fields, which are hex; a name holding a newline
 * cannot be read back (the line is then malformed).
 */
#ifndef MODHASH_IMA_ASCII_H
#define MODHASH_IMA_ASCII_H

#include <stdbool.h>
#include <stddef.h>

/* Does DATA look like an ASCII list (a PCR number and a hex hash)? */
bool ima_ascii_detect(const unsigned char *data, size_t len);

/* Why and on which line (1-based) an ASCII list is malformed. */
struct ima_ascii_error {
	size_t line;
	const char *why;
};

/*
 * Rebuild the binary list of the ASCII list TEXT of LEN bytes into a
 * malloc'ed *OUT of *OUT_LEN bytes (little endian, as an x86 kernel
 * writes it).  Returns 0, or -1 with ERR filled (nothing allocated).
 */
int ima_ascii_to_binary(const char *text, size_t len, unsigned char **out,
			size_t *out_len, struct ima_ascii_error *err);

#endif
