/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel-image.h - find a kernel's module allowlist in whatever form the
 * user has: the raw list, a vmlinux, a bzImage, or the running kernel's
 * securityfs file.
 */
#ifndef MODHASH_KERNEL_IMAGE_H
#define MODHASH_KERNEL_IMAGE_H

#include "format.h"

/*
 * Load and validate the allowlist of the kernel in PATH.  On success AL
 * owns its memory (allowlist_free).  Returns 0, or -1 after fail_at()
 * naming PATH, the reason and the offset.
 */
int kernel_allowlist_load(const char *path, struct allowlist *al);

#endif
