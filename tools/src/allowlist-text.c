// SPDX-License-Identifier: GPL-2.0
/* allowlist-text.c - read and write the securityfs text of the list. */
#include <stdlib.h>
#include <string.h>

#include <linux/module_hashes.h>

#include "allowlist-text.h"
#include "util.h"

bool allowlist_text_looks_like(const unsigned char *buf, size_t len)
{
	size_t n = strlen(ALLOWLIST_TEXT_PREFIX);

	return len >= n && !memcmp(buf, ALLOWLIST_TEXT_PREFIX, n);
}

/* One line of the text, without its newline, as a C string. */
struct text_line {
	char *text;
	size_t number, start;
};

static const char *next_line(const unsigned char *buf, size_t len,
			     size_t *pos, struct text_line *line)
{
	const unsigned char *nl = memchr(buf + *pos, '\n', len - *pos);
	size_t n = nl ? (size_t)(nl - (buf + *pos)) : len - *pos;

	line->start = *pos;
	line->number++;
	if (memchr(buf + *pos, '\0', n))
		return "NUL byte in the text";
	free(line->text);
	line->text = strndup((const char *)buf + *pos, n);
	*pos += n + (nl ? 1 : 0);
	return line->text ? NULL : "out of memory";
}

static const char *parse_header(const char *text, unsigned int *algo,
				uint32_t *count)
{
	static char refused[160];
	char name[16], tail;
	unsigned int version;
	unsigned long n;
	int a;

	text += strlen(ALLOWLIST_TEXT_PREFIX);
	if (!strncmp(text, "refused: ", 9)) {
		snprintf(refused, sizeof(refused),
			 "the kernel refused its list: %s", text + 9);
		return refused;
	}
	if (sscanf(text, "version %u, %15[a-z0-9], %lu digest%c", &version,
		   name, &n, &tail) != 4 || tail != 's' ||
	    !strstr(text, " digest") || strcmp(strstr(text, " digest"), " digests"))
		return "header line not understood";
	if (version != MODULE_HASHES_VERSION)
		return "unknown version";
	a = hash_algo_by_name(name);
	if (a < 0)
		return "unknown hash algorithm";
	if (n > UINT32_MAX)
		return "digest count too large";
	*algo = (unsigned int)a;
	*count = (uint32_t)n;
	return NULL;
}

const char *allowlist_text_parse(const unsigned char *buf, size_t len,
				 struct allowlist *al, size_t *line_no,
				 size_t *offset)
{
	struct text_line line = { NULL, 0, 0 };
	unsigned char *digests = NULL;
	const char *why, *name;
	unsigned int algo = 0, size = 0;
	uint32_t count = 0, seen = 0;
	size_t pos = 0;

	memset(al, 0, sizeof(*al));
	if (!allowlist_text_looks_like(buf, len)) {
		why = "not the securityfs text of a module allowlist";
		goto out;
	}
	why = next_line(buf, len, &pos, &line);
	if (!why)
		why = parse_header(line.text, &algo, &count);
	if (why)
		goto out;
	name = hash_algo_name(algo);
	size = hash_algo_size(algo);
	/* Not a line a digest: the text cannot hold them (and no huge malloc). */
	if (count > len) {
		why = "more digests announced than the text can hold";
		goto out;
	}
	digests = malloc((size_t)count * size + 1);
	if (!digests) {
		why = "out of memory";
		goto out;
	}
	while (pos < len) {
		unsigned char *d = digests + (size_t)seen * size;

		why = next_line(buf, len, &pos, &line);
		if (why)
			goto out;
		if (seen == count) {
			why = "more digest lines than the header announced";
			goto out;
		}
		if (strncmp(line.text, name, strlen(name)) ||
		    line.text[strlen(name)] != ':') {
			why = "not a digest of the header's algorithm";
			goto out;
		}
		if (!hex_decode(line.text + strlen(name) + 1, d, size)) {
			why = "digest is not hex of the algorithm's size";
			goto out;
		}
		if (seen && memcmp(d - size, d, size) >= 0) {
			why = memcmp(d - size, d, size) ? "digests not sorted" :
							  "duplicate digest";
			goto out;
		}
		seen++;
	}
	if (seen != count) {
		line.number++;
		line.start = len;
		why = "fewer digest lines than the header announced";
		goto out;
	}
	why = allowlist_build(algo, digests, count, al);
out:
	*line_no = why ? (line.number ? line.number : 1) : 0;
	*offset = why ? line.start : 0;
	free(line.text);
	free(digests);
	return why;
}

void allowlist_text_write(FILE *fp, const struct allowlist *al)
{
	char hex[2 * ALLOWLIST_MAX_DIGEST + 1];
	uint32_t i;

	for (i = 0; i < al->count; i++) {
		hex_encode(al->digests + (size_t)i * al->digest_size,
			   al->digest_size, hex);
		fprintf(fp, "%s:%s\n", hash_algo_name(al->algo), hex);
	}
}
