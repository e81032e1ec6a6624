#!/bin/bash
# Usage: load-cost.sh BUILD_DIR [ROUNDS]
# What a module load costs in the guest with each way of checking it, as
# a markdown table.  Each row boots one kernel of BUILD_DIR/out under qemu
# and times finit_module() of /mods/crc7.ko (the in-tree module as that
# build installed it) ROUNDS times (default 40) in two ways:
#  - first loads: a fresh copy of the file each time (a new inode, so
#    nothing IMA cached about an earlier copy applies);
#  - repeat loads: the same file each time;
# unloading it after each load.  The guest's modload times the syscall
# alone (modload --time).  Rows:
#  none        nosig, nothing checks modules (the reference)
#  signature   sig, module.sig_enforce=1: the appended signature
#  allowlist   hashes, module.sig_enforce=1: the built-in list
#  allowlist in IMA  hashes, ima-policy/modules-allowlist.policy
#  signature in IMA  sig, ima-policy/modules-allowlist-modsig.policy
#              with the build's certificate in IMA's keyring
# Every time is given as the median of its ROUNDS and as a ratio to the
# reference's median in the same way (first or repeat), measured in the
# same invocation.  A load that does not return OK fails the script.
# The guest's clock: without ACPI there is no HPET or PM timer, so when
# calibrating the TSC against the PIT fails under TCG (it does on a busy
# host) the kernel falls back to jiffies and every load takes 0 or 4 ms.
# Each boot is told the host's TSC frequency (tsc_early_khz=, TCG's TSC
# runs at the host's) and must report a TSC clocksource, or the script
# fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
rounds=${2:-40}
base=$build/initramfs/base.cpio.gz
# the host's TSC frequency in kHz ("cpu MHz" is the TSC's where the CPU
# has a constant, known-frequency TSC)
grep -qw constant_tsc /proc/cpuinfo ||
	{ echo "load-cost.sh: the host's TSC is not constant: no clock to time loads with" >&2; exit 1; }
tsc_khz=$(awk -F': *' '/^cpu MHz/ { printf "%d\n", $2 * 1000; exit }' /proc/cpuinfo)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say() { echo "load-cost.sh: $*" >&2; }
. "$here/../lib/timing.sh"

# guest_script SETUP: time ROUNDS first and ROUNDS repeat loads of crc7.ko
guest_script() {
	cat <<GUEST
#!/bin/sh
. /bin/vmtest.sh
echo "CLOCKSOURCE \$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
setup_mode "$1"
timed_load() {	# timed_load FILE KIND
	set -- \$(modload --time finit "\$1") "\$2"
	[ "\$1" = OK ] || { echo "LOAD-FAILED \$*"; exit 1; }
	echo "\$3 \$2"
	/sbin/rmmod crc7 || exit 1
}
i=0
while [ \$i -lt $rounds ]; do
	cp /mods/crc7.ko /tmp/crc7-\$i.ko
	timed_load /tmp/crc7-\$i.ko FIRST
	rm /tmp/crc7-\$i.ko
	i=\$((i + 1))
done
cp /mods/crc7.ko /tmp/crc7.ko
i=0
while [ \$i -lt $rounds ]; do
	timed_load /tmp/crc7.ko REPEAT
	i=\$((i + 1))
done
GUEST
}

kind_median() {	# kind_median KIND FILE: the median of KIND's times, in ns
	local times
	times=$(awk -v k="$1" '$1 == k { print $2 }' "$2")
	# shellcheck disable=SC2086 # one time a word
	median $times
}

# quotient A B: A / B, or the script fails (an empty figure would print
# as 0)
quotient() {
	local q
	q=$(echo "$1 / $2" | bc -l 2>&1)
	is_number "$q" || { say "cannot divide \"$1\" by \"$2\": $q"; exit 1; }
	echo "$q"
}

rows=(
	"none|nosig|-|-"
	"signature (module.sig_enforce=1)|sig|module.sig_enforce=1|-"
	"allowlist (module.sig_enforce=1)|hashes|module.sig_enforce=1|-"
	"allowlist in IMA (modules-allowlist.policy)|hashes|-|policy=modules-allowlist.policy"
	"signature in IMA (modules-allowlist-modsig.policy)|sig|-|imacert,policy=modules-allowlist-modsig.policy"
)
n=0
for row in "${rows[@]}"; do
	IFS='|' read -r name variant args setup <<< "$row"
	n=$((n + 1))
	kout=$build/out/$variant
	[[ -f $kout/bzImage ]] || { say "$variant is not built (make kernels)"; exit 1; }
	say "[$n/${#rows[@]}] $name: booting $variant, $((2 * rounds)) timed loads (about 1 min)"
	guest_script "$setup" > "$tmp/guest.sh"
	# shellcheck disable=SC2046 # the arguments are split at commas on purpose
	if ! VM_TIMEOUT=600 "$here/../vm/run-vm.sh" "$kout" "$base" "$tmp/guest.sh" "$tmp/console.$n" \
		$([[ $args == - ]] || echo "${args//,/ }") "tsc_early_khz=$tsc_khz" > "$tmp/times.$n"; then
		say "$name: the boot failed; its output:"
		sed 's/^/  /' "$tmp/times.$n" >&2
		exit 1
	fi
	clock=$(sed -n 's/^CLOCKSOURCE //p' "$tmp/times.$n")
	[[ $clock == tsc || $clock == tsc-early ]] ||
		{ say "$name: the guest's clock is \"$clock\", not the TSC: its times would be jiffies"; exit 1; }
	for kind in FIRST REPEAT; do
		[[ $(grep -c "^$kind " "$tmp/times.$n") == "$rounds" ]] ||
			{ say "$name: not $rounds $kind loads"; sed 's/^/  /' "$tmp/times.$n" >&2; exit 1; }
	done
done

ref_first=$(kind_median FIRST "$tmp/times.1")
ref_repeat=$(kind_median REPEAT "$tmp/times.1")
echo "Module load: finit_module() of crc7.ko ($(stat -c %s "$build/out/hashes/modules/lib/modules/"*/kernel/lib/crc7.ko 2>/dev/null || echo '?') bytes as hashes installs it), the median of $rounds loads each, under qemu TCG on this machine; ratio to \"none\" in the same run."
echo
echo "| check | first load µs | × none | repeat load µs | × none |"
echo "| --- | --- | --- | --- | --- |"
n=0
for row in "${rows[@]}"; do
	IFS='|' read -r name _ <<< "$row"
	n=$((n + 1))
	first=$(kind_median FIRST "$tmp/times.$n")
	repeat=$(kind_median REPEAT "$tmp/times.$n")
	first_us=$(quotient "$first" 1000)
	first_ratio=$(quotient "$first" "$ref_first")
	repeat_us=$(quotient "$repeat" 1000)
	repeat_ratio=$(quotient "$repeat" "$ref_repeat")
	printf '| %s | %.0f | %.2f | %.0f | %.2f |\n' "$name" \
		"$first_us" "$first_ratio" "$repeat_us" "$repeat_ratio"
done
