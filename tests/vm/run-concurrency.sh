#!/bin/bash
# Usage: run-concurrency.sh BUILD_DIR ITERATIONS VARIANT...
# Concurrent loads, in TAP.  In one boot of each VARIANT with two virtual
# CPUs and module.sig_enforce=1, four workers run at once, ITERATIONS
# times each (make check: 50, make check-full: 200), first without and
# then with the shipped IMA policy:
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
# matrix's enforce+ima rows); at the end no test module is left in /proc/modules, the kernel
# is untainted, and the boot ended cleanly with no warning, BUG or
# refcount error on the console (run-vm.sh).  On a kernel with kmemleak
# (the debug variant) one more test: what the workers allocated and lost,
# kmemleak's report cleared before they start and scanned after them.
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
	plan=$((plan + 2 * 3 + 2))
	kmemleak "$variant" && plan=$((plan + 1))
done
tap_plan $plan

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
		echo "LISTED $1 $path $(modload $path $file 2>/dev/null)"
		if rmmod $1 2>/dev/null; then echo "UNLOADED $1"; else echo "STUCK $1"; fi
		if [ $((i % 2)) = 0 ]; then path=finit; else path=init; fi
		echo "FLIPPED $path $(modload $path /mods/crc7-flipped.ko 2>/dev/null)"
		echo "UNLISTED $path $(modload $path /mods/hello.ko 2>/dev/null)"
		i=$((i + 1))
	done
}

# kmemleak, where the kernel has it: forget what the boot left before
# the workers start.
leaks=/sys/kernel/debug/kmemleak
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
[ -f $leaks ] && echo clear > $leaks
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
	echo scan > $leaks
	echo scan > $leaks
	echo "LEAKS $(grep -c '^unreferenced object' $leaks)"
	sed 's/^/LEAK /' $leaks | head -n 40
fi
GUEST

# Two virtual CPUs, so that the workers really run at once; a longer
# timeout for the longer runs.
export VM_QEMU_ARGS="-smp 2" VM_TIMEOUT=$((120 + 3 * iterations))
for variant in "$@"; do
	# The format of the kernel's own decompressor: zstd or xz.
	compression=xz
	grep -q '^CONFIG_MODULE_COMPRESS_ZSTD=y' "$build/out/$variant/config" 2> /dev/null && compression=zst
	sed "s/^iterations=.*/&\nCOMPRESSION=$compression/" "$work/concurrency.sh.in" > "$work/$variant.sh"
	boot "$variant" "$variant" module.sig_enforce=1
	out=$work/$variant.out
	for stage in $stages; do
		# $stage: what a refusal gets, through finit and through init.
		if [[ $stage == plain ]]; then
			finit=EKEYREJECTED init=EKEYREJECTED
		else
			finit=EACCES init=EKEYREJECTED
		fi
		listed=$(grep -c "^$stage LISTED " "$out")
		listed_ok=$(grep -cE "^$stage LISTED [a-z_0-9]+ (finit|init|finit-compressed) OK$" "$out")
		unloaded=$(grep -c "^$stage UNLOADED " "$out")
		[[ $listed == $((4 * iterations)) && $listed_ok == "$listed" && $unloaded == "$listed" ]]
		tap $? "$variant, $stage: $listed_ok of $((4 * iterations)) concurrent loads of listed modules (finit, init, decompressor) OK, $unloaded unloaded"
		[[ $listed_ok == "$listed" ]] ||
			grep "^$stage LISTED" "$out" | grep -v ' OK$' | sort | uniq -c | head -n 5 | sed 's/^/# /'
		refused=$(grep -cE "^$stage (FLIPPED|UNLISTED) " "$out")
		right=$(grep -cE "^$stage (FLIPPED|UNLISTED) (finit ($finit)|init ($init))$" "$out")
		[[ $refused == $((8 * iterations)) && $right == "$refused" ]]
		tap $? "$variant, $stage: $right of $((8 * iterations)) concurrent loads of a changed crc7 and of unlisted hello.ko refused (finit $finit, init $init)"
		[[ $right == "$refused" ]] ||
			grep -E "^$stage (FLIPPED|UNLISTED) " "$out" | sort | uniq -c | sed 's/^/# /'
		! grep -q "^$stage LEFT " "$out" && grep -qx "$stage TAINT 0" "$out" && [[ $(cat "$work/$variant.rc") == 0 ]]
		tap $? "$variant, $stage: no module left loaded, kernel untainted"
	done
	grep -q '^POLICY-REFUSED$' "$out"
	[[ $? != 0 && $(cat "$work/$variant.rc") == 0 ]]
	tap $? "$variant: the IMA policy was accepted and the boot ended cleanly (no warning, BUG or refcount error)"
	[[ $(cat "$work/$variant.rc") == 0 ]] || grep '^# ' "$out" | head -n 20
	if kmemleak "$variant"; then
		grep -qx 'LEAKS 0' "$out" && [[ $(cat "$work/$variant.rc") == 0 ]]
		tap $? "$variant: kmemleak found nothing the $((12 * iterations * 2)) loads and refusals lost ($(sed -n 's/^LEAKS //p' "$out") reported)"
		grep '^LEAK ' "$out" | head -n 40 | sed 's/^/# /'
	fi
	saw_any=$(grep -c ' OK$' "$out")
	[[ $saw_any -gt 0 ]]
	tap $? "$variant: the guest ran the workers ($saw_any successful loads in all)"
done
