// SPDX-License-Identifier: GPL-2.0
/* system-map.c - look symbols up in a System.map. */
#include <ctype.h>
#include <string.h>

#include "system-map.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

const char *system_map_find(const char *text, size_t len, const char *name,
			    uint64_t *addr, size_t *line)
{
	size_t pos = 0, name_len = strlen(name);

	*line = 0;
	while (pos < len) {
		const char *p = text + pos;
		const char *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos, i = 0;
		uint64_t value = 0;

		++*line;
		pos += n + 1;
		while (i < n && hex_digit(p[i]) >= 0 && i < 16)
			value = value << 4 | (uint64_t)hex_digit(p[i++]);
		if (i == 0 || i + 3 > n || p[i] != ' ' || p[i + 2] != ' ' ||
		    !isgraph((unsigned char)p[i + 1]))
			return "not a System.map line (ADDRESS TYPE NAME)";
		i += 3;
		if (n - i == name_len && !memcmp(p + i, name, name_len)) {
			*addr = value;
			return NULL;
		}
	}
	*line = 0;
	return "symbol not in the System.map";
}
