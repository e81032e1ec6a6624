/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel-fixture.h - a tiny "vmlinux" made with cc and ld at test time:
 * a list of three digests between __module_hashes_start and _end in
 * .rodata, linux_banner in .data, its System.map (nm), a copy without
 * symbols (strip -s, as a bzImage carries it) and bzImages made around
 * that copy compressed with each of kbuild's compressors.
 */
#ifndef MODHASH_TEST_KERNEL_FIXTURE_H
#define MODHASH_TEST_KERNEL_FIXTURE_H

#include <linux/hash_info.h>

#include "fixtures.h"
#include "format.h"

static struct allowlist fixture_list;

/* Make list.bin, vmlinux, System.map, vmlinux.stripped. 0 or -1. */
static inline int kernel_fixture_make(void)
{
	unsigned char digests[3][32];
	int i;

	for (i = 0; i < 3; i++)
		memset(digests[i], 0x30 * (3 - i), 32);
	if (allowlist_build(HASH_ALGO_SHA256, &digests[0][0], 3, &fixture_list) ||
	    fixture_write("list.bin", fixture_list.blob, fixture_list.blob_len))
		return -1;
	return fixture_sh(
		"printf '%%s\\n' '.section .rodata, \"a\"' '.quad 42' '.balign 8' "
		"'.globl __module_hashes_start' '__module_hashes_start:' "
		"'.incbin \"list.bin\"' '.globl __module_hashes_end' "
		"'__module_hashes_end:' '.byte 7' '.data' '.globl linux_banner' "
		"'linux_banner: .ascii \"Linux version 6.12.0-test\"' > k.S && "
		"cc -c -o k.o k.S && ld -e 0 -o vmlinux k.o && "
		"nm vmlinux > System.map && strip -s -o vmlinux.stripped vmlinux");
}

/* A bzImage header of SECTS setup sectors around PAYLOAD (PLEN bytes). */
static inline unsigned char *bzimage_wrap(const unsigned char *payload,
					  size_t plen, unsigned int sects,
					  size_t *len)
{
	size_t start = (sects + 1) * 512;
	unsigned char *buf = calloc(1, start + plen);

	if (!buf)
		return NULL;
	buf[0x1f1] = (unsigned char)sects;
	buf[0x1fe] = 0x55;
	buf[0x1ff] = 0xaa;
	memcpy(buf + 0x202, "HdrS", 4);
	buf[0x206] = 0x0f;	/* protocol 2.15 */
	buf[0x207] = 0x02;
	buf[0x211] = 0x01;	/* LOADED_HIGH */
	buf[0x248] = 0;		/* payload right after the setup code */
	buf[0x24c] = (unsigned char)plen;
	buf[0x24d] = (unsigned char)(plen >> 8);
	buf[0x24e] = (unsigned char)(plen >> 16);
	buf[0x24f] = (unsigned char)(plen >> 24);
	memcpy(buf + start, payload, plen);
	*len = start + plen;
	return buf;
}

#endif
