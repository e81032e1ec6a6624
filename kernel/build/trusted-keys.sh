#!/bin/sh
# Usage: trusted-keys.sh OBJ
# A configuration that trusts fixed certificates names them with
# CONFIG_SYSTEM_TRUSTED_KEYS="certs/trusted-keys.pem", a path inside OBJ,
# so that the .config is the same whatever directory OBJ is in (the build
# stays reproducible).  Copy that file from $TRUSTED_KEYS, by default the
# test certificate tests/keys/dkms-test-cert.pem: a distribution points
# TRUSTED_KEYS at its own PEM file of certificates.  Nothing to do for a
# configuration without it.
set -eu
here=$(dirname "$0")
obj=$1
grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS="certs/trusted-keys.pem"' "$obj/.config" || exit 0
keys=${TRUSTED_KEYS:-$here/../../tests/keys/dkms-test-cert.pem}
[ -f "$keys" ] || { echo "$0: $keys: no such certificate file (TRUSTED_KEYS)" >&2; exit 1; }
mkdir -p "$obj/certs"
# Replaced only when it changes: kbuild rebuilds the built-in
# certificate list when the file is newer than it.
cmp -s "$keys" "$obj/certs/trusted-keys.pem" || cp "$keys" "$obj/certs/trusted-keys.pem"
