#!/bin/bash
# Usage: check-repro.sh BUILD_DIR
# The distro kernel's packages built a second time from scratch, from
# another copy of the patched source in another directory
# (BUILD_DIR/repro/distro/linux), later, with plain gcc like the first,
# then compared with BUILD_DIR/out/distro: every .deb byte for byte.
# When a package differs, the report (BUILD_DIR/test-results/repro/
# distro.report) says which members of it differ, so that the cause can
# be named.  TAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
first=$build/out/distro
dir=$build/repro/distro
results=$build/test-results/repro
report=$results/distro.report
mkdir -p "$results"
. "$here/../lib/tap.sh"

tap_plan 4
rm -rf "$dir"
mkdir -p "$dir"
echo "# building the distro packages a second time in $dir (about as long as the first build)"
# shellcheck disable=SC2046 # patch file names have no spaces
"$top/kernel/build/make-tree.sh" "$build/src/pristine" "$dir/linux" \
	$(sed "s|^|$top/kernel/patches/|" "$top/kernel/patches/series") > "$dir/build.log" 2>&1 &&
	KERNEL_CC=gcc "$top/kernel/build/build-distro.sh" "$dir/linux" "$dir/out" >> "$dir/build.log" 2>&1
rc=$?
tap $rc "second build of the distro packages in another directory (log: $dir/build.log)"

names() { (cd "$1" 2>/dev/null && ls -- *.deb) | tr '\n' ' '; }
[[ $(names "$first") == "$(names "$dir/out")" && -n $(names "$first") ]]
tap $? "the same package files: $(names "$first")"

: > "$report"
same=0
for deb in "$first"/*.deb; do
	name=$(basename "$deb")
	if cmp -s "$deb" "$dir/out/$name"; then
		echo "$name: identical" >> "$report"
		continue
	fi
	same=1
	echo "$name: differs" >> "$report"
	for side in a b; do
		src=$deb
		[[ $side == b ]] && src=$dir/out/$name
		mkdir -p "$dir/cmp/$side/$name"
		dpkg-deb -R "$src" "$dir/cmp/$side/$name" 2>/dev/null
	done
	diff -rq "$dir/cmp/a/$name" "$dir/cmp/b/$name" | sed 's/^/  /' >> "$report"
done
sed 's/^/# /' "$report"
tap $same "every .deb is byte for byte identical (report: $report)"

# The second vmlinux too: the list and everything else in it.
cmp -s "$first/vmlinux" "$dir/out/vmlinux"
tap $? "vmlinux identical"
