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

/* Whether [P, END) is only blanks (a line's end, a '\r' included). */
static int blank(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p == end;
}

/* The number of leading spaces of the line [P, END). */
static size_t indent(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && p[n] == ' ')
		n++;
	return n;
}

int pcr_values_from_tpm2(const char *text, size_t len, const char *bank,
			 unsigned int pcr, size_t size, unsigned char *out,
			 const char **why, size_t *line)
{
	const char *p = text, *end = text + len;
	size_t bank_len = strlen(bank);
	int in_pcrs = 0, in_bank = 0, saw_pcrs = 0, saw_bank = 0;

	for (*line = 1; p < end; (*line)++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n;

		if (!eol)
			eol = end;
		n = indent(p, eol);
		if (blank(p, eol)) {
			/* an empty line ends nothing */
		} else if (n == 0) {
			in_pcrs = eol - p >= 5 && !memcmp(p, "pcrs:", 5) &&
				  blank(p + 5, eol);
			saw_pcrs |= in_pcrs;
			in_bank = 0;
		} else if (in_pcrs && n == 2) {
			const char *name = p + 2;

			in_bank = eol - name > (ptrdiff_t)bank_len &&
				  !memcmp(name, bank, bank_len) &&
				  name[bank_len] == ':' &&
				  blank(name + bank_len + 1, eol);
			saw_bank |= in_bank;
		} else if (in_bank && n > 2) {
			const char *q = p + n;
			unsigned long index = 0;

			if (q == eol || *q < '0' || *q > '9')
				goto next;
			while (q < eol && *q >= '0' && *q <= '9' && index <= IMA_PCR_LIMIT)
				index = index * 10 + (unsigned long)(*q++ - '0');
			while (q < eol && *q == ' ')
				q++;
			if (index != pcr || q == eol || *q != ':')
				goto next;
			q++;
			while (q < eol && *q == ' ')
				q++;
			if (eol - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
				q += 2;
			return decode(q, eol, size, out, why);
		}
next:
		p = eol + 1;
	}
	*line = 0;
	*why = !saw_pcrs ? "no \"pcrs:\" section (not tpm2-tools' quote output)" :
	       !saw_bank ? "the bank is not in the pcrs: section" :
			   "no such PCR in the bank's pcrs: section";
	return -1;
}
