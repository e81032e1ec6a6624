#!/bin/sh
# Usage: build-modules.sh OUT OBJ
# The kernel-specific part of the test initramfs for the kernel published
# in OUT (see kernel/build/build-kernel.sh), whose build tree is OBJ.
# Writes OUT/modules.cpio.gz with
#   /lib/modules/RELEASE/      the installed modules, for modprobe
#   /mods/crc7.ko              an in-tree module as installed (signed when
#                              the kernel signs modules)
#   /mods/crc7.ko.xz           the same, compressed as kbuild would
#   /mods/crc7.ko.zst
#   /mods/crc7-flipped.ko      the same with one byte of .comment inverted
#   /mods/hello.ko             an out-of-tree module, never signed
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$(cd "$1" && pwd)
obj=$(cd "$2" && pwd)
release=$(cat "$out/kernelrelease")
root=$out/modules.root
rm -rf "$root"
mkdir -p "$root/lib" "$root/mods"
cp -a "$out/modules/lib/modules" "$root/lib/"

installed=$(find "$root/lib/modules/$release" -name crc7.ko)
[ -n "$installed" ] || { echo "$0: no crc7.ko installed in $out" >&2; exit 1; }
cp "$installed" "$root/mods/crc7.ko"
xz --check=crc32 --lzma2=dict=1MiB -c "$root/mods/crc7.ko" > "$root/mods/crc7.ko.xz"
zstd -q -19 -c "$root/mods/crc7.ko" > "$root/mods/crc7.ko.zst"

# Invert one byte in the middle of .comment: covered by a signature, but
# read by nothing in the kernel, so only an integrity check can notice.
cp "$root/mods/crc7.ko" "$root/mods/crc7-flipped.ko"
set -- $(readelf -S -W "$root/mods/crc7.ko" | sed -n 's/^ *\[ *[0-9]*\] \.comment *[A-Z]* *[0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\).*/\1 \2/p')
[ $# -eq 2 ] || { echo "$0: crc7.ko has no .comment section" >&2; exit 1; }
offset=$(( 0x$1 + 0x$2 / 2 ))
byte=$(od -An -tu1 -j "$offset" -N1 "$root/mods/crc7.ko" | tr -d ' ')
printf "$(printf '\\%03o' $(( 255 - byte )))" |
	dd of="$root/mods/crc7-flipped.ko" bs=1 seek="$offset" conv=notrunc status=none
cmp -s "$root/mods/crc7.ko" "$root/mods/crc7-flipped.ko" && { echo "$0: byte flip failed" >&2; exit 1; }

hello=$out/hello.build
rm -rf "$hello"
cp -r "$top/tests/modules/hello" "$hello"
make -s -C "$obj" M="$hello" CC="${KERNEL_CC:-gcc}" modules
cp "$hello/hello.ko" "$root/mods/hello.ko"
rm -rf "$hello"

"$here/pack-cpio.sh" "$root" "$out/modules.cpio.gz"
rm -rf "$root"
