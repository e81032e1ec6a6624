#!/bin/bash
# Usage: run-boot.sh IMAGE CMDLINE TIMEOUT OUTDIR [-- QEMU-ARG...]
# Boot a disk of make-disk.sh once in qemu (TCG, q35, 2 CPUs, 2 GiB,
# virtio disk and network) with its own kernel and initrd (IMAGE's
# .vmlinuz and .initrd next to it) and "root=/dev/vda console=ttyS0
# panic=-1 CMDLINE" as the kernel command line, until the guest powers off
# or TIMEOUT seconds pass.  The disk is used as a snapshot: the image is
# not changed, every boot starts from the same state.  QEMU-ARGs are added
# to qemu's (a TPM, a second disk).
#
# OUTDIR gets console.log, the whole serial console, and the files the
# guest sent on it (FILE-BEGIN/FILE-END, see guest/record-boot.sh).
# Status 0 when the guest's test script got to its end ("distro-test:
# done") and qemu stopped in time, 1 otherwise.
#
# panic=-1 makes a kernel panic and initramfs-tools' panic (no root file
# system, a refused IMA policy) reboot at once, and -no-reboot turns that
# reboot into qemu's exit: a boot that goes wrong ends without waiting
# for TIMEOUT.  A later panic= in CMDLINE wins.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ $# -lt 4 ]]; then
	echo "usage: run-boot.sh IMAGE CMDLINE TIMEOUT OUTDIR [-- QEMU-ARG...]" >&2
	exit 2
fi
image=$1
cmdline=$2
timeout=$3
outdir=$4
shift 4
[[ ${1:-} == -- ]] && shift
base=${image%.img}
for f in "$image" "$base.vmlinuz" "$base.initrd"; do
	[[ -f $f ]] || { echo "run-boot.sh: no $f (make-disk.sh makes it)" >&2; exit 2; }
done

rm -rf "$outdir"
mkdir -p "$outdir"
log=$outdir/console.log
rc=0
"$root/kernel/build/step.sh" "[+] distro boot of $(basename "$image") ($cmdline)" \
	"$((timeout / 60 + 1)) min at most" "$log" \
	timeout -k 10 "$timeout" qemu-system-x86_64 -machine q35 -smp 2 -m 2048 \
	-nographic -monitor none -serial stdio -no-reboot \
	-kernel "$base.vmlinuz" -initrd "$base.initrd" \
	-append "root=/dev/vda console=ttyS0 panic=-1 $cmdline" \
	-drive "file=$image,if=virtio,format=raw,snapshot=on" \
	-nic user,model=virtio-net-pci \
	"$@" < /dev/null || rc=$?

# shellcheck source=../lib/console.sh
. "$root/tests/lib/console.sh"
console_files "$log" "$outdir"
if [[ $rc -eq 124 ]]; then
	echo "run-boot.sh: no power-off within $timeout s" >&2
	exit 1
fi
# grep without -q reads to the end: with pipefail, a grep that stopped at
# the first match would leave tr killed by SIGPIPE on a long console, and
# the pipeline failed.
if ! tr -d '\r' < "$log" | grep -x 'distro-test: done' > /dev/null; then
	echo "run-boot.sh: the guest's test script did not finish (qemu status $rc; $log)" >&2
	exit 1
fi
exit "$rc"
