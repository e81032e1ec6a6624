#!/bin/bash
# Usage: figures.sh BUILD_DIR
# Print, as markdown for NOTES.md, what the published kernels measure:
# build time and compiler, bzImage and vmlinux sizes, and for the
# allowlist variants the list's size, its bytes per module and the time
# the allowlist step (scripts/module-hashes over modules.order) takes.
set -euo pipefail
build=$(cd "$1" && pwd)
. "$(dirname "$0")/../lib/allowlist.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| build | compiler | build s | bzImage bytes | vmlinux bytes | modules | allowlist bytes | bytes per module | allowlist step s |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for out in "$build"/out/*/; do
	name=$(basename "$out")
	[[ -f $out/bzImage ]] || continue
	obj=$build/src/patched/obj-$name
	[[ $name == pristine-* ]] && obj=$build/src/pristine/obj-${name#pristine-}
	modules=$(wc -l < "$obj/modules.order")
	list=- per=- step=-
	if [[ -f $obj/.module-hashes.bin ]]; then
		list=$(stat -c %s "$obj/.module-hashes.bin")
		per=$(($(list_digest_bytes "$obj/.module-hashes.bin") / modules))
		# the command kbuild ran, timed in the build dir, writing elsewhere
		cmd=$(allowlist_step "$obj")
		step=$(cd "$obj" && TIMEFORMAT=%R && { time $cmd -o "$tmp/list.bin" modules.order > /dev/null; } 2>&1)
		cmp -s "$tmp/list.bin" "$obj/.module-hashes.bin" ||
			{ echo "figures.sh: $name: the timed run gave another list" >&2; exit 1; }
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(cat "$out/compiler" 2>/dev/null || echo '?')" \
		"$(cat "$out/build-seconds")" "$(stat -c %s "$out/bzImage")" "$(stat -c %s "$out/vmlinux")" \
		"$modules" "$list" "$per" "$step"
done

