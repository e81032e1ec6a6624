// SPDX-License-Identifier: GPL-2.0
/* elf-reader.c - symbols, sections and file offsets with libelf. */
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "elf-reader.h"

bool elf_looks_like(const unsigned char *buf, size_t len)
{
	return len >= SELFMAG && !memcmp(buf, ELFMAG, SELFMAG);
}

/* libelf reads BUF in place and does not write to it. */
static Elf *elf_open_memory(const unsigned char *buf, size_t len)
{
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE || !elf_looks_like(buf, len))
		return NULL;
	elf = elf_memory((char *)buf, len);
	if (elf && elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return NULL;
	}
	return elf;
}

static Elf_Scn *find_symtab(Elf *elf, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == SHT_SYMTAB)
			return scn;
	return NULL;
}

bool elf_has_symbols(const unsigned char *buf, size_t len)
{
	Elf *elf = elf_open_memory(buf, len);
	GElf_Shdr shdr;
	bool found;

	if (!elf)
		return false;
	found = find_symtab(elf, &shdr) != NULL;
	elf_end(elf);
	return found;
}

/* A symbol as a section index and an offset into that section. */
struct place {
	size_t shndx;
	uint64_t in_section;
};

static const char *find_symbol(Elf *elf, const char *name,
			       struct place *place, size_t *where)
{
	GElf_Shdr symtab_hdr, hdr;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab = find_symtab(elf, &symtab_hdr), *scn;
	Elf_Data *data;
	size_t i, n;

	if (!symtab)
		return "no symbol table";
	*where = symtab_hdr.sh_offset;
	data = elf_getdata(symtab, NULL);
	if (!data || !symtab_hdr.sh_entsize || !gelf_getehdr(elf, &ehdr))
		return "unreadable symbol table";
	n = symtab_hdr.sh_size / symtab_hdr.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *sym_name;

		if (!gelf_getsym(data, (int)i, &sym))
			return "unreadable symbol table";
		sym_name = elf_strptr(elf, symtab_hdr.sh_link, sym.st_name);
		if (!sym_name || strcmp(sym_name, name))
			continue;
		*where = symtab_hdr.sh_offset + i * symtab_hdr.sh_entsize;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			return "symbol not defined in a section";
		scn = elf_getscn(elf, sym.st_shndx);
		if (!scn || !gelf_getshdr(scn, &hdr))
			return "symbol in a section that does not exist";
		place->shndx = sym.st_shndx;
		/* Relocatable objects count from the section, others not. */
		if (ehdr.e_type == ET_REL)
			place->in_section = sym.st_value;
		else if (sym.st_value >= hdr.sh_addr)
			place->in_section = sym.st_value - hdr.sh_addr;
		else
			return "symbol before the start of its section";
		return NULL;
	}
	return "symbol not found";
}

/* Turn START..END of section SHNDX into file offsets within BUF. */
static const char *section_range(Elf *elf, size_t shndx, uint64_t start,
				 uint64_t end, size_t len,
				 struct elf_range *range, size_t *where)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr hdr;

	if (!scn || !gelf_getshdr(scn, &hdr))
		return "unreadable section header";
	*where = hdr.sh_offset;
	if (hdr.sh_type == SHT_NOBITS)
		return "the list's section has no contents in the file";
	if (start > end)
		return "end symbol before start symbol";
	if (end > hdr.sh_size)
		return "the list runs past the end of its section";
	if (hdr.sh_offset > len || hdr.sh_size > len - hdr.sh_offset)
		return "section runs past the end of the file";
	range->offset = hdr.sh_offset + start;
	range->size = end - start;
	*where = range->offset;
	return NULL;
}

const char *elf_symbol_range(const unsigned char *buf, size_t len,
			     const char *start, const char *end,
			     struct elf_range *range, size_t *where)
{
	Elf *elf = elf_open_memory(buf, len);
	struct place a, b;
	const char *why;

	*where = 0;
	if (!elf)
		return "not an ELF file";
	why = find_symbol(elf, start, &a, where);
	if (!why)
		why = find_symbol(elf, end, &b, where);
	if (!why && a.shndx != b.shndx)
		why = "start and end symbols in different sections";
	if (!why)
		why = section_range(elf, a.shndx, a.in_section, b.in_section,
				    len, range, where);
	elf_end(elf);
	return why;
}

const char *elf_address_range(const unsigned char *buf, size_t len,
			      uint64_t start, uint64_t end,
			      struct elf_range *range, size_t *where)
{
	Elf *elf = elf_open_memory(buf, len);
	Elf_Scn *scn = NULL;
	const char *why = "no section holds the list's addresses";

	*where = 0;
	if (!elf)
		return "not an ELF file";
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr hdr;

		if (!gelf_getshdr(scn, &hdr) || !(hdr.sh_flags & SHF_ALLOC) ||
		    start < hdr.sh_addr || start - hdr.sh_addr >= hdr.sh_size)
			continue;
		why = section_range(elf, elf_ndxscn(scn), start - hdr.sh_addr,
				    end - hdr.sh_addr, len, range, where);
		break;
	}
	elf_end(elf);
	return why;
}
