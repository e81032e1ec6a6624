#!/bin/sh
# Usage: build-base.sh MODLOAD OUTPUT.cpio.gz
# The part of the test initramfs that does not depend on the kernel:
# busybox, the real Debian clients (kmod's insmod/modprobe/modinfo/rmmod,
# keyctl, evmctl, tpm2-tools) with their libraries, our static modload
# helper, /init, and the IMA policies of ima-policy/ in /etc/ima.
# tpm2-tools is one program (/usr/bin/tpm2) under many names; the TSS
# loads its TCTI with dlopen, which ldd does not see: the device TCTI
# (for /dev/tpmrm0, the kernel's resource manager) is copied by name.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
modload=$1
output=$2
root=$output.root
rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/mods"
cp /bin/busybox "$root/bin/busybox"
"$here/copy-program.sh" "$root" /usr/bin/kmod /usr/bin/keyctl /usr/bin/evmctl \
	/usr/bin/tpm2 /lib/x86_64-linux-gnu/libtss2-tcti-device.so.0
for tool in tpm2_createek tpm2_createak tpm2_quote tpm2_flushcontext; do
	ln -s tpm2 "$root/usr/bin/$tool"
done
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
