#!/bin/bash
# Usage: debian-modules.sh DIR
# Fetch the modules of Debian's own 6.12 kernel, the one built from the
# same linux-source-6.12 version as our trees (package
# linux-image-<upstream>+deb12-amd64-unsigned: no signatures appended),
# into DIR, uncompressed, and write DIR/modules.order naming them the way
# kbuild's modules.order does ("dir/x.o" for dir/x.ko, relative to DIR),
# and the package's name to DIR/package.
# The allowlist benchmarks run the generator over this set: a
# distribution's real module count and sizes, not our four test modules.
set -euo pipefail
dir=$1
die() { echo "debian-modules.sh: $*" >&2; exit 1; }

version=$(dpkg-query -W -f='${Version}' linux-source-6.12) ||
	die "linux-source-6.12 is not installed (make deps)"
upstream=${version%%-*}
package=linux-image-$upstream+deb12-amd64-unsigned

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
(cd "$dir.tmp" && apt-get download -q "$package" 2>&1 | grep -v '^W: Download is performed unsandboxed') ||
	die "$package: apt-get download failed"
dpkg-deb -x "$dir.tmp"/*.deb "$dir.tmp/root"
rm -f "$dir.tmp"/*.deb

modules=$(echo "$dir.tmp/root/lib/modules/"*)
[[ -f $modules/modules.order ]] || die "$package: no modules.order in the package"
find "$modules/kernel" -name '*.ko.xz' -print0 | xargs -0 -r -P "$(nproc)" -n 100 xz -d
find "$modules/kernel" -name '*.ko.*' | grep -q . && die "$package: modules compressed other than with xz"

# The package's modules.order names the installed "kernel/dir/x.ko".
prefix=${modules#"$dir.tmp/"}
sed "s|^|$prefix/|; s|\\.ko\$|.o|" "$modules/modules.order" > "$dir.tmp/modules.order"
while read -r line; do
	[[ -f $dir.tmp/${line%.o}.ko ]] || die "$package: ${line%.o}.ko in modules.order is missing"
done < "$dir.tmp/modules.order"
echo "$package" > "$dir.tmp/package"
# Next to each module, its stripped form, as kbuild's modfinal makes it for
# the allowlist (x.ko.stripped): the package's modules are stripped
# already, so these are mostly copies, but the step hashes both forms.
find "$modules/kernel" -name '*.ko' -print0 |
	xargs -0 -r -P "$(nproc)" -I{} strip --strip-debug -o {}.stripped {}

rm -rf "$dir"
mv "$dir.tmp" "$dir"
