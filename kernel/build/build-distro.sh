#!/bin/sh
# Usage: build-distro.sh TREE OUT
# Build the "distro" kernel of source TREE in TREE/obj-distro
# (configure-distro.sh) as Debian packages, with the kernel's own
# packaging (make bindeb-pkg's steps), through kmake.sh (the
# reproducible-build settings), and publish them in OUT (replaced as a
# whole, never half written):
#   OUT/linux-image-RELEASE_VERSION_amd64.deb, OUT/linux-headers-..., OUT/linux-libc-dev_...
#   OUT/vmlinux  OUT/System.map  OUT/config  OUT/kernelrelease
#   OUT/build-seconds    (wall time of the compile and link)
#   OUT/package-seconds  (wall time of the packaging)
# Differences from a plain "make bindeb-pkg", each for a build that can
# be repeated byte for byte:
#  - the package version is fixed (KDEB_PKGVERSION=KERNELVERSION-1), not
#    the count of builds in this directory, and the changelog's
#    distribution is bookworm (KDEB_CHANGELOG_DIST), not the build host's;
#  - the generated changelog is dated from SOURCE_DATE_EPOCH, as every
#    file in the packages is: mkdebian writes the time of the build;
#  - no debug package (DEB_BUILD_PROFILES=pkg.linux-upstream.nokerneldbg):
#    it would copy vmlinux and every module's DWARF, time and space the
#    tests do not use.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
mkdir -p "$(dirname "$2")"
out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
obj=$tree/obj-distro

"$here/configure-distro.sh" "$tree" "$obj"

kmake() {
	"$here/kmake.sh" "$tree" distro "$@"
}

KDEB_PKGVERSION=$(kmake kernelversion)-1
KDEB_CHANGELOG_DIST=bookworm
DEB_BUILD_PROFILES=pkg.linux-upstream.nokerneldbg
export KDEB_PKGVERSION KDEB_CHANGELOG_DIST DEB_BUILD_PROFILES

start=$(date +%s)
kmake -j"$(nproc)" all
end=$(date +%s)

# dpkg-buildpackage writes its results next to the build directory.
rm -f "$tree"/*.deb "$tree"/*.buildinfo "$tree"/*.changes
# The debian/ directory, as make bindeb-pkg makes it first (a target of
# scripts/Makefile.package that the top Makefile does not pass on).
kmake run-command KBUILD_RUN_COMMAND='$(MAKE) -f $(srctree)/scripts/Makefile.package debian'
epoch=${SOURCE_DATE_EPOCH:-$(cat "$tree/.source-date-epoch")}
date=$(LC_ALL=C date -u -R -d "@$epoch")
sed -i "s/^\( -- .*>  \).*/\1$date/" "$obj/debian/changelog"
grep -q "^ -- .*>  $date\$" "$obj/debian/changelog" ||
	{ echo "$0: $obj/debian/changelog: no trailer line to date" >&2; exit 1; }
# As make bindeb-pkg calls it (scripts/Makefile.package), from kbuild's
# make so that debian/rules's makes see the same command line as the
# build above and rebuild nothing.
kmake run-command KBUILD_RUN_COMMAND="dpkg-buildpackage --build=binary \
	--no-pre-clean --unsigned-changes -R'make -f debian/rules' -j1 \
	-a$(cat "$obj/debian/arch") --no-check-builddeps"
done_at=$(date +%s)

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
mv "$tree"/*.deb "$out.tmp/"
rm -f "$tree"/*.buildinfo "$tree"/*.changes
cp "$obj/vmlinux" "$obj/System.map" "$out.tmp/"
cp "$obj/.config" "$out.tmp/config"
kmake kernelrelease > "$out.tmp/kernelrelease"
echo $((end - start)) > "$out.tmp/build-seconds"
echo $((done_at - end)) > "$out.tmp/package-seconds"
rm -rf "$out"
mv "$out.tmp" "$out"
