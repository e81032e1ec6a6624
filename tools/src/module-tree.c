// SPDX-License-Identifier: GPL-2.0
/* module-tree.c - which module files a directory or a tree holds. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module-tree.h"
#include "util.h"

static const char *const suffixes[] = { "", ".xz", ".zst", ".gz" };
#define N_SUFFIXES (sizeof(suffixes) / sizeof(suffixes[0]))

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t n = strlen(tail);

	return len >= n && !memcmp(s + len - n, tail, n);
}

size_t module_name_base_len(const char *name)
{
	size_t len = strlen(name), i;

	for (i = 1; i < N_SUFFIXES; i++)
		if (ends_with(name, len, suffixes[i]))
			return len - strlen(suffixes[i]);
	return len;
}

bool module_name_is_module(const char *name)
{
	return ends_with(name, module_name_base_len(name), ".ko");
}

static char *join(const char *dir, const char *name)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);

	if (path)
		sprintf(path, "%s/%s", dir, name);
	return path;
}

static int push(struct module_list *list, char *path, char *name,
		bool missing)
{
	if (!path || !name)
		goto oom;
	if (list->n == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 64;
		struct module_entry *v = realloc(list->v, cap * sizeof(*v));

		if (!v)
			goto oom;
		list->v = v;
		list->cap = cap;
	}
	list->v[list->n].path = path;
	list->v[list->n].name = name;
	list->v[list->n].missing = missing;
	list->n++;
	return 0;
oom:
	free(path);
	free(name);
	fail_at(NULL, "out of memory");
	return -1;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

bool module_tree_is_installed(const char *dir)
{
	char *order = join(dir, "modules.order"), *dep = join(dir, "modules.dep");
	bool yes = (order && is_file(order)) || (dep && is_file(dep));

	free(order);
	free(dep);
	return yes;
}

size_t module_tree_parse_index(const char *text, size_t len, bool dep,
			       int (*add)(void *ctx, const char *name),
			       void *ctx)
{
	size_t pos = 0, line = 0;

	while (pos < len) {
		const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos, end = n;
		char *name;
		int ret;

		line++;
		pos += n + 1;
		if (n == 0)
			continue;
		if (dep) {
			const char *colon = memchr(p, ':', n);

			if (!colon)
				return line;
			end = (size_t)(colon - p);
		}
		if (end == 0 || memchr(p, '\0', end) || memchr(p, ' ', end))
			return line;
		name = strndup(p, end);
		if (!name || !module_name_is_module(name)) {
			free(name);
			return line;
		}
		ret = add(ctx, name);
		free(name);
		if (ret)
			return line;
	}
	return 0;
}

struct tree_ctx {
	struct module_list *list;
	const char *dir;
	size_t first;	/* this tree's first entry in the list */
};

/* Add NAME (modules.order/dep) unless this tree has it already. */
static int add_tree_module(void *opaque, const char *name)
{
	struct tree_ctx *ctx = opaque;
	size_t base = module_name_base_len(name), i;
	char *path = NULL;

	for (i = ctx->first; i < ctx->list->n; i++) {
		const char *have = ctx->list->v[i].name;

		if (module_name_base_len(have) == base &&
		    !strncmp(have, name, base))
			return 0;
	}
	for (i = 0; i < N_SUFFIXES && !path; i++) {
		char *candidate = malloc(strlen(ctx->dir) + base +
					 strlen(suffixes[i]) + 2);

		if (!candidate)
			break;
		sprintf(candidate, "%s/%.*s%s", ctx->dir, (int)base, name,
			suffixes[i]);
		if (is_file(candidate))
			path = candidate;
		else
			free(candidate);
	}
	if (path)
		return push(ctx->list, path,
			    strdup(path + strlen(ctx->dir) + 1), false);
	return push(ctx->list, join(ctx->dir, name), strdup(name), true);
}

static int add_tree(struct module_list *list, const char *dir)
{
	static const char *const indexes[] = { "modules.order", "modules.dep" };
	struct tree_ctx ctx = { list, dir, list->n };
	size_t i;

	for (i = 0; i < 2; i++) {
		char *path = join(dir, indexes[i]);
		unsigned char *text;
		size_t len, bad;

		if (!path || !is_file(path)) {
			free(path);
			continue;
		}
		if (read_whole_file(path, &INPUT_TEXT, &text, &len)) {
			free(path);
			return -1;
		}
		bad = module_tree_parse_index((const char *)text, len, i == 1,
					      add_tree_module, &ctx);
		free(text);
		if (bad)
			fail_at(path, "line %zu: not a module name", bad);
		free(path);
		if (bad)
			return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct module_entry *)a)->name,
		      ((const struct module_entry *)b)->name);
}

/* Walk DIR (PREFIX is its path relative to the starting directory). */
static int walk(struct module_list *list, const char *top, const char *rel)
{
	char *dir_path = rel[0] ? join(top, rel) : strdup(top);
	DIR *dir = dir_path ? opendir(dir_path) : NULL;
	struct dirent *de;
	int ret = 0;

	if (!dir) {
		fail_at(dir_path ? dir_path : top, "cannot read: %s",
			strerror(errno));
		free(dir_path);
		return -1;
	}
	while (!ret && (de = readdir(dir))) {
		char *name, *path;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		name = rel[0] ? join(rel, de->d_name) : strdup(de->d_name);
		path = name ? join(top, name) : NULL;
		if (!path || lstat(path, &st)) {
			free(name);
			free(path);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			ret = walk(list, top, name);
			free(name);
			free(path);
		} else if (S_ISREG(st.st_mode) &&
			   module_name_is_module(de->d_name)) {
			ret = push(list, path, name, false);
		} else {
			free(name);
			free(path);
		}
	}
	closedir(dir);
	free(dir_path);
	return ret;
}

int module_list_add(struct module_list *list, const char *arg)
{
	struct stat st;
	size_t first = list->n;

	if (stat(arg, &st)) {
		fail_at(arg, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return push(list, strdup(arg), strdup(arg), false);
	if (module_tree_is_installed(arg))
		return add_tree(list, arg);
	if (walk(list, arg, ""))
		return -1;
	/* An empty directory leaves the list as it was, maybe still NULL. */
	if (list->n > first)
		qsort(list->v + first, list->n - first, sizeof(*list->v),
		      by_name);
	return 0;
}

void module_list_free(struct module_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		free(list->v[i].path);
		free(list->v[i].name);
	}
	free(list->v);
	memset(list, 0, sizeof(*list));
}
