#!/bin/sh
# Usage: configure.sh TREE OBJ FRAGMENT...
# Configure the out-of-tree build OBJ of TREE: allnoconfig with the
# concatenated fragments forced on, then fail if Kconfig dropped any
# request (an unmet dependency), naming the option.
#
# kernel/build/trusted-keys.sh then puts the certificates the
# configuration trusts, if any, into OBJ.
set -eu
here=$(dirname "$0")
tree=$1
obj=$2
shift 2
mkdir -p "$obj"
cat "$@" > "$obj/fragments.config"
make -s -C "$tree" O="$obj" KCONFIG_ALLCONFIG="$obj/fragments.config" allnoconfig
"$here/check-config.sh" "$obj/.config" "$@"
"$here/trusted-keys.sh" "$obj"
