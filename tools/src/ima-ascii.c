// SPDX-License-Identifier: GPL-2.0
/* ima-ascii.c - read IMA's ASCII measurement lists (see ima-ascii.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima-ascii.h"
#include "ima-log.h"
#include "util.h"

/* How a field is printed in the ASCII list. */
enum field_kind {
	FIELD_UNPRINTABLE,	/* not exactly: integers, unknown fields */
	FIELD_DIGEST_NG,	/* "algo:hex" or "type:algo:hex" */
	FIELD_DIGEST,		/* the "ima" template's bare hex digest */
	FIELD_NAME,		/* n-ng: text, NUL-terminated in binary */
	FIELD_NAME_IMA,		/* n of "ima": text without NUL */
	FIELD_HEX,		/* sig, buf, modsig, ... */
};

static enum field_kind field_kind(const char *id, size_t len, bool ima)
{
	static const char *const hex[] = { "sig", "buf", "modsig", "evmsig",
					   "xattrlengths", "xattrvalues" };
	size_t i;

#define IS(s) (len == sizeof(s) - 1 && !memcmp(id, s, len))
	if (IS("d-ng") || IS("d-ngv2") || IS("d-modsig"))
		return FIELD_DIGEST_NG;
	if (IS("n-ng"))
		return FIELD_NAME;
	if (ima && IS("d"))
		return FIELD_DIGEST;
	if (ima && IS("n"))
		return FIELD_NAME_IMA;
	for (i = 0; i < sizeof(hex) / sizeof(hex[0]); i++)
		if (strlen(hex[i]) == len && !memcmp(id, hex[i], len))
			return FIELD_HEX;
	return FIELD_UNPRINTABLE;
#undef IS
}

struct out {
	unsigned char *data;
	size_t len, cap;
	bool nomem;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->nomem || !n)
		return;
	if (o->cap - o->len < n) {
		size_t cap = o->cap ? o->cap : 4096;
		unsigned char *more;

		while (cap - o->len < n)
			cap *= 2;
		more = realloc(o->data, cap);
		if (!more) {
			o->nomem = true;
			return;
		}
		o->data = more;
		o->cap = cap;
	}
	memcpy(o->data + o->len, p, n);
	o->len += n;
}

static void put_u32(struct out *o, uint32_t v)
{
	unsigned char le[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
				v >> 24 };

	put(o, le, 4);
}

/* Append the bytes of LEN hex digits at HEX; false if not hex. */
static bool put_hex(struct out *o, const char *hex, size_t len)
{
	unsigned char chunk[64];

	if (len % 2)
		return false;
	while (len) {
		size_t n = len / 2 < sizeof(chunk) ? len / 2 : sizeof(chunk);
		char digits[2 * sizeof(chunk) + 1];

		memcpy(digits, hex, 2 * n);
		digits[2 * n] = '\0';
		if (strspn(digits, "0123456789abcdef") != 2 * n ||
		    !hex_decode(digits, chunk, n))
			return false;
		put(o, chunk, n);
		hex += 2 * n;
		len -= 2 * n;
	}
	return true;
}

/* A token: LEN bytes at P. */
struct token {
	const char *p;
	size_t len;
};

/* The token from *P to the next space or END; *P moves past it. */
static struct token next_word(const char **p, const char *end)
{
	const char *sp = memchr(*p, ' ', (size_t)(end - *p));
	struct token t = { *p, (size_t)((sp ? sp : end) - *p) };

	*p += t.len;
	return t;
}

/* One field's binary form (with its u32 length but for "ima"). */
static const char *put_field(struct out *o, enum field_kind kind,
			     const struct token *t)
{
	struct out f = { NULL, 0, 0, false };
	const char *why = NULL, *colon = NULL;
	size_t i;

	switch (kind) {
	case FIELD_DIGEST_NG:
		if (!t->len)
			break;	/* d-modsig of a file without one */
		for (i = 0; i < t->len; i++)
			if (t->p[i] == ':')
				colon = t->p + i;
		if (!colon || colon == t->p) {
			why = "digest field without \"algo:\" prefix";
			break;
		}
		put(&f, t->p, (size_t)(colon - t->p) + 1);
		put(&f, "", 1);
		if (!put_hex(&f, colon + 1, t->len - (size_t)(colon + 1 - t->p)))
			why = "digest field: not hex";
		break;
	case FIELD_DIGEST:
		if (t->len != 40 || !put_hex(o, t->p, t->len))
			return "ima template digest: not 40 hex digits";
		return NULL;
	case FIELD_NAME:
		put(&f, t->p, t->len);
		put(&f, "", 1);
		break;
	case FIELD_NAME_IMA:
		if (t->len > IMA_LOG_MAX_NAME)
			return "event name too long";
		put_u32(o, (uint32_t)t->len);
		put(o, t->p, t->len);
		return NULL;
	case FIELD_HEX:
		if (!put_hex(&f, t->p, t->len))
			why = "field: not hex";
		break;
	default:
		why = "template field without an exact ASCII form; read the binary list";
	}
	if (f.nomem)
		why = "out of memory";
	if (!why) {
		put_u32(o, (uint32_t)f.len);
		put(o, f.data, f.len);
	}
	free(f.data);
	return why;
}

/* The fields of one line, after the template name: REST of LEN bytes. */
static const char *put_fields(struct out *o, const char *fmt, bool ima,
			      const char *rest, size_t len)
{
	struct token tok[IMA_LOG_MAX_FIELDS];
	enum field_kind kind[IMA_LOG_MAX_FIELDS];
	size_t n = 0, i, text = SIZE_MAX, start;
	const char *why, *p = rest, *end = rest + len;

	while (*fmt) {
		size_t flen = strcspn(fmt, "|");

		if (n == IMA_LOG_MAX_FIELDS)
			return "too many template fields";
		kind[n] = field_kind(fmt, flen, ima);
		if (kind[n] == FIELD_UNPRINTABLE)
			return "template field without an exact ASCII form; read the binary list";
		if (kind[n] == FIELD_NAME || kind[n] == FIELD_NAME_IMA) {
			if (text != SIZE_MAX)
				return "template with two names: no exact ASCII form";
			text = n;
		}
		n++;
		fmt += flen;
		if (*fmt == '|')
			fmt++;
	}
	/* Fields before the name, from the left; after it, from the right. */
	for (i = 0; i < n && i < text; i++) {
		if (p == end || *p++ != ' ')
			return "fewer fields than the template has";
		tok[i] = next_word(&p, end);
	}
	for (i = n; text != SIZE_MAX && i > text + 1; i--) {
		const char *q = end;

		while (q > p && q[-1] != ' ')
			q--;
		if (q == p)
			return "fewer fields than the template has";
		tok[i - 1].p = q;
		tok[i - 1].len = (size_t)(end - q);
		end = q - 1;
	}
	if (text != SIZE_MAX) {
		if (p == end || *p != ' ')
			return "fewer fields than the template has";
		tok[text].p = p + 1;
		tok[text].len = (size_t)(end - p - 1);
	} else if (p != end) {
		return "more fields than the template has";
	}
	if (ima) {
		why = put_field(o, kind[0], &tok[0]);
		return why ? why : put_field(o, kind[1], &tok[1]);
	}
	start = o->len;
	put_u32(o, 0);		/* the data length, filled below */
	for (i = 0; i < n; i++)
		if ((why = put_field(o, kind[i], &tok[i])))
			return why;
	if (!o->nomem) {
		uint32_t data_len = (uint32_t)(o->len - start - 4);
		unsigned char le[4] = { data_len & 0xff, (data_len >> 8) & 0xff,
					(data_len >> 16) & 0xff, data_len >> 24 };

		memcpy(o->data + start, le, 4);
	}
	return NULL;
}

static const char *put_line(struct out *o, const char *line, size_t len,
			    size_t *hash_len)
{
	const char *p = line, *end = line + len, *fmt;
	char tname[IMA_LOG_MAX_TEMPLATE + 1];
	struct token hash, name;
	unsigned long pcr = 0;

	while (p < end && *p == ' ')
		p++;
	if (p == end || *p < '0' || *p > '9')
		return "no PCR index";
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		pcr = pcr * 10 + (unsigned long)(*p - '0');
		if (pcr > IMA_LOG_MAX_PCR)
			return "PCR index out of range";
	}
	if (p == end || *p++ != ' ')
		return "no template hash after the PCR index";
	hash = next_word(&p, end);
	if (!hash.len || hash.len % 2 || hash.len > 2 * IMA_LOG_MAX_DIGEST)
		return "template hash of a length no bank has";
	if (*hash_len && hash.len != *hash_len)
		return "template hash of another width than the first line's";
	*hash_len = hash.len;
	if (p == end || *p++ != ' ')
		return "no template name after the template hash";
	name = next_word(&p, end);
	if (!name.len || name.len > IMA_LOG_MAX_TEMPLATE)
		return "template name length out of range";
	memcpy(tname, name.p, name.len);
	tname[name.len] = '\0';
	fmt = ima_log_template_fields(tname);
	if (!fmt)
		return "unknown template: its fields cannot be read from the ASCII list";
	put_u32(o, (uint32_t)pcr);
	if (!put_hex(o, hash.p, hash.len))
		return "template hash: not hex";
	put_u32(o, (uint32_t)strlen(tname));
	put(o, tname, strlen(tname));
	return put_fields(o, fmt, !strcmp(tname, "ima"), p, (size_t)(end - p));
}

bool ima_ascii_detect(const unsigned char *data, size_t len)
{
	size_t i = 0;

	while (i < len && data[i] == ' ')
		i++;
	if (i == len || data[i] < '0' || data[i] > '9')
		return false;
	while (i < len && data[i] >= '0' && data[i] <= '9')
		i++;
	return i + 1 < len && data[i] == ' ' &&
	       strchr("0123456789abcdef", data[i + 1]) && data[i + 1];
}

int ima_ascii_to_binary(const char *text, size_t len, unsigned char **out,
			size_t *out_len, struct ima_ascii_error *err)
{
	struct out o = { NULL, 0, 0, false };
	const char *p = text, *end = text + len;
	size_t hash_len = 0;

	err->line = 0;
	err->why = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		err->line++;
		if (memchr(p, '\0', n))
			err->why = "NUL byte in the line";
		else if (!nl)
			err->why = "last line without a newline (cut short?)";
		else
			err->why = put_line(&o, p, n, &hash_len);
		if (!err->why && o.nomem)
			err->why = "out of memory";
		if (err->why) {
			free(o.data);
			return -1;
		}
		p += n + 1;
	}
	if (!o.len) {
		err->why = "no entry";
		free(o.data);
		return -1;
	}
	*out = o.data;
	*out_len = o.len;
	return 0;
}
