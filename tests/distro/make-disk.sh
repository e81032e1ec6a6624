#!/bin/bash
# Usage: make-disk.sh [--policy FILE] [--test SCRIPT] [--share DIR] ROOTFS.tar OUT.img DEB...
# Make the bootable disk of the distro tests: the root file system of
# make-rootfs.sh with the kernel packages DEB... installed by dpkg inside
# it, so that the kernel's maintainer scripts run update-initramfs as on
# any Debian machine, as an ext4 image (root on /dev/vda) made without
# mounting (mkfs.ext4 -d).  Next to OUT.img it leaves the installed
# kernel and initrd, OUT.vmlinuz and OUT.initrd, for qemu's -kernel and
# -initrd (run-boot.sh).
#
#   --policy FILE  the IMA policy, installed as /etc/modhash/ima-policy:
#                  the initramfs-tools hook puts it in the initrd and the
#                  init-top script loads it before the first module.
#                  Without it the initrd has the script but no policy.
#   --test SCRIPT  the test the guest runs once booted, as
#                  /usr/local/sbin/distro-test (default:
#                  guest/record-boot.sh); the unit guest/distro-test.service
#                  runs it and powers off.
#   --share DIR    what the distro suite's loads need (tests/distro/
#                  run-distro.sh makes it), copied to
#                  /usr/local/share/distro-test; with it the disk also gets
#                  guest/loads.sh and guest/measured.sh as
#                  /usr/local/sbin/distro-loads and distro-measured, which
#                  record-boot.sh runs.
#
# The work tree, OUT.img.root, is removed at the end; logs of the long
# steps are OUT-dpkg.log and OUT-mkfs.log.  Runs as root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
step=$root/kernel/build/step.sh

policy=
share=
test_script=$here/guest/record-boot.sh
while [[ $# -gt 0 && $1 == --* ]]; do
	case $1 in
	--policy) policy=$2; shift 2 ;;
	--test) test_script=$2; shift 2 ;;
	--share) share=$2; shift 2 ;;
	*) echo "make-disk.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
if [[ $# -lt 3 ]]; then
	echo "usage: make-disk.sh [--policy FILE] [--test SCRIPT] [--share DIR] ROOTFS.tar OUT.img DEB..." >&2
	exit 2
fi
rootfs=$1
out=$2
shift 2
debs=("$@")
base=${out%.img}
dir=$out.root
name=$(basename "$out")

# Bind mounts in the work tree come off whatever happens.
mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
	done
	mounts=()
}
trap cleanup EXIT

rm -rf "$dir" "$out" "$base.vmlinuz" "$base.initrd"
mkdir -p "$dir"
echo "[+] distro disk $name: unpacking $(basename "$rootfs")"
tar --xattrs --xattrs-include='*' --numeric-owner -xpf "$rootfs" -C "$dir"

# --- what has to be there before the kernel's postinst builds the initrd

# The initramfs-tools pieces, where a package would put them.
it=$root/initramfs/initramfs-tools
install -m 0755 "$it/hooks/ima-policy" "$dir/usr/share/initramfs-tools/hooks/ima-policy"
install -m 0755 "$it/scripts/init-top/ima-policy" \
	"$dir/usr/share/initramfs-tools/scripts/init-top/ima-policy"
if [[ -n $policy ]]; then
	install -D -m 0644 "$policy" "$dir/etc/modhash/ima-policy"
fi
# MODULES=most (Debian's default, kept): every file system and block
# driver goes into the initrd, ext4 and virtio_blk among them.  MODULES=dep
# would look at the machine the initrd is built on, here a chroot on the
# build host, and miss the guest's disk driver.  The modules are not
# listed in /etc/initramfs-tools/modules either: udev loads virtio_blk for
# the disk it finds and mount loads ext4, as on a real machine.
grep -qx 'MODULES=most' "$dir/etc/initramfs-tools/initramfs.conf"

# --- the system's own configuration

echo "/dev/vda / ext4 errors=remount-ro 0 1" > "$dir/etc/fstab"
echo distro-test > "$dir/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tdistro-test\n' > "$dir/etc/hosts"
# A fixed machine id: with an empty one every boot of the (snapshot) disk
# is a first boot, and systemd-firstboot would wait for answers on the
# console.
echo 5d1c5e0a4f0b4c6a9e2d7b3f8a6c1e90 > "$dir/etc/machine-id"
# The root password stays locked (mmdebstrap leaves "*"): nobody logs in,
# the test unit does the work.  The serial getty is masked: its login
# prompt would only interleave with the test's output on the console.
chroot "$dir" passwd -q -l root
ln -sf /dev/null "$dir/etc/systemd/system/serial-getty@ttyS0.service"
install -D -m 0755 "$test_script" "$dir/usr/local/sbin/distro-test"
install -m 0644 "$here/guest/distro-test.service" "$dir/etc/systemd/system/distro-test.service"
if [[ -n $share ]]; then
	mkdir -p "$dir/usr/local/share"
	cp -r "$share" "$dir/usr/local/share/distro-test"
	install -m 0755 "$here/guest/loads.sh" "$dir/usr/local/sbin/distro-loads"
	install -m 0755 "$here/guest/measured.sh" "$dir/usr/local/sbin/distro-measured"
fi
ln -sf ../distro-test.service "$dir/etc/systemd/system/multi-user.target.wants/distro-test.service"

# --- the kernel packages, as dpkg installs them on any Debian system

mkdir -p "$dir/tmp/debs"
cp "${debs[@]}" "$dir/tmp/debs/"
in_chroot=()
for d in "${debs[@]}"; do
	in_chroot+=("/tmp/debs/$(basename "$d")")
done
for m in proc sys dev; do
	case $m in
	proc) mount -t proc proc "$dir/proc" ;;
	sys) mount -t sysfs sysfs "$dir/sys" ;;
	dev) mount --bind /dev "$dir/dev" ;;
	esac
	mounts+=("$dir/$m")
done
# No service starts inside the chroot.
printf '#!/bin/sh\nexit 101\n' > "$dir/usr/sbin/policy-rc.d"
chmod 0755 "$dir/usr/sbin/policy-rc.d"
"$step" "[+] distro disk $name: dpkg -i ${#debs[@]} package(s), update-initramfs" \
	"1 min" "$base-dpkg.log" \
	chroot "$dir" env DEBIAN_FRONTEND=noninteractive dpkg -i "${in_chroot[@]}"
rm -f "$dir/usr/sbin/policy-rc.d"
rm -rf "$dir/tmp/debs"

# The initrd must hold the disk and file system drivers and the policy
# script (and the policy when there is one): say so now rather than in a
# boot that cannot find its root.
shopt -s nullglob
kernels=("$dir"/boot/vmlinuz-*)
initrds=("$dir"/boot/initrd.img-*)
if [[ ${#kernels[@]} -ne 1 || ${#initrds[@]} -ne 1 ]]; then
	echo "make-disk.sh: expected one kernel and one initrd in /boot, found: ${kernels[*]} ${initrds[*]}" >&2
	exit 1
fi
listing=$(chroot "$dir" lsinitramfs "/boot/$(basename "${initrds[0]}")")
want=(/virtio_blk.ko /ext4.ko scripts/init-top/ima-policy)
[[ -n $policy ]] && want+=(etc/modhash/ima-policy)
for w in "${want[@]}"; do
	if ! grep -q -- "$w" <<< "$listing"; then
		echo "make-disk.sh: the initrd has no $w" >&2
		exit 1
	fi
done
cleanup

cp "${kernels[0]}" "$base.vmlinuz"
cp "${initrds[0]}" "$base.initrd"

# Room for what the tests add (headers, DKMS builds): the tree and 1 GiB.
size_mb=$(( $(du -sm "$dir" | cut -f1) * 5 / 4 + 1024 ))
"$step" "[+] distro disk $name: mkfs.ext4 -d, $size_mb MiB" "1 min" "$base-mkfs.log" \
	mkfs.ext4 -F -L root -d "$dir" "$out" "${size_mb}M"
rm -rf "$dir"
echo "[+] distro disk $name: $out, $(basename "$base.vmlinuz"), $(basename "$base.initrd")"
