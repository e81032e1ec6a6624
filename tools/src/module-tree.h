/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module-tree.h - the module files to look at: named on the command line,
 * found below a directory, or listed by an installed /lib/modules/<release>
 * tree's modules.order (kmod's; modules.dep when there is no order, and
 * for what depmod found besides it, such as updates/ or extra/).
 */
#ifndef MODHASH_MODULE_TREE_H
#define MODHASH_MODULE_TREE_H

#include <stdbool.h>
#include <stddef.h>

struct module_entry {
	char *path;	/* the file on this system, or where it should be */
	char *name;	/* relative to the tree or directory, or as given */
	bool missing;	/* named by modules.order/dep but not there */
};

struct module_list {
	struct module_entry *v;
	size_t n, cap;
};

/* Is DIR an installed tree (modules.order or modules.dep)? */
bool module_tree_is_installed(const char *dir);

/*
 * Add what ARG names: a module file, or the modules of a directory (an
 * installed tree through its modules.order/dep, any other directory by
 * walking it for *.ko, *.ko.xz, *.ko.zst, *.ko.gz).  0, or -1 after
 * fail_at().
 */
int module_list_add(struct module_list *list, const char *arg);

void module_list_free(struct module_list *list);

/* Does NAME end like a module file (.ko, .ko.xz, .ko.zst, .ko.gz)? */
bool module_name_is_module(const char *name);

/* The length of NAME without a compression suffix (.xz, .zst, .gz). */
size_t module_name_base_len(const char *name);

/*
 * Parse the module names of a modules.order (DEP false) or modules.dep
 * (DEP true) text, calling ADD for each.  Returns 0, or the 1-based line
 * that is not understood.
 */
size_t module_tree_parse_index(const char *text, size_t len, bool dep,
			       int (*add)(void *ctx, const char *name),
			       void *ctx);

#endif
