#!/bin/sh
# Usage: kmake.sh TREE VARIANT MAKE_ARG...
# Run kbuild's make for the build directory TREE/obj-VARIANT (configured
# by configure.sh) in the environment every build of it must share, so
# that a later make (a test, an incremental rebuild) sees the same command
# lines and rebuilds nothing it need not:
#  - the reproducible-build settings of
#    Documentation/kbuild/reproducible-builds.rst: no build time, user or
#    host in the image; the date is the source's, which make-tree.sh
#    records (the mtime of the pristine top Makefile, from the tarball);
#  - -fdebug-prefix-map for configs with debug information, whose DWARF
#    would otherwise name the build directory (only then, so that ccache
#    shares objects between trees otherwise);
#  - the compiler: $KERNEL_CC (default gcc; "ccache gcc" for ccache);
#  - no "Entering directory" lines, even under a make that asked for them
#    (make repro's recursive make): callers keep what kbuild prints, such
#    as kernelrelease, in files.
set -eu
tree=$(cd "$1" && pwd)
obj=$tree/obj-$2
shift 2

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

prefix_map=
if grep -q '^CONFIG_DEBUG_INFO=y' "$obj/.config"; then
	prefix_map=-fdebug-prefix-map=$tree/=
fi

exec make -s --no-print-directory -C "$tree" O="$obj" CC="${KERNEL_CC:-gcc}" \
	KCFLAGS="$prefix_map" KAFLAGS="$prefix_map" "$@"
