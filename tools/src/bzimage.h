/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bzimage.h - the compressed kernel inside an x86 bzImage, found through
 * the boot protocol's setup header (Documentation/arch/x86/boot.rst).
 */
#ifndef MODHASH_BZIMAGE_H
#define MODHASH_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* Does BUF carry an x86 setup header ("HdrS" and the boot flag)? */
bool bzimage_looks_like(const unsigned char *buf, size_t len);

/*
 * Where the payload (the compressed vmlinux, followed by kbuild's 4-byte
 * size) is in the bzImage BUF.  Returns NULL, or why not with *WHERE the
 * offset of the header field at fault.
 */
const char *bzimage_payload(const unsigned char *buf, size_t len,
			    size_t *offset, size_t *size, size_t *where);

#endif
