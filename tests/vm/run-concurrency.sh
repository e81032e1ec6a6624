#!/bin/bash
# Usage: run-concurrency.sh BUILD_DIR ITERATIONS VARIANT...
# Concurrent loads, in TAP.  In one boot of each VARIANT with two virtual
# CPUs (both online: run-vm.sh checks), module.sig_enforce=1 and
# preempt=full (read back from /sys/kernel/debug/sched/preempt), four
# workers run at once, ITERATIONS times each (make check: 50, make
# check-full: 200), first without and then with the shipped IMA policy:
#  - worker 1..3 load their own listed module (crc4, crc8, crc-itu-t as
#    installed) through finit_module() and init_module() in turn and
#    unload it; worker 4 does the same with crc7 and adds the kernel's
#    decompressor (finit_module(MODULE_INIT_COMPRESSED_FILE) of
#    crc7.ko.xz, or .zst where the kernel decompresses zstd);
#  - in every iteration each worker also tries crc7 with one byte changed
#    and the unlisted hello.ko, alternating finit_module() and
#    init_module().
# Every outcome is checked, not sampled: each listed load OK and its
# rmmod done, each refusal the mode's errno (EKEYREJECTED without the
# policy; under it EACCES from IMA through finit_module(), and
# EKEYREJECTED from the loader through init_module(), as in the verdict
# matrix's enforce+ima rows); at the end no test module is left in
# /proc/modules, the kernel is untainted, and the boot ended cleanly with
# no warning, BUG or refcount error on the console (run-vm.sh).
# The loads must really have run at the same time: modload --span times
# each syscall (CLOCK_MONOTONIC, around the syscall itself) with the CPU
# before and after it, and a stage passes only if loads of two different
# workers, each on one CPU throughout, overlapped in time on two CPUs.
# On a kernel with kmemleak (the debug variant) more tests: the checkers
# are on (KASAN's, lockdep's and kmemleak's boot lines, panic_on_warn=1),
# and what the workers allocated and lost, kmemleak's report cleared
# before they start and scanned after them, each scan accepted.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
iterations=$2
shift 2
work=$build/test-results/concurrency
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/vm-scenario.sh"

stages="plain ima"
kmemleak() {	# kmemleak VARIANT: its kernel finds leaks (CONFIG_DEBUG_KMEMLEAK)
	grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "$build/out/$1/config" 2> /dev/null
}
plan=0
for variant in "$@"; do
	plan=$((plan + 2 * 4 + 3))
	kmemleak "$variant" && plan=$((plan + 3))
done
tap_plan $plan

# What modload --span adds to a result: the syscall's start and end (ns)
# and the CPU before and after it.
span=' [0-9]+ [0-9]+ -?[0-9]+ -?[0-9]+'

# overlapping_pairs STAGE < OUTPUT: "N FIRST-LINE / SECOND-LINE": how many
# pairs of loads by two different workers, each on one CPU before and
# after its syscall, overlapped in time on two different CPUs, and one
# such pair.
overlapping_pairs() {
	awk -v stage="$1" '
		$1 == stage && ($2 == "LISTED" || $2 == "FLIPPED" || $2 == "UNLISTED") && NF == 9 && $8 == $9 && $8 >= 0 {
			n++; w[n] = $3; s[n] = $6; e[n] = $7; c[n] = $8; line[n] = $0
		}
		END {
			pairs = 0
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (w[i] != w[j] && c[i] != c[j] && s[i] < e[j] && s[j] < e[i]) {
						if (!pairs) example = line[i] " / " line[j]
						pairs++
					}
			print pairs " " example
		}'
}

cat > "$work/concurrency.sh.in" <<GUEST
#!/bin/sh
. /bin/vmtest.sh
iterations=$iterations
GUEST
cat >> "$work/concurrency.sh.in" <<'GUEST'
release=$(uname -r)
installed() { find /lib/modules/$release -name "$1.ko" | head -n 1; }
compressed=/mods/crc7.ko.$COMPRESSION

# worker NAME FILE: the loop of one worker; one line per attempt.
worker() {
	i=0
	while [ $i -lt $iterations ]; do
		case $((i % 3)) in
		0) path=finit; file=$2 ;;
		1) path=init; file=$2 ;;
		2) if [ $1 = crc7 ]; then path=finit-compressed; file=$compressed; else path=finit; file=$2; fi ;;
		esac
		echo "LISTED $1 $path $(modload --span $path $file 2>/dev/null)"
		if rmmod $1 2>/dev/null; then echo "UNLOADED $1"; else echo "STUCK $1"; fi
		if [ $((i % 2)) = 0 ]; then path=finit; else path=init; fi
		echo "FLIPPED $1 $path $(modload --span $path /mods/crc7-flipped.ko 2>/dev/null)"
		echo "UNLISTED $1 $path $(modload --span $path /mods/hello.ko 2>/dev/null)"
		i=$((i + 1))
	done
}

# kmemleak, where the kernel has it: forget what the boot left before
# the workers start.
leaks=/sys/kernel/debug/kmemleak
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
echo "CPUS $(cat /sys/devices/system/cpu/online)"
echo "PREEMPT $(cat /sys/kernel/debug/sched/preempt 2>&1)"
echo "PANIC_ON_WARN $(cat /proc/sys/kernel/panic_on_warn)"
dmesg | grep -E 'KernelAddressSanitizer initialized|Lock dependency validator|kmemleak: Kernel memory leak detector' |
	sed 's/^\[ *[0-9.]*\] //; s/^/CHECKER /'
if [ -f $leaks ]; then
	if echo clear > $leaks; then echo LEAKS-CLEARED; else echo LEAKS-CLEAR-REFUSED; fi
fi
for stage in plain ima; do
	if [ $stage = ima ]; then
		cat /etc/ima/modules-allowlist.policy > /sys/kernel/security/ima/policy || echo POLICY-REFUSED
	fi
	for m in crc4 crc8 crc_itu_t crc7; do
		worker $m "$(installed $(echo $m | tr _ -))" > /tmp/worker.$m &
	done
	wait
	sed "s/^/$stage /" /tmp/worker.*
	grep -E '^(crc4|crc7|crc8|crc_itu_t) ' /proc/modules | sed "s/^/$stage LEFT /"
	echo "$stage TAINT $(cat /proc/sys/kernel/tainted)"
done
# kmemleak reports objects older than 5 s that nothing points to, after
# a scan; a second scan drops those it saw referenced since.
if [ -f $leaks ]; then
	sleep 6
	if echo scan > $leaks && echo scan > $leaks; then echo SCANNED; else echo SCAN-REFUSED; fi
	echo "LEAKS $(grep -c '^unreferenced object' $leaks)"
	sed 's/^/LEAK /' $leaks | head -n 40
fi
GUEST

# A longer timeout for the longer runs (run-vm.sh gives every guest two
# virtual CPUs and checks that both are online).
export VM_TIMEOUT=$((120 + 3 * iterations))
for variant in "$@"; do
	# The format of the kernel's own decompressor: zstd or xz.
	compression=xz
	grep -q '^CONFIG_MODULE_COMPRESS_ZSTD=y' "$build/out/$variant/config" 2> /dev/null && compression=zst
	sed "s/^iterations=.*/&\nCOMPRESSION=$compression/" "$work/concurrency.sh.in" > "$work/$variant.sh"
	boot "$variant" "$variant" module.sig_enforce=1 preempt=full
	out=$work/$variant.out
	for stage in $stages; do
		# $stage: what a refusal gets, through finit and through init.
		if [[ $stage == plain ]]; then
			finit=EKEYREJECTED init=EKEYREJECTED
		else
			finit=EACCES init=EKEYREJECTED
		fi
		listed=$(grep -c "^$stage LISTED " "$out")
		listed_ok=$(grep -cE "^$stage LISTED [a-z_0-9]+ (finit|init|finit-compressed) OK$span\$" "$out")
		unloaded=$(grep -c "^$stage UNLOADED " "$out")
		[[ $listed == $((4 * iterations)) && $listed_ok == "$listed" && $unloaded == "$listed" ]]
		tap $? "$variant, $stage: $listed_ok of $((4 * iterations)) concurrent loads of listed modules (finit, init, decompressor) OK, $unloaded unloaded"
		[[ $listed_ok == "$listed" ]] ||
			grep "^$stage LISTED" "$out" | grep -vE " OK$span\$" | cut -d' ' -f1-5 | sort | uniq -c | head -n 5 | sed 's/^/# /'
		refused=$(grep -cE "^$stage (FLIPPED|UNLISTED) " "$out")
		right=$(grep -cE "^$stage (FLIPPED|UNLISTED) [a-z_0-9]+ (finit ($finit)|init ($init))$span\$" "$out")
		[[ $refused == $((8 * iterations)) && $right == "$refused" ]]
		tap $? "$variant, $stage: $right of $((8 * iterations)) concurrent loads of a changed crc7 and of unlisted hello.ko refused (finit $finit, init $init)"
		[[ $right == "$refused" ]] ||
			grep -E "^$stage (FLIPPED|UNLISTED) " "$out" | cut -d' ' -f1-5 | sort | uniq -c | sed 's/^/# /'
		overlaps=$(overlapping_pairs "$stage" < "$out")
		[[ ${overlaps%% *} -gt 0 ]]
		tap $? "$variant, $stage: loads of different workers ran at the same time on two CPUs (${overlaps%% *} overlapping pairs)"
		[[ ${overlaps%% *} -gt 0 ]] && echo "# for instance: ${overlaps#* }"
		! grep -q "^$stage LEFT " "$out" && grep -qx "$stage TAINT 0" "$out" && [[ $(cat "$work/$variant.rc") == 0 ]]
		tap $? "$variant, $stage: no module left loaded, kernel untainted"
	done
	grep -q '^POLICY-REFUSED$' "$out"
	[[ $? != 0 && $(cat "$work/$variant.rc") == 0 ]]
	tap $? "$variant: the IMA policy was accepted and the boot ended cleanly (no warning, BUG or refcount error)"
	grep -qx 'CPUS 0-1' "$out" && grep -qE '^PREEMPT .*\(full\)' "$out"
	tap $? "$variant: two CPUs online, preemption model full ($(sed -n 's/^PREEMPT //p' "$out"))"
	[[ $(cat "$work/$variant.rc") == 0 ]] || grep '^# ' "$out" | head -n 20
	if kmemleak "$variant"; then
		grep -q '^CHECKER .*KernelAddressSanitizer initialized' "$out" &&
			grep -q '^CHECKER .*Lock dependency validator' "$out" &&
			grep -q '^CHECKER .*kmemleak: Kernel memory leak detector' "$out"
		tap $? "$variant: KASAN, lockdep and kmemleak said at boot that they are on"
		grep -qx 'PANIC_ON_WARN 1' "$out" && grep -qx LEAKS-CLEARED "$out" && grep -qx SCANNED "$out"
		tap $? "$variant: panic_on_warn is 1, kmemleak took the clear before the workers and both scans after them"
		grep -qx 'LEAKS 0' "$out" && [[ $(cat "$work/$variant.rc") == 0 ]]
		tap $? "$variant: kmemleak found nothing the $((12 * iterations * 2)) loads and refusals lost ($(sed -n 's/^LEAKS //p' "$out") reported)"
		grep '^LEAK ' "$out" | head -n 40 | sed 's/^/# /'
	fi
	saw_any=$(grep -cE " OK$span\$" "$out")
	[[ $saw_any -gt 0 ]]
	tap $? "$variant: the guest ran the workers ($saw_any successful loads in all)"
done
