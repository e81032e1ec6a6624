/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module-fs.h - which filesystems can hold a module file, for the IMA
 * conditions fsmagic= and fsname= (policy-lint.c).
 *
 * finit_module() reads its module with kernel_read_file(), which takes a
 * regular file of a size above zero only (fs/kernel_read_file.c).  A
 * filesystem "can hold a module" when a process can put bytes of its
 * choosing into such a file there: any disk, network, FUSE or memory
 * filesystem, including tmpfs (/tmp, /dev/shm, devtmpfs and every
 * memfd_create() file), hugetlbfs (MFD_HUGETLB memfds) and ramfs (the
 * initramfs).  The others only have files whose contents the kernel makes,
 * files of size 0, or no regular files at all.
 */
#ifndef MODHASH_MODULE_FS_H
#define MODHASH_MODULE_FS_H

#include <stdbool.h>

struct module_fs {
	unsigned long long magic;	/* s_magic, <linux/magic.h> */
	const char *name;		/* file_system_type.name */
	bool holds_modules;
	const char *why;		/* a few words on why not, or how */
};

/* The filesystem of s_magic MAGIC, or NULL if modhash does not know it. */
const struct module_fs *module_fs_by_magic(unsigned long long magic);

/* The filesystem type NAME (fsname=), or NULL if unknown. */
const struct module_fs *module_fs_by_name(const char *name);

#endif
