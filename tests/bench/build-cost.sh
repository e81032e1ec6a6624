#!/bin/bash
# Usage: build-cost.sh BUILD_DIR
# What MODULE_HASHES adds to the build of a kernel, as a markdown table:
# the "hashes" config (BUILD_DIR/out/hashes/config) and the same config
# without the allowlist (MODULE_HASHES and, since lockdown would then turn
# module signing on, SECURITY_LOCKDOWN_LSM off: nothing else changes),
# each built from scratch in its own directory of the patched tree with
# plain gcc (no ccache), then once more after `touch lib/crc7.c` (an
# incremental build that changes one module's source).  Ratios are "with"
# over "without", measured in the same run.  The two build directories
# (obj-bench-with, obj-bench-without) are removed afterwards and
# lib/crc7.c gets its old mtime back.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
tree=$build/src/patched
tmp=$(mktemp -d)
# lib/crc7.c gets its mtime back, so that the other build directories of
# the tree do not rebuild it
touch -r "$tree/lib/crc7.c" "$tmp/crc7.c.mtime"
trap 'touch -r "$tmp/crc7.c.mtime" "$tree/lib/crc7.c"; rm -rf "$tmp" "$tree/obj-bench-with" "$tree/obj-bench-without"' EXIT
say() { echo "build-cost.sh: $*" >&2; }
. "$top/tests/lib/timing.sh"

kmake() {	# kmake NAME MAKE_ARG...
	KERNEL_CC=gcc "$top/kernel/build/kmake.sh" "$tree" "bench-$1" "${@:2}"
}
seconds() {	# seconds NAME MAKE_ARG...: wall time of that make
	wall_seconds "$tmp/make-$1.log" kmake "$@"
}

for name in with without; do
	rm -rf "$tree/obj-bench-$name"
	mkdir -p "$tree/obj-bench-$name"
	cp "$build/out/hashes/config" "$tree/obj-bench-$name/.config"
done
"$tree/scripts/config" --file "$tree/obj-bench-without/.config" \
	--disable MODULE_HASHES --disable SECURITY_LOCKDOWN_LSM
for name in with without; do
	kmake "$name" olddefconfig > /dev/null
done
if ! grep -q '^CONFIG_MODULE_HASHES=y' "$tree/obj-bench-with/.config" ||
	grep -q '^CONFIG_MODULE_HASHES=y' "$tree/obj-bench-without/.config" ||
	grep -q '^CONFIG_MODULE_SIG=y' "$tree/obj-bench-without/.config"; then
	say "the two configs are not what this benchmark compares"
	exit 1
fi

declare -A full incr relinked
for name in with without; do
	say "full build $name the allowlist, gcc without ccache (about 6 min on 2 cores)"
	full[$name]=$(seconds "$name" -j"$(nproc)" bzImage modules)
done
for name in with without; do
	say "touch lib/crc7.c; make ($name the allowlist)"
	touch "$tree/lib/crc7.c"
	before=$(stat -c %Y "$tree/obj-bench-$name/vmlinux")
	sleep 1
	incr[$name]=$(seconds "$name" -j"$(nproc)" bzImage modules)
	relinked[$name]=no
	[[ $(stat -c %Y "$tree/obj-bench-$name/vmlinux") == "$before" ]] || relinked[$name]=yes
done

echo "Build of the \`hashes\` config with and without the allowlist (MODULE_HASHES; without it, lockdown off too so that module signing stays off), gcc $(gcc -dumpfullversion), no ccache, $(nproc) cores, in the same run."
echo
echo "| build | with the allowlist s | without s | with / without | vmlinux relinked (with, without) |"
echo "| --- | --- | --- | --- | --- |"
printf '| full (bzImage modules, from scratch) | %.1f | %.1f | %.3f | - |\n' \
	"${full[with]}" "${full[without]}" "$(echo "${full[with]} / ${full[without]}" | bc -l)"
printf '| incremental (touch lib/crc7.c) | %.1f | %.1f | %.2f | %s, %s |\n' \
	"${incr[with]}" "${incr[without]}" "$(echo "${incr[with]} / ${incr[without]}" | bc -l)" \
	"${relinked[with]}" "${relinked[without]}"
