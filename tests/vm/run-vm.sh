#!/bin/sh
# Usage: run-vm.sh KERNEL_OUT BASE_CPIO GUEST_SCRIPT CONSOLE_LOG [KERNEL_ARG...]
# Boot the kernel published in KERNEL_OUT (bzImage, modules.cpio.gz) under
# qemu with the base initramfs, that kernel's modules and GUEST_SCRIPT as
# /test.sh, and the extra kernel command line arguments.  The whole
# serial console goes to CONSOLE_LOG; what the guest script printed (TAP)
# goes to stdout.  $VM_KERNEL boots another image instead of
# KERNEL_OUT/bzImage (a vmlinux, through its PVH entry point); $VM_UKI
# boots it as a unified kernel image from an EFI system partition (below).
# $VM_QEMU_ARGS adds qemu options (split at spaces), e.g. a TPM device.
#
# Exits non-zero unless the boot ended cleanly, and then says why in TAP
# comments after the guest's output (with the end of the console):
#  - qemu did not exit with the status of a guest that powered off (0,
#    with -no-reboot) : a hang killed after $VM_TIMEOUT seconds (default
#    120; status 124), or qemu itself failing;
#  - the guest's end marker "VMTEST-END rc=0" is missing: a panic, a
#    guest script that stopped or exited non-zero;
#  - the console shows a kernel warning or crash (tests/lib/console.sh),
#    even one the guest script lived through;
#  - the guest, which qemu gives two CPUs (-smp 2), did not have both
#    online (initramfs/init prints them): every test kernel is SMP, as
#    distribution kernels are, and a test that meant two CPUs must not
#    quietly run on one.
# Callers must fail whatever test was running when this fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/console.sh"
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

# TCG only: /dev/kvm exists on these machines but hangs.  loglevel=5 puts
# warnings (KERN_WARNING) on the console: a WARN() prints its "WARNING:"
# line at that level, and the console is where console_trouble looks.
timeout=${VM_TIMEOUT:-120}
cmdline="console=ttyS0 panic=-1 loglevel=5 tsc=reliable $*"
kernel=${VM_KERNEL:-$kout/bzImage}
if [ -n "${VM_UKI:-}" ]; then
	# Firmware that must verify what it starts (UEFI secure boot) gets a
	# unified kernel image, the EFI stub $VM_UKI (systemd-boot-efi's
	# linuxx64.efi.stub) with the kernel, initrd and command line as
	# sections, signed with $VM_UKI_KEY and $VM_UKI_CERT when they are
	# set, as the removable-media boot file of an EFI system partition
	# (qemu's vvfat): qemu's -kernel would let OVMF fall back to an
	# unverified legacy start.
	mkdir -p "$work/esp/EFI/BOOT"
	printf '%s' "$cmdline" > "$work/cmdline"
	objcopy --add-section .cmdline="$work/cmdline" --change-section-vma .cmdline=0x30000 \
		--add-section .linux="$kernel" --change-section-vma .linux=0x2000000 \
		--add-section .initrd="$work/initrd" --change-section-vma .initrd=0x3000000 \
		"$VM_UKI" "$work/uki.efi"
	if [ -n "${VM_UKI_KEY:-}" ]; then
		sbsign --key "$VM_UKI_KEY" --cert "$VM_UKI_CERT" \
			--output "$work/esp/EFI/BOOT/BOOTX64.EFI" "$work/uki.efi" > /dev/null
	else
		cp "$work/uki.efi" "$work/esp/EFI/BOOT/BOOTX64.EFI"
	fi
	set -- -drive "file=fat:rw:$work/esp,format=raw"
else
	set -- -kernel "$kernel" -initrd "$work/initrd" -append "$cmdline"
fi
qemu_status=0
# Two CPUs as two sockets: qemu's default puts them in one socket as two
# cores, and SeaBIOS's MP table (all a kernel without ACPI, like
# "hashes", sees) lists one processor per socket.
timeout "$timeout" qemu-system-x86_64 -accel tcg -cpu max -smp 2,sockets=2,cores=1,threads=1 -m 512 \
	-nographic -no-reboot -nodefaults -serial stdio "$@" \
	${VM_QEMU_ARGS:-} \
	< /dev/null > "$console" 2>&1 || qemu_status=$?

# The firmware's escape sequences may precede the begin marker on its line.
guest_output() {
	tr -d '\r' < "$console" | sed -n '/VMTEST-BEGIN$/,/^VMTEST-END/p' | sed '1d;$d'
}

# Why the boot did not end cleanly, one reason a line; nothing if it did.
# The guest's "reboot -f" makes qemu (-no-reboot) exit with status 0; so
# does a panic (panic=-1 reboots at once), which the marker tells apart.
problems() {
	case $qemu_status in
	0) ;;
	124) echo "qemu killed after ${timeout} s (VM_TIMEOUT): the guest hung" ;;
	*) echo "qemu exited with status $qemu_status" ;;
	esac
	end=$(tr -d '\r' < "$console" | grep -a '^VMTEST-END' | tail -n 1)
	case $end in
	'VMTEST-END rc=0') ;;
	'') echo "no VMTEST-END marker: the guest did not finish (panic, hang or crash)" ;;
	*) echo "the guest script ended badly: $end" ;;
	esac
	cpus=$(tr -d '\r' < "$console" | sed -n 's/^VMTEST-CPUS //p' | tail -n 1)
	[ -z "$end" ] || [ "$cpus" = 0-1 ] ||
		echo "the guest had CPUs \"${cpus:-none reported}\" online, not both of its two (0-1)"
	if console_trouble "$console" > "$work/trouble"; then
		echo "kernel warning or crash on the console:"
		sed 's/^/  line /' "$work/trouble" | head -n 20
	fi
}

guest_output
problems > "$work/problems"
if [ -s "$work/problems" ]; then
	echo "# run-vm: the boot of $kout ($*) did not end cleanly:"
	sed 's/^/# run-vm: /' "$work/problems"
	echo "# run-vm: end of its console ($console):"
	tr -d '\r' < "$console" | tail -n 40 | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g; s/^/#   /'
	exit 1
fi
