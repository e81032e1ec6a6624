#!/bin/sh
# Usage: fragments.sh VARIANT
# Print the config fragments of VARIANT, in the order they apply:
# base.config, then the fragment the variant extends (a line
# "# extends: OTHER" in kernel/configs/VARIANT.config), then its own.
set -eu
configs=$(cd "$(dirname "$0")/../configs" && pwd)

chain() {
	[ -f "$configs/$1.config" ] ||
		{ echo "fragments.sh: no fragment $configs/$1.config" >&2; exit 1; }
	parent=$(sed -n 's/^# extends: *//p' "$configs/$1.config")
	[ -z "$parent" ] || chain "$parent"
	echo "$configs/$1.config"
}

echo "$configs/base.config"
chain "$1"
