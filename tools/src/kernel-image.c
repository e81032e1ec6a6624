// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-image.c - the allowlist of a kernel file: detect its form and
 * hand it to the reader of that form.  A vmlinux is read through the
 * symbols __module_hashes_start/_end that scripts/module-hashes-blob.S
 * puts around the list; a bzImage through its setup header, its
 * decompressed payload and, that payload having no symbol table, the
 * kernel's System.map.  The list is never searched for by its magic.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/module_hashes.h>

#include "allowlist-text.h"
#include "bzimage.h"
#include "cli.h"
#include "decompress.h"
#include "elf-reader.h"
#include "kernel-image.h"
#include "system-map.h"
#include "util.h"

#define START_SYMBOL "__module_hashes_start"
#define END_SYMBOL "__module_hashes_end"
#define DEFAULT_MAX_DECOMPRESSED ((size_t)1 << 30)

enum kernel_image_kind kernel_image_detect(const unsigned char *buf,
					   size_t len)
{
	if (len >= MODULE_HASHES_MAGIC_LEN &&
	    !memcmp(buf, MODULE_HASHES_MAGIC, MODULE_HASHES_MAGIC_LEN))
		return KERNEL_IMAGE_RAW_LIST;
	if (allowlist_text_looks_like(buf, len))
		return KERNEL_IMAGE_TEXT;
	if (elf_looks_like(buf, len))
		return KERNEL_IMAGE_ELF;
	if (bzimage_looks_like(buf, len))
		return KERNEL_IMAGE_BZIMAGE;
	if (compression_detect(buf, len) != COMP_NONE)
		return KERNEL_IMAGE_COMPRESSED;
	return KERNEL_IMAGE_UNKNOWN;
}

static int fail(struct kernel_image_error *err, const char *reason,
		size_t offset)
{
	err->reason = reason;
	err->offset = offset;
	return -1;
}

/* Validate LEN bytes at BUF as the list and keep a copy in AL. */
static int take_list(const unsigned char *buf, size_t len, size_t base,
		     struct allowlist *al, struct kernel_image_error *err)
{
	struct allowlist view;
	unsigned char *copy;
	const char *why;
	size_t offset;

	why = allowlist_parse(buf, len, &view, &offset);
	if (why)
		return fail(err, why, base + offset);
	copy = malloc(len ? len : 1);
	if (!copy)
		return fail(err, "out of memory", base);
	memcpy(copy, buf, len);
	allowlist_parse(copy, len, al, &offset);
	al->owned = copy;
	return 0;
}

/* The addresses of the list's symbols in the System.map. */
static int map_addresses(const struct kernel_image_options *opts,
			 uint64_t *start, uint64_t *end,
			 struct kernel_image_error *err)
{
	const char *why;
	size_t line;

	why = system_map_find(opts->map_text, opts->map_len, START_SYMBOL,
			      start, &line);
	if (!why)
		why = system_map_find(opts->map_text, opts->map_len,
				      END_SYMBOL, end, &line);
	if (why) {
		snprintf(err->context, sizeof(err->context), "its System.map");
		err->line = line;
		return fail(err, why, 0);
	}
	return 0;
}

/*
 * A System.map belongs to this vmlinux if its linux_banner is where the
 * vmlinux has "Linux version".
 */
static bool map_matches(const unsigned char *elf, size_t len,
			const struct kernel_image_options *opts)
{
	static const char banner[] = "Linux version ";
	struct elf_range range;
	uint64_t addr;
	size_t line, where;

	if (system_map_find(opts->map_text, opts->map_len, "linux_banner",
			    &addr, &line))
		return true;	/* nothing to compare with */
	return !elf_address_range(elf, len, addr, addr + sizeof(banner) - 1,
				  &range, &where) &&
	       !memcmp(elf + range.offset, banner, sizeof(banner) - 1);
}

static int read_elf(const unsigned char *buf, size_t len,
		    const struct kernel_image_options *opts,
		    struct allowlist *al, struct kernel_image_error *err)
{
	struct elf_range range;
	const char *why;
	uint64_t start, end;
	size_t where;

	if (elf_has_symbols(buf, len)) {
		why = elf_symbol_range(buf, len, START_SYMBOL, END_SYMBOL,
				       &range, &where);
	} else if (!opts || !opts->map_text) {
		return fail(err, "no symbol table, and no System.map to "
				 "find the list with (--system-map)", 0);
	} else {
		if (map_addresses(opts, &start, &end, err))
			return -1;
		if (!map_matches(buf, len, opts)) {
			snprintf(err->context, sizeof(err->context),
				 "its System.map");
			return fail(err, "belongs to another kernel "
					 "(linux_banner is elsewhere)", 0);
		}
		why = elf_address_range(buf, len, start, end, &range, &where);
	}
	if (why)
		return fail(err, why, where);
	return take_list(buf + range.offset, range.size, range.offset, al,
			 err);
}

/* Decompress IN and read the vmlinux ELF inside. */
static int read_compressed(const unsigned char *in, size_t in_len,
			   size_t base, const char *what,
			   const struct kernel_image_options *opts,
			   struct allowlist *al,
			   struct kernel_image_error *err)
{
	enum compression comp = compression_detect(in, in_len);
	size_t max = opts && opts->max_decompressed ?
		     opts->max_decompressed : DEFAULT_MAX_DECOMPRESSED;
	unsigned char *elf;
	size_t elf_len, consumed, offset;
	const char *why;
	int ret;

	if (comp == COMP_NONE) {
		snprintf(err->context, sizeof(err->context), "%s", what);
		return fail(err, "compressed with a format this tool does "
				 "not know (gzip, xz, zstd, lz4, bzip2, lzma)",
			    base);
	}
	why = decompress(comp, in, in_len, max, &elf, &elf_len, &consumed,
			 &offset);
	if (why) {
		snprintf(err->context, sizeof(err->context), "%s (%s)", what,
			 compression_name(comp));
		return fail(err, why, base + offset);
	}
	if (!elf_looks_like(elf, elf_len)) {
		ret = fail(err, "does not decompress to an ELF vmlinux", base);
		snprintf(err->context, sizeof(err->context), "%s (%s)", what,
			 compression_name(comp));
	} else {
		ret = read_elf(elf, elf_len, opts, al, err);
		if (ret && !err->context[0])
			snprintf(err->context, sizeof(err->context),
				 "the vmlinux decompressed from %s (%s), "
				 "at its offset", what, compression_name(comp));
	}
	free(elf);
	return ret;
}

static int read_bzimage(const unsigned char *buf, size_t len,
			const struct kernel_image_options *opts,
			struct allowlist *al, struct kernel_image_error *err)
{
	size_t offset, size, where;
	const char *why = bzimage_payload(buf, len, &offset, &size, &where);

	if (why) {
		snprintf(err->context, sizeof(err->context), "bzImage header");
		return fail(err, why, where);
	}
	return read_compressed(buf + offset, size, offset,
			       "the bzImage payload", opts, al, err);
}

int kernel_allowlist_from_buffer(const unsigned char *buf, size_t len,
				 const struct kernel_image_options *opts,
				 struct allowlist *al,
				 struct kernel_image_error *err)
{
	const char *why;
	size_t line, offset;

	memset(err, 0, sizeof(*err));
	memset(al, 0, sizeof(*al));
	switch (kernel_image_detect(buf, len)) {
	case KERNEL_IMAGE_RAW_LIST:
		return take_list(buf, len, 0, al, err);
	case KERNEL_IMAGE_TEXT:
		why = allowlist_text_parse(buf, len, al, &line, &offset);
		if (!why)
			return 0;
		err->line = line;
		return fail(err, why, offset);
	case KERNEL_IMAGE_ELF:
		return read_elf(buf, len, opts, al, err);
	case KERNEL_IMAGE_BZIMAGE:
		return read_bzimage(buf, len, opts, al, err);
	case KERNEL_IMAGE_COMPRESSED:
		return read_compressed(buf, len, 0, "the file", opts, al, err);
	default:
		return fail(err, "not a module allowlist, vmlinux, bzImage or "
				 "securityfs module_hashes file", 0);
	}
}

void kernel_image_report(const char *path,
			 const struct kernel_image_error *err)
{
	const char *sep = err->context[0] ? ": " : "";

	if (err->line)
		fail_at(path, "%s%sline %zu: %s", err->context, sep, err->line,
			err->reason);
	else
		fail_at(path, "%s%s%s (offset %zu)", err->context, sep,
			err->reason, err->offset);
}

/* The System.map next to PATH: DIR/System.map, or for vmlinuz-R, System.map-R. */
static char *sibling_map(const char *path)
{
	char *copy1 = strdup(path), *copy2 = strdup(path), *map = NULL;
	const char *dir, *base;
	size_t n;

	if (!copy1 || !copy2)
		goto out;
	dir = dirname(copy1);
	base = basename(copy2);
	n = strlen(dir) + strlen(base) + sizeof("/System.map-");
	map = malloc(n);
	if (!map)
		goto out;
	if (!strncmp(base, "vmlinuz-", 8) || !strncmp(base, "vmlinux-", 8)) {
		snprintf(map, n, "%s/System.map-%s", dir, base + 8);
		if (!access(map, R_OK))
			goto out;
	}
	snprintf(map, n, "%s/System.map", dir);
	if (access(map, R_OK)) {
		free(map);
		map = NULL;
	}
out:
	free(copy1);
	free(copy2);
	return map;
}

/* What -v calls each kind of kernel file. */
static const char *kind_name(enum kernel_image_kind kind)
{
	switch (kind) {
	case KERNEL_IMAGE_RAW_LIST: return "a raw list";
	case KERNEL_IMAGE_TEXT: return "the securityfs text";
	case KERNEL_IMAGE_ELF: return "a vmlinux";
	case KERNEL_IMAGE_BZIMAGE: return "a bzImage";
	case KERNEL_IMAGE_COMPRESSED: return "a compressed vmlinux";
	default: return "an unknown kind of file";
	}
}

int kernel_allowlist_load_map(const char *path, const char *system_map,
			      struct allowlist *al)
{
	struct kernel_image_options opts = { NULL, 0, 0 };
	struct kernel_image_error err;
	unsigned char *buf, *map = NULL;
	char *found = NULL;
	enum kernel_image_kind kind;
	size_t len;
	int ret;

	memset(al, 0, sizeof(*al));
	if (read_whole_file(path, &INPUT_KERNEL, &buf, &len))
		return -1;
	kind = kernel_image_detect(buf, len);
	if (!system_map && strcmp(path, "-") &&
	    (kind == KERNEL_IMAGE_BZIMAGE || kind == KERNEL_IMAGE_COMPRESSED ||
	     (kind == KERNEL_IMAGE_ELF && !elf_has_symbols(buf, len))))
		system_map = found = sibling_map(path);
	if (system_map) {
		if (read_whole_file(system_map, &INPUT_TEXT, &map,
				    &opts.map_len)) {
			free(buf);
			free(found);
			return -1;
		}
		opts.map_text = (const char *)map;
	}
	ret = kernel_allowlist_from_buffer(buf, len, &opts, al, &err);
	if (ret) {
		if (system_map && !strcmp(err.context, "its System.map"))
			snprintf(err.context, sizeof(err.context),
				 "its System.map %.60s", system_map);
		kernel_image_report(path, &err);
	} else {
		verbose("%s: %s, %u %s digests%s%s", path, kind_name(kind),
			al->count, hash_algo_name(al->algo),
			system_map ? ", symbols from " : "",
			system_map ? system_map : "");
	}
	free(map);
	free(found);
	free(buf);
	return ret;
}

int kernel_allowlist_load(const char *path, struct allowlist *al)
{
	return kernel_allowlist_load_map(path, NULL, al);
}
