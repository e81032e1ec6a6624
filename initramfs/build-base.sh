#!/bin/sh
# Usage: build-base.sh MODLOAD OUTPUT.cpio.gz
# The part of the test initramfs that does not depend on the kernel:
# busybox, the real Debian clients (kmod's insmod/modprobe/modinfo/rmmod,
# keyctl, evmctl) with their libraries, our static modload helper, /init,
# and the IMA policies of ima-policy/ in /etc/ima.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
modload=$1
output=$2
root=$output.root
rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/mods"
cp /bin/busybox "$root/bin/busybox"
"$here/copy-program.sh" "$root" /usr/bin/kmod /usr/bin/keyctl /usr/bin/evmctl
for tool in insmod modprobe modinfo rmmod lsmod depmod; do
	ln -s /usr/bin/kmod "$root/sbin/$tool"
done
cp "$modload" "$root/bin/modload"
cp "$here/init" "$root/init"
cp "$here/vmtest.sh" "$root/bin/vmtest.sh"
mkdir -p "$root/etc/ima"
cp "$here/../ima-policy/"*.policy "$root/etc/ima/"
"$here/pack-cpio.sh" "$root" "$output"
rm -rf "$root"
