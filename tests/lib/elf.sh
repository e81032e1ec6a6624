# ELF helpers for the host-side test scripts (bash), sourced by each.
# elf_sections FILE: one line per section with file contents:
#   NAME TYPE ADDRESS OFFSET SIZE   (numbers in decimal)
# (readelf prints hexadecimal, and Debian's awk has no strtonum.)
elf_sections() {
	local name type addr off size rest
	readelf -S -W "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		while read -r name type addr off size rest; do
			[[ $type =~ ^[A-Z][A-Z0-9_]*$ && $addr =~ ^[0-9a-f]+$ ]] || continue
			[[ $type == NOBITS ]] && continue
			echo "$name $type $((16#$addr)) $((16#$off)) $((16#$size))"
		done
}

# elf_section_at FILE OFFSET: the section holding file offset OFFSET
elf_section_at() {
	elf_sections "$1" | awk -v off="$2" '
		off >= $4 && off < $4 + $5 { print $1; exit }'
}

# elf_section_of_symbol FILE SYMBOL: the section holding SYMBOL's address
elf_section_of_symbol() {
	local addr
	addr=$(nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
	[[ -n $addr ]] || return 0
	elf_sections "$1" | awk -v a="$((16#$addr))" '
		$3 != 0 && a >= $3 && a < $3 + $5 { print $1; exit }'
}
