/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decompress.h - the compressed forms a kernel or a module comes in,
 * recognised by their magic and inflated with the system's libraries.
 */
#ifndef MODHASH_DECOMPRESS_H
#define MODHASH_DECOMPRESS_H

#include <stddef.h>

enum compression {
	COMP_NONE,
	COMP_GZIP,
	COMP_XZ,
	COMP_ZSTD,
	COMP_LZ4_LEGACY,	/* lz4 -l, as kbuild compresses a kernel */
	COMP_BZIP2,
	COMP_LZMA,		/* the lzma "alone" format */
};

/* Which format BUF starts with (COMP_NONE if none of them). */
enum compression compression_detect(const unsigned char *buf, size_t len);

/* "gzip", "xz", ... or "none". */
const char *compression_name(enum compression comp);

/*
 * Decompress the one stream at the start of IN (format COMP) into a
 * malloc'ed *OUT of *OUT_LEN bytes, at most MAX_OUT.  *CONSUMED is how
 * many bytes of IN the stream took: what follows it is the caller's
 * business (kbuild appends the size of a kernel; the module loader
 * refuses anything).  Returns NULL, or why not with *OFFSET the byte of
 * IN where it went wrong, as near as the library tells.
 */
const char *decompress(enum compression comp, const unsigned char *in,
		       size_t in_len, size_t max_out, unsigned char **out,
		       size_t *out_len, size_t *consumed, size_t *offset);

#endif
