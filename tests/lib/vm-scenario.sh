# Scenario boots for the VM suites that write their own guest scripts
# (run-security.sh, run-dkms.sh).  Source it after setting
#   build  the build directory, work  where the scripts and outputs go.
# boot NAME VARIANT [KERNEL_ARG...]: boot VARIANT with $work/NAME.sh as the
# guest script; its output goes to $work/NAME.out, and NAME.rc says
# whether the boot ended cleanly (run-vm.sh).
scenario_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../vm" && pwd)
base=$build/initramfs/base.cpio.gz

boot() {
	local name=$1 kout=$build/out/$2
	shift 2
	if [[ ! -f $kout/bzImage || ! -f $kout/modules.cpio.gz || ! -f $base ]]; then
		echo "# $kout or $base is missing (kernel not built)" > "$work/$name.out"
		echo 1 > "$work/$name.rc"
		return
	fi
	"$scenario_dir/run-vm.sh" "$kout" "$base" "$work/$name.sh" "$work/$name.console" "$@" \
		> "$work/$name.out" 2>&1
	echo $? > "$work/$name.rc"
}

# saw NAME ERE: the boot of NAME ended cleanly and printed a line matching
# ERE.  A bad boot is explained once, in TAP comments.
saw() {
	if [[ $(cat "$work/$1.rc") != 0 ]]; then
		if [[ ! -f $work/$1.told ]]; then
			grep '^# ' "$work/$1.out" | head -n 25
			touch "$work/$1.told"
		fi
		return 1
	fi
	grep -Eq -- "$2" "$work/$1.out"
}

# What the guest scripts share: vmtest.sh's load_module, and "result
# LABEL PATH FILE", which loads and prints "LABEL errno=E taint=T" and
# the kernel's log lines of the load as "LABEL log: ...", and "modtaint
# LABEL" the loaded module's own taint letters as "LABEL modtaint=X".
# shellcheck disable=SC2016 # expanded in the guest
guest_prologue='#!/bin/sh
. /bin/vmtest.sh
result() {
	load_module "$2" "$3"
	echo "$1 errno=$errno taint=$taint"
	echo "$1 modtaint=$modtaint"
	sed "s/^/$1 log: /" /tmp/load.log
}
policy() {	# policy TEXT...: append rules to the IMA policy
	printf "%s\n" "$@" > /sys/kernel/security/ima/policy || echo "POLICY-REFUSED $*"
}'
