// SPDX-License-Identifier: GPL-2.0
/*
 * bzimage.c - the setup header of an x86 bzImage.  Offsets are those of
 * the boot protocol; payload_offset and payload_length exist from
 * protocol 2.08 on and count from the protected-mode code, which starts
 * after the boot sector and setup_sects sectors of setup code.
 */
#include <stdint.h>

#include "bzimage.h"

#define SETUP_SECTS	0x1f1	/* u8; 0 means 4 */
#define BOOT_FLAG	0x1fe	/* u16, 0xaa55 */
#define HEADER_MAGIC	0x202	/* "HdrS" */
#define PROTOCOL	0x206	/* u16 */
#define LOADFLAGS	0x211	/* u8 */
#define PAYLOAD_OFFSET	0x248	/* u32 */
#define PAYLOAD_LENGTH	0x24c	/* u32 */
#define HEADER_END	0x250

#define LOADED_HIGH	0x01	/* loadflags: a bzImage, not a zImage */

static uint32_t le(const unsigned char *p, int bytes)
{
	uint32_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

bool bzimage_looks_like(const unsigned char *buf, size_t len)
{
	return len >= HEADER_END && le(buf + BOOT_FLAG, 2) == 0xaa55 &&
	       le(buf + HEADER_MAGIC, 4) == 0x53726448;
}

const char *bzimage_payload(const unsigned char *buf, size_t len,
			    size_t *offset, size_t *size, size_t *where)
{
	unsigned int sects;
	size_t start;

	*where = 0;
	if (len < HEADER_END)
		return "too short for an x86 setup header";
	*where = HEADER_MAGIC;
	if (!bzimage_looks_like(buf, len))
		return "no x86 setup header (HdrS)";
	*where = PROTOCOL;
	if (le(buf + PROTOCOL, 2) < 0x208)
		return "boot protocol older than 2.08: no payload fields";
	*where = LOADFLAGS;
	if (!(buf[LOADFLAGS] & LOADED_HIGH))
		return "a zImage, not a bzImage";
	sects = buf[SETUP_SECTS] ? buf[SETUP_SECTS] : 4;
	start = (size_t)(sects + 1) * 512;
	*where = SETUP_SECTS;
	if (start > len)
		return "setup code runs past the end of the file";
	*where = PAYLOAD_OFFSET;
	*offset = start + le(buf + PAYLOAD_OFFSET, 4);
	*size = le(buf + PAYLOAD_LENGTH, 4);
	if (*offset > len)
		return "payload_offset past the end of the file";
	*where = PAYLOAD_LENGTH;
	if (*size > len - *offset)
		return "payload_length past the end of the file";
	if (*size == 0)
		return "empty payload";
	return NULL;
}
