#!/bin/sh
# Usage: copy-program.sh ROOT PROGRAM...
# Copy each PROGRAM (a path on this machine) into the directory tree ROOT
# at the same path, together with the shared libraries and the dynamic
# loader it needs, so that the real Debian binary runs in the guest.
set -eu
root=$1
shift
copy() {
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}
for prog in "$@"; do
	copy "$prog"
	ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
		while read -r lib; do
			copy "$lib"
		done
done
