#!/bin/bash
# Usage: make-source-package.sh OUTDIR
# The Debian source package of modhash: assembles OUTDIR/modhash-VERSION
# (VERSION from debian/changelog) and builds OUTDIR/modhash_VERSION.dsc and
# its .tar.xz from it with dpkg-source.  "cd OUTDIR/modhash-VERSION &&
# dpkg-buildpackage -us -uc" then builds the binary package too.
#
# The tree holds what building, testing and installing modhash needs from
# tools/ (Makefile, src, man, tests, completion, debian; not the fuzz
# targets, which need clang and are run by the project's own tests), and
# the allowlist format header at include/uapi/linux/module_hashes.h.  The
# one definition of that header is the series' patch that creates it: each
# patch of kernel/patches/series is applied, restricted to that file, to an
# empty tree, so that the package carries exactly what the patched kernel
# has and no copy of it is kept by hand.
#
# A native package (3.0 (native)): the project is its own upstream, the
# packaging lives in the same repository and no tarball is released apart
# from this one, so a separate upstream tarball and a Debian diff would
# only say the same thing twice.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
[[ $# == 1 ]] || { echo "usage: make-source-package.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)

header=include/uapi/linux/module_hashes.h
version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
tree=$out/modhash-$version
rm -rf "$tree" "$out/modhash_$version".*
mkdir -p "$tree"

for part in Makefile src man tests completion debian; do
	cp -R "$here/$part" "$tree/"
done

# The header from the series.  The empty tree is a repository of its own,
# so that git apply works on it wherever OUTDIR is.
apply=$(mktemp -d)
trap 'rm -rf "$apply"' EXIT
git -C "$apply" init -q
while read -r patch; do
	[[ -z $patch || $patch == \#* ]] && continue
	(cd "$apply" && git apply --include="$header" "$top/kernel/patches/$patch") ||
		{ echo "make-source-package.sh: kernel/patches/$patch does not apply to $header" >&2; exit 1; }
done < "$top/kernel/patches/series"
[[ -f $apply/$header ]] ||
	{ echo "make-source-package.sh: no patch of kernel/patches/series creates $header" >&2; exit 1; }
mkdir -p "$tree/$(dirname "$header")"
cp "$apply/$header" "$tree/$header"

# The same bytes however the checkout was made: files 0644 (0755 for
# scripts), one date, that of the changelog's entry.
find "$tree" -type d -exec chmod 0755 {} +
find "$tree" -type f -exec chmod 0644 {} +
chmod 0755 "$tree/debian/rules" "$tree/tests/"*.sh
date=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Timestamp)
find "$tree" -exec touch -h -d "@$date" {} +

(cd "$out" && dpkg-source --build "modhash-$version" > /dev/null)
echo "$out/modhash_$version.dsc"
