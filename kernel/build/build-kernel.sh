#!/bin/sh
# Usage: build-kernel.sh TREE VARIANT OUT
# Build bzImage and modules of source TREE for config VARIANT (the
# fragments kernel/build/fragments.sh lists) in TREE/obj-VARIANT, then
# publish the results in OUT (replaced as a whole, never half written):
#   OUT/bzImage  OUT/vmlinux  OUT/System.map  OUT/config  OUT/kernelrelease
#   OUT/modules/lib/modules/RELEASE/...  (modules_install, depmod done)
#   OUT/modules-stripped/lib/modules/RELEASE/...  (INSTALL_MOD_STRIP=1)
#   OUT/build-seconds  (wall time of the compile and link)
#   OUT/compiler  (the compiler command: "gcc", or "ccache gcc")
# The compiler comes from $KERNEL_CC (default gcc); make passes ccache.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
variant=$2
mkdir -p "$(dirname "$3")"
out=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
obj=$tree/obj-$variant
cc=${KERNEL_CC:-gcc}

# Reproducible-build settings, the documented kbuild way
# (Documentation/kbuild/reproducible-builds.rst): no build time, user or
# host in the image; the date is the one of the source, which make-tree.sh
# records (the mtime of the pristine top Makefile, from the tarball).
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	[ -f "$tree/.source-date-epoch" ] ||
		{ echo "$0: $tree/.source-date-epoch missing: remake the tree" >&2; exit 1; }
	SOURCE_DATE_EPOCH=$(cat "$tree/.source-date-epoch")
fi
KBUILD_BUILD_TIMESTAMP=$(LC_ALL=C date -u -d "@$SOURCE_DATE_EPOCH")
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=reproducible
KBUILD_BUILD_VERSION=1
export SOURCE_DATE_EPOCH KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER \
	KBUILD_BUILD_HOST KBUILD_BUILD_VERSION

# shellcheck disable=SC2046 # one fragment path per line, no spaces
"$here/configure.sh" "$tree" "$obj" $("$here/fragments.sh" "$variant")

# Debug information names the build directory: map the tree away, so a
# build elsewhere gives the same bytes.  Only then, so that ccache can
# share objects between trees when there is no debug information.
prefix_map=
if grep -q '^CONFIG_DEBUG_INFO=y' "$obj/.config"; then
	prefix_map=-fdebug-prefix-map=$tree/=
fi

kmake() {
	make -s -C "$tree" O="$obj" CC="$cc" KCFLAGS="$prefix_map" KAFLAGS="$prefix_map" "$@"
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
echo "$cc" > "$out.tmp/compiler"
rm -rf "$out"
mv "$out.tmp" "$out"
