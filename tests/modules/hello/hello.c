// SPDX-License-Identifier: GPL-2.0
/*
 * A module built outside the kernel tree, as DKMS would build one.  It
 * does nothing but announce itself, so that a test can tell it loaded.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init hello_init(void)
{
	pr_info("hello: loaded\n");
	return 0;
}

static void __exit hello_exit(void)
{
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_DESCRIPTION("Out-of-tree test module");
MODULE_LICENSE("GPL");
