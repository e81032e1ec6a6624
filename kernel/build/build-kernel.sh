#!/bin/sh
# Usage: build-kernel.sh TREE VARIANT OUT
# Build bzImage and modules of source TREE for config VARIANT (the
# fragments kernel/build/fragments.sh lists) in TREE/obj-VARIANT, through
# kmake.sh (reproducible-build settings), then publish the results in OUT
# (replaced as a whole, never half written):
#   OUT/bzImage  OUT/vmlinux  OUT/System.map  OUT/config  OUT/kernelrelease
#   OUT/modules/lib/modules/RELEASE/...  (modules_install, depmod done)
#   OUT/modules-stripped/lib/modules/RELEASE/...  (INSTALL_MOD_STRIP=1)
#   OUT/build-seconds  (wall time of the compile and link)
#   OUT/compiler  (the compiler command: "gcc", or "ccache gcc")
# The compiler comes from $KERNEL_CC (default gcc).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
variant=$2
mkdir -p "$(dirname "$3")"
out=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
obj=$tree/obj-$variant

# shellcheck disable=SC2046 # one fragment path per line, no spaces
"$here/configure.sh" "$tree" "$obj" $("$here/fragments.sh" "$variant")

kmake() {
	"$here/kmake.sh" "$tree" "$variant" "$@"
}

start=$(date +%s)
kmake -j"$(nproc)" bzImage modules
end=$(date +%s)

rm -rf "$out.tmp"
mkdir -p "$out.tmp/modules" "$out.tmp/modules-stripped"
kmake INSTALL_MOD_PATH="$out.tmp/modules" modules_install >/dev/null
kmake INSTALL_MOD_PATH="$out.tmp/modules-stripped" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null
cp "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" "$obj/System.map" "$out.tmp/"
cp "$obj/.config" "$out.tmp/config"
kmake kernelrelease > "$out.tmp/kernelrelease"
echo $((end - start)) > "$out.tmp/build-seconds"
echo "${KERNEL_CC:-gcc}" > "$out.tmp/compiler"
rm -rf "$out"
mv "$out.tmp" "$out"
