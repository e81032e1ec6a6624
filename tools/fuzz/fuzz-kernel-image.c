// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-kernel-image.c - libFuzzer target for the kernel file readers:
 * raw list, securityfs text, vmlinux ELF (symbols or System.map),
 * bzImage and compressed payloads.  The input is read once without and
 * once with a small System.map, so both ways to a stripped ELF run.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel-image.h"

static const char map[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81600000 D __module_hashes_start\n"
	"ffffffff81600034 D __module_hashes_end\n"
	"ffffffff81600100 D linux_banner\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_image_options opts = { NULL, 0, 64u << 20 };
	struct kernel_image_error err;
	struct allowlist al;

	if (!kernel_allowlist_from_buffer(data, size, &opts, &al, &err))
		allowlist_free(&al);
	opts.map_text = map;
	opts.map_len = strlen(map);
	if (!kernel_allowlist_from_buffer(data, size, &opts, &al, &err))
		allowlist_free(&al);
	return 0;
}
