#!/bin/bash
# Usage: check-kconfig.sh BUILD_DIR
# Configuration-level checks of the series, in TAP:
#  - the groundwork changes no configuration choice: for each variant the
#    patched .config equals the pristine one but for the new hidden
#    MODULE_INTEGRITY_POLICY symbol;
#  - asking for the lockdown LSM on top of "nosig" leaves it off on the
#    patched tree (a dependency now), while the pristine tree turns
#    MODULE_SIG on behind the user's back (the select the series removes).
set -uo pipefail
build=$(cd "$1" && pwd)
src=$build/src
. "$(dirname "$0")/../lib/tap.sh"
options() {	# the set options of a .config, sorted
	grep -E '^CONFIG_' "$1" | sort
}

for variant in sig nosig; do
	pristine=$(options "$src/pristine/obj-$variant/.config")
	patched=$(options "$src/patched/obj-$variant/.config")
	removed=$(comm -23 <(echo "$pristine") <(echo "$patched"))
	added=$(comm -13 <(echo "$pristine") <(echo "$patched"))
	expected=
	[[ $variant == sig ]] && expected=CONFIG_MODULE_INTEGRITY_POLICY=y
	[[ -z $removed && $added == "$expected" ]]
	tap $? "$variant: patched .config equals pristine${expected:+ plus $expected}"
	sed -e 's/^/# only pristine: /' <<< "$removed" | grep -v ': $'
	sed -e 's/^/# only patched: /' <<< "$added" | grep -v ': $'
done

# What "make olddefconfig" makes of nosig plus a request for lockdown.
lockdown_request() {	# lockdown_request TREE -> resolved .config on stdout
	local tree=$1 scratch=$build/tmp/kconfig-$1
	rm -rf "$scratch"
	mkdir -p "$scratch"
	cp "$src/$tree/obj-nosig/.config" "$scratch/.config"
	echo CONFIG_SECURITY_LOCKDOWN_LSM=y >> "$scratch/.config"
	make -s -C "$src/$tree" O="$scratch" olddefconfig >/dev/null 2>&1
	cat "$scratch/.config"
	rm -rf "$scratch"
}
patched=$(lockdown_request patched)
! grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' <<< "$patched" && ! grep -q '^CONFIG_MODULE_SIG=y' <<< "$patched"
tap $? "patched nosig: lockdown cannot be selected without a module integrity mechanism"
pristine=$(lockdown_request pristine)
grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' <<< "$pristine" && grep -q '^CONFIG_MODULE_SIG=y' <<< "$pristine"
tap $? "pristine nosig: selecting lockdown forces MODULE_SIG on (the behaviour patch 5 removes)"
tap_done
