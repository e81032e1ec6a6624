#!/bin/bash
# Usage: demo.sh KERNEL_OUT BASE_CPIO
# Show the built-in allowlist at work on a kernel that has one (the
# "hashes" variant): boot it twice, once with module.sig_enforce=1 and
# once with the shipped IMA policy (ima-policy/modules-allowlist.policy),
# and load through kmod's insmod
#   crc7.ko          the module as this build installed it (on the list),
#   crc7-flipped.ko  the same file with one byte changed,
#   crc7-other.ko    crc7 compiled again outside this build;
# for each: its SHA-256, whether that digest is on the list the kernel
# shows in securityfs, the verdict and the kernel's log line.  Under the
# IMA policy, root then tries to vouch for crc7-flipped.ko itself: it
# makes a "_ima" keyring with a key of its own and signs the module for
# IMA (security.ima, evmctl); IMA's keyring takes only keys the kernel
# trusts (CONFIG_INTEGRITY_TRUSTED_KEYRING), so that is refused too.
# Exits non-zero when a verdict is not the expected one (crc7.ko loads,
# the others are refused).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kout=$1
base=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=/sys/kernel/security/ima/module_hashes

# guest_script SETUP [AFTER]: the guest's /test.sh, running SETUP before
# the loads and AFTER after them.
guest_script() {
	cat <<GUEST
#!/bin/sh
. /bin/vmtest.sh
$1
echo "  The kernel's list: \$(head -n 1 $list | sed 's/^# //')"
unexpected=0
for m in crc7.ko:loads crc7-flipped.ko:refused crc7-other.ko:refused; do
	file=/mods/\${m%%:*}
	want=\${m##*:}
	digest=\$(sha256sum "\$file" | cut -d' ' -f1)
	if grep -qx "sha256:\$digest" $list; then on="on the list"; else on="NOT on the list"; fi
	load_module insmod "\$file"
	echo
	echo "  \${file##*/}: sha256:\$digest (\$on)"
	if [ "\$errno" = OK ]; then
		echo "    insmod: loaded, /proc/sys/kernel/tainted = \$taint"
		got=loads
		/sbin/rmmod "\$name"
	else
		echo "    insmod: refused, \$errno"
		got=refused
	fi
	sed 's/^\[ *[0-9.]*\] //; s/^/    kernel: /' /tmp/load.log
	[ "\$got" = "\$want" ] || { echo "    UNEXPECTED: this module should be \$want"; unexpected=1; }
done
${2-}
exit \$unexpected
GUEST
}

# Root's own signature on crc7-flipped.ko (initramfs/vmtest.sh, imasig_load).
rootkey_attempt() {
	cat <<'GUEST'
load_module ima-rootkey-finit /mods/crc7-flipped.ko
echo
echo "  crc7-flipped.ko again, now signed for IMA by root with a key of its own"
echo "  (a \"_ima\" keyring root made, evmctl ima_sign on tmpfs):"
if [ "$errno" = OK ]; then
	echo "    finit_module: loaded, /proc/sys/kernel/tainted = $taint"
	echo "    UNEXPECTED: root vouched for a module of its own"
	unexpected=1
else
	echo "    finit_module: refused, $errno"
fi
sed 's/^\[ *[0-9.]*\] //; s/^/    kernel: /' /tmp/load.log
GUEST
}

release=$(cat "$kout/kernelrelease")
echo
echo "Kernel $release ($kout): its build hashed its own modules into vmlinux."
echo
echo "1. Booted with module.sig_enforce=1: the loader accepts a module whose"
echo "   digest is on the built-in list (or that has a valid signature; this"
echo "   kernel has no signing key at all) and refuses anything else."
guest_script ': no setup' > "$work/enforce.sh"
"$here/run-vm.sh" "$kout" "$base" "$work/enforce.sh" "$work/enforce.console" module.sig_enforce=1
echo
echo "2. Booted with IMA's module appraisal policy (ima-policy/modules-allowlist.policy):"
echo "   IMA passes a module whose digest is on the list, or that a key the"
echo "   kernel trusts signed for IMA (none here), and refuses the rest."
guest_script 'cat /etc/ima/modules-allowlist.policy > /sys/kernel/security/ima/policy' \
	"$(rootkey_attempt)" > "$work/ima.sh"
"$here/run-vm.sh" "$kout" "$base" "$work/ima.sh" "$work/ima.console"
echo
echo "The running kernel shows its list in $list"
echo "(one sha256:<hex> line per digest, root only).  Next: README.md, \"Quick"
echo "start\" (make check, make check-full) and NOTES.md, \"Verdict table\"."
