// SPDX-License-Identifier: GPL-2.0
/* kbuild-order.c - modules.order and .config of a build directory. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbuild-order.h"
#include "util.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next line of TEXT at *POS, without its blanks at the end. */
static const char *next_line(const char *text, size_t len, size_t *pos,
			     size_t *n)
{
	const char *p = text + *pos, *nl = memchr(p, '\n', len - *pos);
	size_t end = nl ? (size_t)(nl - p) : len - *pos;

	*pos += end + (nl ? 1 : 0);
	while (end && is_blank(p[end - 1]))
		end--;
	*n = end;
	return p;
}

static bool names_object(const char *p, size_t n)
{
	size_t i;

	if (n < 3 || p[n - 2] != '.' || p[n - 1] != 'o')
		return false;
	for (i = 0; i < n; i++)
		if (is_blank(p[i]) || p[i] == '\0')
			return false;
	return true;
}

size_t kbuild_order_parse(const char *text, size_t len,
			  int (*add)(void *ctx, const char *stem,
				     size_t stem_len, size_t line),
			  void *ctx)
{
	size_t pos = 0, line = 0;

	while (pos < len) {
		size_t n;
		const char *p = next_line(text, len, &pos, &n);

		line++;
		if (!n)
			continue;
		if (!names_object(p, n))
			return line;
		if (add(ctx, p, n - 2, line))
			return line;
	}
	return 0;
}

bool kbuild_order_names_objects(const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		size_t n;
		const char *p = next_line(text, len, &pos, &n);

		if (n)
			return names_object(p, n);
	}
	return false;
}

struct order_ctx {
	struct kbuild_order *order;
	const char *build_dir;
	size_t cap;
	bool out_of_memory;
};

static int add_module(void *opaque, const char *stem, size_t stem_len,
		      size_t line)
{
	struct order_ctx *ctx = opaque;
	struct kbuild_order *o = ctx->order;
	char *path;

	if (o->n == ctx->cap) {
		size_t cap = ctx->cap ? 2 * ctx->cap : 256;
		struct kbuild_module *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			goto oom;
		o->v = v;
		ctx->cap = cap;
	}
	/* External modules (M=DIR) are named by DIR as given, often absolute. */
	path = malloc(strlen(ctx->build_dir) + stem_len + 2);
	if (!path)
		goto oom;
	if (stem[0] == '/')
		sprintf(path, "%.*s", (int)stem_len, stem);
	else
		sprintf(path, "%s/%.*s", ctx->build_dir, (int)stem_len, stem);
	o->v[o->n].stem = path;
	o->v[o->n].line = line;
	o->n++;
	return 0;
oom:
	ctx->out_of_memory = true;
	return -1;
}

int kbuild_order_from_text(const char *text, size_t len, const char *path,
			   const char *build_dir, struct kbuild_order *order)
{
	struct order_ctx ctx = { order, build_dir, 0, false };
	size_t bad;

	memset(order, 0, sizeof(*order));
	bad = kbuild_order_parse(text, len, add_module, &ctx);
	if (!bad)
		return 0;
	if (ctx.out_of_memory)
		fail_at(path, "out of memory");
	else
		fail_at(path, "line %zu: not an object of the build (dir/x.o)",
			bad);
	kbuild_order_free(order);
	return -1;
}

void kbuild_order_free(struct kbuild_order *order)
{
	size_t i;

	for (i = 0; i < order->n; i++)
		free(order->v[i].stem);
	free(order->v);
	memset(order, 0, sizeof(*order));
}

int kbuild_config_string(const char *path, const char *name, char *out,
			 size_t size)
{
	size_t pos = 0, len, name_len = strlen(name);
	unsigned char *text;
	struct stat st;
	int found = 0;

	if (stat(path, &st) && errno == ENOENT)
		return 0;
	if (read_whole_file(path, &INPUT_TEXT, &text, &len))
		return -1;
	while (pos < len && !found) {
		size_t n;
		const char *p = next_line((const char *)text, len, &pos, &n);

		if (n < name_len + 3 || memcmp(p, name, name_len) ||
		    p[name_len] != '=')
			continue;
		p += name_len + 1;
		n -= name_len + 1;
		if (n < 2 || p[0] != '"' || p[n - 1] != '"' || n - 2 >= size ||
		    memchr(p + 1, '"', n - 2)) {
			fail_at(path, "%s: not a quoted string", name);
			found = -1;
			break;
		}
		memcpy(out, p + 1, n - 2);
		out[n - 2] = '\0';
		found = 1;
	}
	free(text);
	return found;
}
