#!/bin/bash
# Usage: make-rootfs.sh OUT.tar
# Build the Debian 12 (bookworm) root file system of the distro tests from
# Debian's packages with mmdebstrap (as root), as a tarball: minbase plus
# the packages listed in rootfs-packages next to this script, from the apt
# sources this machine uses (bookworm, bookworm-updates and
# bookworm-security).  Merged-/usr, as mmdebstrap makes it by default.
# No kernel is installed: make-disk.sh adds the kernel packages.
#
# OUT.tar is kept with OUT.tar.inputs, a hash of what it was made from
# (this script, the package list, the apt sources); when that hash is
# unchanged the tarball is left as it is, so a second run takes no time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: make-rootfs.sh OUT.tar}
list=$here/rootfs-packages
sources=/etc/apt/sources.list.d/debian.sources

inputs=$(cat "$0" "$list" "$sources" | sha256sum | cut -d' ' -f1)
if [[ -f $out && -f $out.inputs && $(cat "$out.inputs") == "$inputs" ]]; then
	echo "[+] distro root file system: $out is up to date"
	exit 0
fi

# The package list without comments and blank lines, comma separated.
packages=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | tr -s ' \n' ',' | sed 's/,$//')
mkdir -p "$(dirname "$out")"
rm -f "$out" "$out.inputs" "$out.tmp"
log=$(dirname "$out")/make-rootfs.log
"$root/kernel/build/step.sh" "[+] distro root file system: mmdebstrap bookworm" \
	"2 to 7 min, most of it downloads and dpkg" "$log" \
	mmdebstrap --mode=root --variant=minbase --format=tar \
	--include="$packages" bookworm "$out.tmp" "$sources"
mv "$out.tmp" "$out"
echo "$inputs" > "$out.inputs"
