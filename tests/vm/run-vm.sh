#!/bin/sh
# Usage: run-vm.sh KERNEL_OUT BASE_CPIO GUEST_SCRIPT CONSOLE_LOG [KERNEL_ARG...]
# Boot the kernel published in KERNEL_OUT (bzImage, modules.cpio.gz) under
# qemu with the base initramfs, that kernel's modules and GUEST_SCRIPT as
# /test.sh, and the extra kernel command line arguments.  The whole
# serial console goes to CONSOLE_LOG; what the guest script printed (TAP)
# goes to stdout.  Exits non-zero, after showing the console, when the
# guest did not finish: a panic, a hang past $VM_TIMEOUT seconds (default
# 120), or a script that exited non-zero.  $VM_KERNEL boots another image
# instead of KERNEL_OUT/bzImage (a vmlinux, through its PVH entry point).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kout=$1
base=$2
script=$3
console=$4
shift 4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/root"
cp "$script" "$work/root/test.sh"
chmod +x "$work/root/test.sh"
"$here/../../initramfs/pack-cpio.sh" "$work/root" "$work/test.cpio.gz"
cat "$base" "$kout/modules.cpio.gz" "$work/test.cpio.gz" > "$work/initrd"

# TCG only: /dev/kvm exists on these machines but hangs.
timeout "${VM_TIMEOUT:-120}" qemu-system-x86_64 -accel tcg -cpu max -m 512 \
	-nographic -no-reboot -nodefaults -serial stdio \
	-kernel "${VM_KERNEL:-$kout/bzImage}" -initrd "$work/initrd" \
	-append "console=ttyS0 panic=-1 loglevel=4 tsc=reliable $*" \
	< /dev/null > "$console" 2>&1 || true

# The firmware's escape sequences may precede the begin marker on its line.
guest_output() {
	tr -d '\r' < "$console" | sed -n '/VMTEST-BEGIN$/,/^VMTEST-END/p' | sed '1d;$d'
}
if ! tr -d '\r' < "$console" | grep -q '^VMTEST-END rc=0$'; then
	echo "# guest did not finish cleanly; console of $kout ($*):"
	tr -d '\r' < "$console" | sed 's/^/#   /'
	guest_output
	exit 1
fi
guest_output
