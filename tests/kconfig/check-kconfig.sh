#!/bin/bash
# Usage: check-kconfig.sh BUILD_DIR
# Configuration-level checks of the series, in TAP:
#  - the groundwork changes no configuration choice: for each variant the
#    patched .config equals the pristine one but for the new hidden
#    MODULE_INTEGRITY_POLICY symbol;
#  - asking for the lockdown LSM on top of "nosig" leaves it off on the
#    patched tree (a dependency now), while the pristine tree turns
#    MODULE_SIG on behind the user's back (the select the series removes).
# The configurations are made here, in BUILD_DIR/tmp/kconfig, from the
# fragments (configuration step only, nothing is compiled): a missing
# build cannot make a check pass.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
src=$build/src
scratch=$build/tmp/kconfig
rm -rf "$scratch"
mkdir -p "$scratch"
. "$here/../lib/tap.sh"
tap_plan 4
options() {	# options TREE VARIANT: the set options of its .config, sorted
	local config
	config=$(configured "$1" "$2") || return 1
	grep -E '^CONFIG_' "$config" | sort
}

# configured TREE VARIANT: the path of the .config the fragments of
# VARIANT give on TREE (pristine or patched), made once.
configured() {
	local obj=$scratch/$1-$2
	if [[ ! -f $obj/.config ]]; then
		echo "# configuring $2 on the $1 tree (about 20 s)" >&2
		# shellcheck disable=SC2046 # one fragment path per line, no spaces
		"$top/kernel/build/configure.sh" "$src/$1" "$obj" \
			$("$top/kernel/build/fragments.sh" "$2") > "$obj.log" 2>&1 ||
			{ sed 's/^/# /' "$obj.log" >&2; return 1; }
	fi
	echo "$obj/.config"
}

for variant in sig nosig; do
	pristine=$(options pristine "$variant")
	patched=$(options patched "$variant")
	removed=$(comm -23 <(echo "$pristine") <(echo "$patched"))
	added=$(comm -13 <(echo "$pristine") <(echo "$patched"))
	expected=
	[[ $variant == sig ]] && expected=CONFIG_MODULE_INTEGRITY_POLICY=y
	[[ -n $pristine && -n $patched && -z $removed && $added == "$expected" ]]
	tap $? "$variant: patched .config equals pristine${expected:+ plus $expected}"
	sed -e 's/^/# only pristine: /' <<< "$removed" | grep -v ': $'
	sed -e 's/^/# only patched: /' <<< "$added" | grep -v ': $'
done

# What "make olddefconfig" makes of nosig plus a request for lockdown.
lockdown_request() {	# lockdown_request TREE -> resolved .config on stdout
	local tree=$1 obj=$scratch/$1-nosig-lockdown
	mkdir -p "$obj"
	cp "$(configured "$tree" nosig)" "$obj/.config" || return 1
	echo CONFIG_SECURITY_LOCKDOWN_LSM=y >> "$obj/.config"
	make -s -C "$src/$tree" O="$obj" olddefconfig >/dev/null 2>&1
	cat "$obj/.config"
}
patched=$(lockdown_request patched)
! grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' <<< "$patched" && ! grep -q '^CONFIG_MODULE_SIG=y' <<< "$patched"
tap $? "patched nosig: lockdown cannot be selected without a module integrity mechanism"
pristine=$(lockdown_request pristine)
grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' <<< "$pristine" && grep -q '^CONFIG_MODULE_SIG=y' <<< "$pristine"
tap $? "pristine nosig: selecting lockdown forces MODULE_SIG on (the behaviour patch 5 removes)"
