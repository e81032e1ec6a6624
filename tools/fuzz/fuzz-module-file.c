// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-module-file.c - libFuzzer target: a module file as check and
 * export read it, through the loader's decompressors (gzip, xz, zstd),
 * the appended signature and the ELF check.  The decompressed image is
 * capped lower than a real file's, so that a small input that inflates
 * a lot stays cheap.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "module-file.h"

#define FUZZ_MAX_IMAGE ((size_t)16 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *file = malloc(size ? size : 1);
	struct module_file m;

	if (!file)
		return 0;
	memcpy(file, data, size);
	module_file_from_buffer(file, size, FUZZ_MAX_IMAGE, &m);
	/* The image is the file or what it inflated to, within the cap;
	 * the signed content is a prefix of it. */
	if (m.file != file || m.file_len != size ||
	    (m.image != m.file && m.image_len > FUZZ_MAX_IMAGE) ||
	    m.content_len > m.image_len ||
	    (!m.is_signed && m.content_len != m.image_len))
		__builtin_trap();
	module_file_free(&m);
	return 0;
}
