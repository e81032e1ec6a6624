#!/bin/sh
# Usage: make-tree.sh PRISTINE DEST [PATCH...]
# Make DEST a copy of the pristine source tree with PATCHes applied in
# order.  Unchanged files are hard links, so the copy is cheap and their
# mtimes stay the same from one run to the next: an out-of-tree build
# only rebuilds what the patches affect.  Every file touched by these
# patches, or by those applied the last time DEST was made, becomes a
# real copy with a fresh mtime, so a file that a patch no longer changes
# is rebuilt too.  The build directories DEST/obj-* are kept.  On failure
# the source part of DEST is removed: no half-patched tree is left.
set -eu
here=$(dirname "$0")
pristine=$1
dest=$2
shift 2

clear_sources() {
	find "$dest" -mindepth 1 -maxdepth 1 ! -name 'obj-*' -exec rm -rf {} +
}

previous=
[ -f "$dest/.patched-files" ] && previous=$(cat "$dest/.patched-files")
mkdir -p "$dest"
clear_sources
trap clear_sources EXIT
find "$pristine" -mindepth 1 -maxdepth 1 ! -name 'obj-*' -exec cp -al {} "$dest/" \;

touched=$( { printf '%s\n' "$previous"; [ $# -eq 0 ] || "$here/patch-files.sh" "$@"; } | sed '/^$/d' | sort -u)
for f in $touched; do
	[ -f "$pristine/$f" ] || continue
	cp --remove-destination "$pristine/$f" "$dest/$f"
done

for p in "$@"; do
	"$here/apply-patch.sh" "$dest" "$p"
done
[ $# -eq 0 ] || "$here/patch-files.sh" "$@" > "$dest/.patched-files"
# The date of the source, for reproducible builds: the pristine top
# Makefile keeps the mtime it has in the tarball.
stat -c %Y "$pristine/Makefile" > "$dest/.source-date-epoch"
trap - EXIT
