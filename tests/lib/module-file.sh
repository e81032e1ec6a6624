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
