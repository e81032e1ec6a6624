#!/bin/sh
# Usage: pack-cpio.sh DIR OUTPUT.cpio.gz
# Pack DIR as a gzip'd newc cpio archive, written atomically, with sorted
# names, fixed ownership and no timestamps, so the same input gives the
# same bytes.  Archives made this way can be concatenated: the kernel
# unpacks them one after another into the same rootfs.
set -eu
dir=$1
output=$2
(cd "$dir" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -n -1 > "$output.tmp"
mv "$output.tmp" "$output"
