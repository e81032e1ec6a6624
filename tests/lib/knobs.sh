#!/bin/bash
# Usage: knobs.sh [--set]
# The test knobs: environment variables that change what the build and the
# tests do (shrink a suite, boot another kernel, compare with another
# file, build with other flags).  The list is derived from the sources, not
# kept by hand:
#  - every "NAME ?=" of the top Makefile and tools/Makefile;
#  - every expansion with a default, "${name:-...}" or "${name-...}", of
#    an upper-case name in tests/, kernel/build/ and initramfs/.
# Left out, because they choose how modhash is built or installed and never
# which tests run or what they compare: CC, CFLAGS, O, PREFIX, DESTDIR,
# PKG_CONFIG.
# Prints one knob per line; with --set, only those set in the environment,
# as NAME=VALUE.  The top Makefile stops under CI=true when any is set, and
# tests/run-all.sh names them on its closing line otherwise.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
not_knobs=" CC CFLAGS O PREFIX DESTDIR PKG_CONFIG "
{
	sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\?=.*/\1/p' Makefile tools/Makefile
	grep -rhoE '\$\{[A-Z_][A-Z0-9_]*:?-' tests kernel/build initramfs |
		sed -E 's/^\$\{([A-Z0-9_]+):?-$/\1/'
} | sort -u | while read -r name; do
	[[ $not_knobs == *" $name "* ]] && continue
	if [[ ${1-} == --set ]]; then
		[[ -n ${!name+set} ]] && printf '%s=%s\n' "$name" "${!name}"
	else
		echo "$name"
	fi
done
exit 0
