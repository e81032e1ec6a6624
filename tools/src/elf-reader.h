/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf-reader.h - the bytes between two addresses of a vmlinux (or any
 * ELF file), found through its symbol table or through addresses from
 * elsewhere (a System.map), via libelf.
 */
#ifndef MODHASH_ELF_READER_H
#define MODHASH_ELF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the bytes are in the file. */
struct elf_range {
	size_t offset;
	size_t size;
};

/* Does BUF start like an ELF file? */
bool elf_looks_like(const unsigned char *buf, size_t len);

/* Has the ELF file in BUF a symbol table (vmlinux has; a bzImage's has not)? */
bool elf_has_symbols(const unsigned char *buf, size_t len);

/*
 * The bytes from symbol START to symbol END, both defined in the same
 * section that has contents in the file.  Returns NULL, or why not with
 * *WHERE the offset in BUF of what is wrong (0 if nothing better).
 */
const char *elf_symbol_range(const unsigned char *buf, size_t len,
			     const char *start, const char *end,
			     struct elf_range *range, size_t *where);

/* The same for the virtual addresses START..END of one section. */
const char *elf_address_range(const unsigned char *buf, size_t len,
			      uint64_t start, uint64_t end,
			      struct elf_range *range, size_t *where);

#endif
