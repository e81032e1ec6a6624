#!/bin/bash
# Usage: compare-builds.sh OUT_A OUT_B
# Compare two published kernels (kernel/build/build-kernel.sh) byte for
# byte: bzImage, vmlinux, System.map and every file of both module
# installs (modules/, plain, and modules-stripped/, INSTALL_MOD_STRIP=1).
# Prints a report: one line per differing file with the first differing
# offset and, for ELF files (compressed modules are looked into), the
# section that holds it; then "compared N files, N identical, N differ".
# Exits 0 when everything is identical, 1 when something differs, 2 when
# the two builds do not have the same files.
set -uo pipefail
. "$(dirname "$0")/../lib/elf.sh"
. "$(dirname "$0")/../lib/module-file.sh"
a=$1
b=$2

files() {	# the compared files of a build, relative, sorted
	(cd "$1" && { ls bzImage vmlinux System.map; find modules modules-stripped -type f; } | LC_ALL=C sort)
}

first_difference() {	# first_difference FILE_A FILE_B: "offset N (section S)"
	local at
	at=$(cmp "$1" "$2" 2>/dev/null | sed -n 's/.* byte \([0-9]*\).*/\1/p')
	if [[ -z $at ]]; then	# one is a prefix of the other
		echo "sizes $(stat -c %s "$1") and $(stat -c %s "$2")"
		return
	fi
	at=$((at - 1))
	local where
	where=$(elf_section_at "$1" "$at")
	if [[ -z $where ]] && readelf -h "$1" > /dev/null 2>&1; then
		where="none: ELF headers or data appended after the sections"
	fi
	printf 'offset 0x%x%s' "$at" "${where:+ (section $where)}"
}

for out in "$a" "$b"; do
	for f in bzImage vmlinux System.map modules modules-stripped; do
		[[ -e $out/$f ]] || { echo "compare-builds.sh: $out/$f: missing" >&2; exit 2; }
	done
done

if ! diff <(files "$a") <(files "$b") > /dev/null; then
	echo "the two builds install different files:"
	diff <(files "$a") <(files "$b") | sed -n 's/^\([<>]\)/  \1/p'
	exit 2
fi

total=0
differ=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while read -r f; do
	total=$((total + 1))
	cmp -s "$a/$f" "$b/$f" && continue
	differ=$((differ + 1))
	case $f in
	*.ko.xz | *.ko.zst | *.ko.gz)
		module_bytes "$a/$f" > "$tmp/a.ko"
		module_bytes "$b/$f" > "$tmp/b.ko"
		if cmp -s "$tmp/a.ko" "$tmp/b.ko"; then
			echo "differs: $f: $(first_difference "$a/$f" "$b/$f"); the decompressed modules are identical"
		else
			echo "differs: $f: decompressed, $(first_difference "$tmp/a.ko" "$tmp/b.ko")"
		fi
		;;
	*)
		echo "differs: $f: $(first_difference "$a/$f" "$b/$f")"
		;;
	esac
done < <(files "$a")
echo "compared $total files, $((total - differ)) identical, $differ differ"
[[ $differ -eq 0 ]]
