/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module-file.h - a kernel module file as the loader sees it: decompressed
 * the way finit_module(MODULE_INIT_COMPRESSED_FILE) does (gzip, xz, zstd),
 * with or without an appended signature, and hashed the ways that matter
 * for the allowlist.
 */
#ifndef MODHASH_MODULE_FILE_H
#define MODHASH_MODULE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "decompress.h"
#include "format.h"

/* Largest module image accepted (the kernel's limit is far lower). */
#define MODULE_MAX_IMAGE ((size_t)1 << 30)

struct module_file {
	unsigned char *file;	/* the file's bytes */
	size_t file_len;
	enum compression comp;	/* how the file is compressed */
	unsigned char *image;	/* what the loader gets (== file if plain) */
	size_t image_len;
	const char *problem;	/* why the loader refuses it, or NULL */
	bool is_signed;		/* ends in a module signature */
	bool bad_signature;	/* ...whose information block is malformed */
	size_t content_len;	/* image bytes before the signature */
};

/*
 * Fill M from the LEN bytes of FILE, which M takes over, decompressed to
 * at most MAX_IMAGE bytes (MODULE_MAX_IMAGE but in a fuzzer).  A file the
 * loader would refuse (bad compression, bytes after the stream) is not
 * an error: M->problem says why and M->image is the file as is.
 */
void module_file_from_buffer(unsigned char *file, size_t len,
			     size_t max_image, struct module_file *m);

/* Read PATH into M. 0, or -1 after fail_at(). */
int module_file_read(const char *path, struct module_file *m);

void module_file_free(struct module_file *m);

/*
 * Find the module signature at the end of IMAGE: the marker
 * "~Module signature appended~\n" after the kernel's information block
 * (struct module_signature).  Returns true if there is a marker, with
 * *CONTENT_LEN the bytes before the signature and *MALFORMED set when the
 * block cannot be right (the loader then refuses the module).
 */
bool module_signature_find(const unsigned char *image, size_t len,
			   size_t *content_len, bool *malformed);

/*
 * The digest, with AL's algorithm, of LEN bytes of module CONTENT after
 * "STRIP --strip-debug -o TMP" (as the kernel's generator and
 * INSTALL_MOD_STRIP=1 do).  0; 1 if strip refuses the file (not an
 * ELF file it can read); -1 after fail_at() naming NAME.
 */
int module_stripped_digest(const struct allowlist *al,
			   const unsigned char *content, size_t len,
			   const char *strip, const char *name,
			   unsigned char *out);

/* The strip program: $STRIP or "strip". */
const char *module_strip_program(void);

#endif
