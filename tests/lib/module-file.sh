# Module files as installed, for the host-side scripts (bash), sourced.
# module_bytes FILE: the ELF bytes of the module FILE, decompressed
# according to its name (.ko, .ko.xz, .ko.zst, .ko.gz: the compressions
# kbuild's modules_install and the kernel's decompressor know).
module_bytes() {
	case $1 in
	*.ko) cat "$1" ;;
	*.ko.xz) xz -dc "$1" ;;
	*.ko.zst) zstd -qdc "$1" ;;
	*.ko.gz) gzip -dc "$1" ;;
	*) echo "module_bytes: $1: not a module file name" >&2; return 1 ;;
	esac
}

# invert_byte FILE OFFSET: replace the byte at OFFSET of FILE (in place,
# same size) by its complement, so that it certainly differs.
invert_byte() {
	local byte
	byte=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	[[ -n $byte ]] || { echo "invert_byte: $1 has no byte at offset $2" >&2; return 1; }
	printf "$(printf '\\%03o' $((255 - byte)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# flip_comment IN OUT: OUT is the uncompressed module IN with one byte in
# the middle of .comment inverted: covered by a signature, but read by
# nothing in the kernel, so only an integrity check can notice.  Needs
# tests/lib/elf.sh.
flip_comment() {
	local comment_offset comment_size
	cp "$1" "$2"
	read -r comment_offset comment_size < <(elf_sections "$1" | awk '$1 == ".comment" { print $4, $5 }') ||
		{ echo "flip_comment: ${1##*/} has no .comment section" >&2; return 1; }
	invert_byte "$2" $((comment_offset + comment_size / 2))
	cmp -s "$1" "$2" && { echo "flip_comment: byte flip in ${2##*/} failed" >&2; return 1; }
	return 0
}
