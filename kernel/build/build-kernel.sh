#!/bin/sh
# Usage: build-kernel.sh TREE VARIANT OUT
# Build bzImage and modules of source TREE for config VARIANT
# (kernel/configs/base.config + VARIANT.config) in TREE/obj-VARIANT, then
# publish the results in OUT (replaced as a whole, never half written):
#   OUT/bzImage  OUT/vmlinux  OUT/System.map  OUT/config  OUT/kernelrelease
#   OUT/modules/lib/modules/RELEASE/...  (modules_install, depmod done)
#   OUT/build-seconds  (wall time of the compile and link)
# The compiler comes from $KERNEL_CC (default gcc); make passes ccache.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
configs=$here/../configs
tree=$(cd "$1" && pwd)
variant=$2
mkdir -p "$(dirname "$3")"
out=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
obj=$tree/obj-$variant

# Reproducible-build settings, the documented kbuild way: no build time,
# user or host in the image; the date is the source tree's own.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$tree/Makefile")}
KBUILD_BUILD_TIMESTAMP=$(LC_ALL=C date -u -d "@$SOURCE_DATE_EPOCH")
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=reproducible
KBUILD_BUILD_VERSION=1
export SOURCE_DATE_EPOCH KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER \
	KBUILD_BUILD_HOST KBUILD_BUILD_VERSION

kmake() {
	make -s -C "$tree" O="$obj" CC="${KERNEL_CC:-gcc}" "$@"
}

"$here/configure.sh" "$tree" "$obj" "$configs/base.config" "$configs/$variant.config"
start=$(date +%s)
kmake -j"$(nproc)" bzImage modules
end=$(date +%s)

rm -rf "$out.tmp"
mkdir -p "$out.tmp/modules"
kmake INSTALL_MOD_PATH="$out.tmp/modules" modules_install >/dev/null
cp "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" "$obj/System.map" "$out.tmp/"
cp "$obj/.config" "$out.tmp/config"
kmake kernelrelease > "$out.tmp/kernelrelease"
echo $((end - start)) > "$out.tmp/build-seconds"
rm -rf "$out"
mv "$out.tmp" "$out"
