/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-order.h - the modules of a kernel build directory as kbuild
 * leaves them: modules.order names each module by its object, one
 * "dir/x.o" a line relative to the build directory (or "M/x.o" for an
 * external module built with make M=M), for the files
 * dir/x.ko (as built) and, with CONFIG_MODULE_HASHES, dir/x.ko.stripped
 * (after strip --strip-debug); the directory's .config says which of
 * those forms the kernel's list holds and with which digest.
 */
#ifndef MODHASH_KBUILD_ORDER_H
#define MODHASH_KBUILD_ORDER_H

#include <stdbool.h>
#include <stddef.h>

struct kbuild_module {
	char *stem;		/* "BUILD/dir/x", for x.ko and x.ko.stripped */
	size_t line;		/* of modules.order, 1-based */
};

struct kbuild_order {
	struct kbuild_module *v;
	size_t n;
};

/*
 * Parse a modules.order text: blank lines are skipped, blanks at a
 * line's end dropped, every other line must be a path ending in ".o"
 * without blanks.  ADD gets each path without its ".o" (STEM_LEN bytes,
 * not NUL-terminated) and its line.
 * Returns 0, or the 1-based line that is not such a path, or that ADD
 * refused.
 */
size_t kbuild_order_parse(const char *text, size_t len,
			  int (*add)(void *ctx, const char *stem,
				     size_t stem_len, size_t line),
			  void *ctx);

/* Does the first line of a modules.order text name an object ("x.o")? */
bool kbuild_order_names_objects(const char *text, size_t len);

/*
 * The modules of the modules.order text read from PATH (for messages),
 * its relative paths relative to BUILD_DIR; an absolute path (an external
 * module's build, make M=/abs/dir) is taken as it is.  0, or -1 after
 * fail_at() naming PATH.
 */
int kbuild_order_from_text(const char *text, size_t len, const char *path,
			   const char *build_dir, struct kbuild_order *order);

void kbuild_order_free(struct kbuild_order *order);

/*
 * The value of the string option NAME (CONFIG_...) in the .config at
 * PATH, without its quotes, into OUT of SIZE bytes.  1 found, 0 not set
 * or no such file, -1 after fail_at() (unreadable, malformed).
 */
int kbuild_config_string(const char *path, const char *name, char *out,
			 size_t size);

#endif
