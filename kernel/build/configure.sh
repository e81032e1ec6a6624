#!/bin/sh
# Usage: configure.sh TREE OBJ FRAGMENT...
# Configure the out-of-tree build OBJ of TREE: allnoconfig with the
# concatenated fragments forced on, then fail if Kconfig dropped any
# request (an unmet dependency), naming the option.
#
# A configuration that trusts fixed certificates names them with
# CONFIG_SYSTEM_TRUSTED_KEYS="certs/trusted-keys.pem", a path inside OBJ,
# so that the .config is the same whatever directory OBJ is in (the build
# stays reproducible).  That file is copied from $TRUSTED_KEYS, by
# default the test certificate tests/keys/dkms-test-cert.pem: a
# distribution points TRUSTED_KEYS at its own PEM file of certificates.
set -eu
here=$(dirname "$0")
tree=$1
obj=$2
shift 2
mkdir -p "$obj"
cat "$@" > "$obj/fragments.config"
make -s -C "$tree" O="$obj" KCONFIG_ALLCONFIG="$obj/fragments.config" allnoconfig
"$here/check-config.sh" "$obj/.config" "$@"
if grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS="certs/trusted-keys.pem"' "$obj/.config"; then
	keys=${TRUSTED_KEYS:-$here/../../tests/keys/dkms-test-cert.pem}
	[ -f "$keys" ] || { echo "$0: $keys: no such certificate file (TRUSTED_KEYS)" >&2; exit 1; }
	mkdir -p "$obj/certs"
	# Replaced only when it changes: kbuild rebuilds the built-in
	# certificate list when the file is newer than it.
	cmp -s "$keys" "$obj/certs/trusted-keys.pem" || cp "$keys" "$obj/certs/trusted-keys.pem"
fi
