#!/bin/bash
# Usage: check-kconfig.sh BUILD_DIR
# Configuration-level checks of the series, in TAP:
#  - the groundwork changes no configuration choice: for each variant the
#    patched .config equals the pristine one but for the new hidden
#    MODULE_INTEGRITY_POLICY symbol;
#  - asking for the lockdown LSM on top of "nosig" turns MODULE_SIG on, on
#    both trees (every configuration that enables lockdown relies on that
#    select), while on "hashes" lockdown comes without MODULE_SIG;
#  - every in-tree defconfig and fragment that enables lockdown (powerpc's
#    ppc64_defconfig, skiroot_defconfig, security.config, s390's defconfig
#    and debug_defconfig) gives the same .config on both trees, but for
#    MODULE_INTEGRITY_POLICY: lockdown, MODULE_SIG and MODULE_SIG_FORCE
#    keep their values.  "make ARCH=... <name>" runs Kconfig only, with
#    the host compiler; nothing is compiled.
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
# Other architectures' configurations that enable lockdown, as
# "ARCH target...": every one in the 6.12 tree (grep -l LOCKDOWN_LSM=y
# arch/*/configs kernel/configs), security.config on top of a powerpc
# defconfig that does not enable lockdown itself.
defconfigs=(
	"powerpc ppc64_defconfig"
	"powerpc skiroot_defconfig"
	"powerpc ppc64e_defconfig security.config"
	"s390 defconfig"
	"s390 debug_defconfig"
)
tap_plan $((5 + ${#defconfigs[@]}))
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

# Both trees at once (each configuration is one make process).
for variant in sig nosig hashes; do
	for tree in pristine patched; do
		[[ $tree/$variant == pristine/hashes ]] || configured "$tree" "$variant" > /dev/null &
	done
	wait
done
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

# What "make olddefconfig" makes of VARIANT plus a request for lockdown.
lockdown_request() {	# lockdown_request TREE VARIANT -> resolved .config on stdout
	local tree=$1 obj=$scratch/$1-$2-lockdown
	mkdir -p "$obj"
	cp "$(configured "$tree" "$2")" "$obj/.config" || return 1
	echo CONFIG_SECURITY_LOCKDOWN_LSM=y >> "$obj/.config"
	make -s -C "$src/$tree" O="$obj" olddefconfig >/dev/null 2>&1 || return 1
	cat "$obj/.config"
}
for tree in patched pristine; do
	config=$(lockdown_request "$tree" nosig)
	grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' <<< "$config" && grep -q '^CONFIG_MODULE_SIG=y' <<< "$config"
	tap $? "$tree nosig: asking for lockdown turns MODULE_SIG on"
done
config=$(lockdown_request patched hashes)
grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' <<< "$config" && ! grep -q '^CONFIG_MODULE_SIG=y' <<< "$config"
tap $? "patched hashes: lockdown without MODULE_SIG (the allowlist vouches for modules)"

# defconfig TREE INDEX: configure ${defconfigs[INDEX]} on TREE into its own
# directory; the log says what went wrong, if anything.
defconfig() {
	local arch targets obj=$scratch/$1-defconfig-$2
	read -r arch targets <<< "${defconfigs[$2]}"
	mkdir -p "$obj"
	# shellcheck disable=SC2086 # targets are words
	make -s -C "$src/$1" O="$obj" ARCH="$arch" $targets > "$obj.log" 2>&1
}
echo "# configuring ${#defconfigs[@]} defconfigs of other architectures on both trees (about 2 min)"
for i in "${!defconfigs[@]}"; do
	defconfig pristine "$i" &
	defconfig patched "$i"
	wait
done
for i in "${!defconfigs[@]}"; do
	desc="${defconfigs[$i]}: patched .config equals pristine plus MODULE_INTEGRITY_POLICY, lockdown kept"
	p=$scratch/pristine-defconfig-$i/.config
	q=$scratch/patched-defconfig-$i/.config
	if [[ ! -f $p || ! -f $q ]]; then
		tap 1 "$desc"
		cat "$scratch"/*-defconfig-"$i".log 2>/dev/null | tail -n 10 | sed 's/^/# /'
		continue
	fi
	removed=$(comm -23 <(grep '^CONFIG_' "$p" | sort) <(grep '^CONFIG_' "$q" | sort))
	added=$(comm -13 <(grep '^CONFIG_' "$p" | sort) <(grep '^CONFIG_' "$q" | sort))
	grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' "$p" && [[ -z $removed && $added == CONFIG_MODULE_INTEGRITY_POLICY=y ]]
	tap $? "$desc"
	grep -E '^CONFIG_(SECURITY_LOCKDOWN_LSM|MODULE_SIG|MODULE_SIG_FORCE)=' "$p" | tr '\n' ' ' | sed 's/^/# pristine: /;s/ $/\n/'
	sed -e 's/^/# only pristine: /' <<< "$removed" | grep -v ': $'
	sed -e 's/^/# only patched: /' <<< "$added" | grep -v ': $'
done
