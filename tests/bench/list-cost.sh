#!/bin/bash
# Usage: list-cost.sh BUILD_DIR VARIANT [NAME=MODULES_ORDER...]
# What the built-in allowlist costs a kernel, measured in the build
# directory of VARIANT (BUILD_DIR/src/patched/obj-VARIANT), as a markdown
# table with one row per module set: no module at all (the reference),
# the build's own modules, and each NAME=MODULES_ORDER given (say
# Debian's 4230 modules, tests/bench/debian-modules.sh).  For each set:
#  - the allowlist step: the command kbuild ran for .module-hashes.bin
#    (its .cmd file), run over that set and timed, and the same with
#    "-f built" (one digest per module: no x.ko.stripped to hash);
#  - the kernel relinked around that list by kbuild itself (make bzImage
#    after the list changed: the same relink every build does after the
#    step), timed; the sizes of vmlinux and bzImage, of which nothing but
#    the list differs from the reference row; and the growth of .rodata,
#    which holds the list: what it takes in the running kernel's memory
#    (vmlinux, a file laid out like that memory, may have room for the
#    list in the alignment padding after .rodata and not grow).
# The build directory is put back afterwards: the build's list restored,
# the kernel relinked, and vmlinux and bzImage must then be byte for byte
# the published ones (BUILD_DIR/out/VARIANT), or the script fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
variant=$2
shift 2
tree=$build/src/patched
obj=$tree/obj-$variant
out=$build/out/$variant
list=$obj/.module-hashes.bin

. "$top/tests/lib/elf.sh"
. "$top/tests/lib/allowlist.sh"

die() { echo "list-cost.sh: $variant: $*" >&2; exit 1; }
[[ -f $list && -f $out/vmlinux && -f $out/compiler ]] ||
	die "no allowlist build in $obj (make $out/bzImage)"

TIMEFORMAT=%R

# The allowlist step as kbuild ran it, and the same for the built form only.
cmd=$(allowlist_step "$obj")
# shellcheck disable=SC2001 # a pattern over words, not a substitution
unstripped_cmd=$(echo "$cmd" | sed 's/ -f [^ ]*/ -f built/')

tmp=$(mktemp -d)
cp -p "$list" "$tmp/build.bin"

# step_seconds COMMAND OUTPUT ORDER: run the allowlist step COMMAND over
# the modules.order ORDER (from its directory, as its paths are relative)
# into OUTPUT; prints the seconds it took
step_seconds() {
	local seconds
	seconds=$( { time (cd "$(dirname "$3")" && $1 -o "$2" "$(basename "$3")"); } 2>&1) ||
		die "the allowlist step over $3 failed ($1): $seconds"
	echo "$seconds"
}
# relink LIST: the kernel relinked around LIST; prints the seconds it
# took (time's report, kbuild's output goes to stderr)
relink() {
	local seconds
	seconds=$( { time relink_with_list "$build" "$variant" "$1" 2>&3; } 3>&2 2>&1) ||
		die "relinking around the list $1 failed"
	echo "$seconds"
}
restore() {
	relink_restore "$build" "$variant" "$tmp/build.bin" || die "the build could not be restored"
	rm -rf "$tmp"
}
trap restore EXIT

: > "$tmp/empty.order"
sets=("none=$tmp/empty.order" "this build=$obj/modules.order" "$@")

echo "| module set | modules | list bytes | allowlist step s | -f built s | relink s | step / relink | vmlinux bytes | bzImage bytes | .rodata vs none | vmlinux vs none | bzImage vs none |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for set in "${sets[@]}"; do
	name=${set%%=*}
	order=$(realpath "${set#*=}")
	step=$(step_seconds "$cmd" "$tmp/list.bin" "$order")
	unstripped=$(step_seconds "$unstripped_cmd" "$tmp/unstripped.bin" "$order")
	link=$(relink "$tmp/list.bin")
	vmlinux=$(stat -c %s "$obj/vmlinux")
	bzimage=$(stat -c %s "$obj/arch/x86/boot/bzImage")
	rodata=$(elf_sections "$obj/vmlinux" | awk '$1 == ".rodata" { print $5 }')
	: "${none_vmlinux:=$vmlinux}" "${none_bzimage:=$bzimage}" "${none_rodata:=$rodata}"
	printf '| %s | %s | %s | %s | %s | %s | %.3f | %s | %s | %+d | %+d | %+d |\n' \
		"$name" "$(wc -l < "$order")" "$(stat -c %s "$tmp/list.bin")" "$step" "$unstripped" "$link" \
		"$(echo "$step / $link" | bc -l)" "$vmlinux" "$bzimage" \
		$((rodata - none_rodata)) $((vmlinux - none_vmlinux)) $((bzimage - none_bzimage))
done
echo
echo "Full build of $variant, measured when it was built: $(cat "$out/build-seconds") s."
