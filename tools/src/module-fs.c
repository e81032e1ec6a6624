// SPDX-License-Identifier: GPL-2.0
/*
 * module-fs.c - filesystems that can or cannot hold a module file
 * (module-fs.h).  Magic numbers are those of <linux/magic.h> and, where
 * it has none, of the filesystem's source (configfs, fusectl, mqueue,
 * ubifs); names are the file_system_type names of Linux 6.12.  The first
 * row of a magic names it in messages.
 */
#include <stddef.h>
#include <string.h>

#include "module-fs.h"

#define HOLDS(m, n) { m, n, true, NULL }
#define KERNEL_MADE(m, n, w) { m, n, false, w }

static const struct module_fs filesystems[] = {
	/* Memory filesystems: writable, so they hold whatever is written. */
	HOLDS(0x01021994, "tmpfs"),	/* also devtmpfs, memfd_create() */
	HOLDS(0x01021994, "devtmpfs"),
	HOLDS(0x858458f6, "ramfs"),
	HOLDS(0x858458f6, "rootfs"),	/* the initramfs (ramfs or tmpfs) */
	HOLDS(0x958458f6, "hugetlbfs"),	/* also memfd_create(MFD_HUGETLB) */
	HOLDS(0x794c7630, "overlay"),
	/*
	 * pstore files are records of the previous boot; a pmsg record is
	 * whatever was written to /dev/pmsg0, byte for byte.
	 */
	HOLDS(0x6165676c, "pstore"),
	/* Disk, flash, image, network and FUSE filesystems. */
	HOLDS(0xef53, "ext4"),
	HOLDS(0xef53, "ext3"),
	HOLDS(0xef53, "ext2"),
	HOLDS(0x58465342, "xfs"),
	HOLDS(0x9123683e, "btrfs"),
	HOLDS(0xf2f52010, "f2fs"),
	HOLDS(0xca451a4e, "bcachefs"),
	HOLDS(0x73717368, "squashfs"),
	HOLDS(0xe0f5e1e2, "erofs"),
	HOLDS(0x28cd3d45, "cramfs"),
	HOLDS(0x9660, "iso9660"),
	HOLDS(0x15013346, "udf"),
	HOLDS(0x4d44, "vfat"),		/* also msdos: an EFI system partition */
	HOLDS(0x4d44, "msdos"),
	HOLDS(0x2011bab0, "exfat"),
	HOLDS(0x3434, "nilfs2"),
	HOLDS(0x72b6, "jffs2"),
	HOLDS(0x24051905, "ubifs"),
	HOLDS(0x5a4f4653, "zonefs"),
	HOLDS(0x6969, "nfs"),
	HOLDS(0x6969, "nfs4"),
	HOLDS(0xff534d42, "cifs"),
	HOLDS(0xfe534d42, "smb3"),
	HOLDS(0x00c36400, "ceph"),
	HOLDS(0x01021997, "9p"),
	HOLDS(0x65735546, "fuse"),	/* also fuseblk, virtiofs */
	HOLDS(0x65735546, "fuseblk"),
	HOLDS(0x65735546, "virtiofs"),
	/* Files the kernel makes, of size 0, or no regular files at all. */
	KERNEL_MADE(0x9fa0, "proc", "its files are made by the kernel"),
	KERNEL_MADE(0x62656572, "sysfs", "its files are made by the kernel"),
	KERNEL_MADE(0x64626720, "debugfs", "its files are made by the kernel"),
	KERNEL_MADE(0x73636673, "securityfs", "its files are made by the kernel"),
	KERNEL_MADE(0x74726163, "tracefs", "its files are made by the kernel"),
	KERNEL_MADE(0x27e0eb, "cgroup", "its files are made by the kernel"),
	KERNEL_MADE(0x27e0eb, "cpuset", "its files are made by the kernel"),
	KERNEL_MADE(0x63677270, "cgroup2", "its files are made by the kernel"),
	KERNEL_MADE(0x7655821, "resctrl", "its files are made by the kernel"),
	KERNEL_MADE(0x62656570, "configfs", "its files are made by the kernel or of size 0"),
	KERNEL_MADE(0xcafe4a11, "bpf", "its files are of size 0"),
	KERNEL_MADE(0x42494e4d, "binfmt_misc", "its files are made by the kernel"),
	KERNEL_MADE(0xf97cff8c, "selinuxfs", "its files are made by the kernel"),
	KERNEL_MADE(0x43415d53, "smackfs", "its files are made by the kernel"),
	KERNEL_MADE(0x5a3c69f0, "apparmorfs", "its files are made by the kernel"),
	/*
	 * An EFI variable's file starts with its 4 attribute bytes, which
	 * efivarfs refuses outside EFI_VARIABLE_MASK (0x7f): "\x7fELF" and
	 * the magic of every compressed form have higher bits set.
	 */
	KERNEL_MADE(0xde5e81e4, "efivarfs", "a file there cannot start as a module does"),
	KERNEL_MADE(0x19800202, "mqueue", "its files are made by the kernel"),
	KERNEL_MADE(0x65735543, "fusectl", "its files are made by the kernel"),
	KERNEL_MADE(0x1cd1, "devpts", "it has no regular files"),
	KERNEL_MADE(0x6c6f6f70, "binder", "its files are devices and kernel logs"),
	KERNEL_MADE(0x0187, "autofs", "it has no regular files"),
	KERNEL_MADE(0x6e736673, "nsfs", "it has no regular files"),
	KERNEL_MADE(0x50495045, "pipefs", "it has no regular files"),
	KERNEL_MADE(0x534f434b, "sockfs", "it has no regular files"),
	KERNEL_MADE(0x09041934, "anon_inodefs", "it has no regular files"),
	KERNEL_MADE(0x5345434d, "secretmem", "its files cannot be read"),
	KERNEL_MADE(0x444d4142, "dmabuf", "it has no regular files"),
	KERNEL_MADE(0x50494446, "pidfs", "it has no regular files"),
	KERNEL_MADE(0x62646576, "bdev", "it has no regular files"),
};

#define N_FILESYSTEMS (sizeof(filesystems) / sizeof(filesystems[0]))

const struct module_fs *module_fs_by_magic(unsigned long long magic)
{
	size_t i;

	for (i = 0; i < N_FILESYSTEMS; i++)
		if (filesystems[i].magic == magic)
			return &filesystems[i];
	return NULL;
}

const struct module_fs *module_fs_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < N_FILESYSTEMS; i++)
		if (!strcmp(filesystems[i].name, name))
			return &filesystems[i];
	return NULL;
}
