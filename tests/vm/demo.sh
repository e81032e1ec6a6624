#!/bin/sh
# Usage: demo.sh KERNEL_OUT BASE_CPIO
# Boot the kernel once with module.sig_enforce=1 and tell, in plain words,
# which test module loaded and which was refused and why.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kout=$1
base=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/guest.sh" <<'GUEST'
#!/bin/sh
. /bin/vmtest.sh
for m in crc7-flipped.ko crc7.ko hello.ko; do
	load_module insmod "/mods/$m"
	if [ "$errno" = OK ]; then
		echo "  $m: loaded, kernel taint $taint"
	else
		why=$(tail -n 1 /tmp/load.log)
		echo "  $m: refused with $errno; kernel log: ${why:-(nothing)}"
	fi
done
GUEST
echo "Booted $(cat "$kout/kernelrelease") ($kout) with module.sig_enforce=1:"
"$here/run-vm.sh" "$kout" "$base" "$work/guest.sh" "$work/console.log" module.sig_enforce=1
