// SPDX-License-Identifier: GPL-2.0
/* pcr-values.c - read quoted PCR values (pcr-values.h). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcr-values.h"
#include "util.h"

/* Larger than any PCR index: stops a long number from overflowing. */
#define IMA_PCR_LIMIT 1024

/* Decode hex pairs, a space allowed before each, up to the line's end. */
static int decode(const char *p, const char *end, size_t size,
		  unsigned char *out, const char **why)
{
	size_t n = 0;
	char pair[3] = { 0 };

	while (p < end && n < size) {
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (end - p < 2) {
			*why = "odd number of hex digits";
			return -1;
		}
		pair[0] = p[0];
		pair[1] = p[1];
		if (!hex_decode(pair, out + n, 1)) {
			*why = "not a hex digit";
			return -1;
		}
		n++;
		p += 2;
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (n < size) {
		*why = "value shorter than the bank's digest";
		return -1;
	}
	if (p != end) {
		*why = "value longer than the bank's digest";
		return -1;
	}
	return 0;
}

int pcr_values_from_hex(const char *text, size_t len, size_t size,
			unsigned char *out, const char **why)
{
	return decode(text, text + len, size, out, why);
}

int pcr_values_from_evmctl(const char *text, size_t len, unsigned int pcr,
			   size_t size, unsigned char *out, const char **why,
			   size_t *line)
{
	const char *p = text, *end = text + len;
	char label[16];
	size_t label_len;

	snprintf(label, sizeof(label), "PCR-%02u:", pcr);
	label_len = strlen(label);
	for (*line = 1; p < end; (*line)++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		if ((size_t)(eol - p) >= label_len &&
		    !memcmp(p, label, label_len))
			return decode(p + label_len, eol, size, out, why);
		p = eol + 1;
	}
	*line = 0;
	*why = "no such PCR in the file";
	return -1;
}
