/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel-image.h - find a kernel's module allowlist in whatever form the
 * user has: the raw list, a vmlinux, a bzImage, or the running kernel's
 * securityfs file.
 */
#ifndef MODHASH_KERNEL_IMAGE_H
#define MODHASH_KERNEL_IMAGE_H

#include <stddef.h>

#include "format.h"

/*
 * Load and validate the allowlist of the kernel in PATH.  On success AL
 * owns its memory (allowlist_free).  Returns 0, or -1 after fail_at()
 * naming PATH, the reason and the offset.  A bzImage (whose vmlinux has
 * no symbol table) is read with the System.map found next to it.
 */
int kernel_allowlist_load(const char *path, struct allowlist *al);

/* The same with an explicit System.map (NULL: look next to PATH). */
int kernel_allowlist_load_map(const char *path, const char *system_map,
			      struct allowlist *al);

/* What the memory-based reader may use besides the image. */
struct kernel_image_options {
	const char *map_text;	/* a System.map, or NULL */
	size_t map_len;
	size_t max_decompressed; /* bytes; 0 for the default (1 GiB) */
};

/* Why an image was not read, and where. */
struct kernel_image_error {
	const char *reason;
	char context[96];	/* what was being read, "" for the file */
	size_t offset;		/* in the file, or in what CONTEXT names */
	size_t line;		/* text forms: 1-based line, else 0 */
};

/* Forms of kernel file the reader knows. */
enum kernel_image_kind {
	KERNEL_IMAGE_UNKNOWN,
	KERNEL_IMAGE_RAW_LIST,
	KERNEL_IMAGE_TEXT,
	KERNEL_IMAGE_ELF,
	KERNEL_IMAGE_BZIMAGE,
	KERNEL_IMAGE_COMPRESSED,	/* a compressed vmlinux */
};

enum kernel_image_kind kernel_image_detect(const unsigned char *buf,
					   size_t len);

/*
 * The allowlist in the kernel file held in BUF; AL gets its own copy of
 * the list.  Returns 0, or -1 with ERR filled in (nothing printed).
 */
int kernel_allowlist_from_buffer(const unsigned char *buf, size_t len,
				 const struct kernel_image_options *opts,
				 struct allowlist *al,
				 struct kernel_image_error *err);

/* Print ERR as "modhash CMD: PATH: [CONTEXT: ]REASON (offset N)". */
void kernel_image_report(const char *path,
			 const struct kernel_image_error *err);

#endif
