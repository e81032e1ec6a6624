#!/bin/bash
# Usage: run-allowlist.sh BUILD_DIR
# What the built-in allowlist of the "hashes" kernel shows and does beyond
# single loads, in TAP:
#  - securityfs ima/module_hashes lists exactly the digests of the build's
#    .module-hashes.bin, is readable by root only (0440, as IMA's
#    measurement lists) and refuses writes;
#  - the list is measured as critical data (ima_policy=critical_data at
#    boot, and ima-policy/measure-modules.policy loaded at run time, which
#    also measures the module loads);
#  - a damaged list inside vmlinux is refused at boot with its reason,
#    measured as refused (ima_policy=critical_data), and then no module
#    passes through it (fail closed), on hashes and, where
#    module signatures remain, on hashes+sig;
#  - the same fail-closed under the shipped IMA policy alone (no
#    module.sig_enforce, no lockdown): with a damaged list IMA refuses a
#    listed module through finit_module(), init_module() and the kernel's
#    decompressor with EACCES, saying the list is not in use, while the
#    same loads from the same vmlinux copy with its list intact pass;
#  - one byte changed inside one digest, the list still in order: the
#    list is used, that module is refused and the others still load.
# Every test fails when the boot it reads did not end cleanly (run-vm.sh:
# qemu's status, the guest's end marker, no kernel warning or crash on
# the console), and when a kernel it boots is not built.
# Lists that need a relink (other algorithms, a truncated header) are
# tried by run-relinked-lists.sh, in make check-full.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
kout=$build/out/hashes
sigout=$build/out/hashes+sig
# shellcheck disable=SC2034 # work and base are read by guest (tests/lib/allowlist.sh)
base=$build/initramfs/base.cpio.gz
bin=$build/src/patched/obj-hashes/.module-hashes.bin
work=$build/test-results/allowlist
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/elf.sh"
. "$here/../lib/allowlist.sh"

# The plan: 5 tests of the discovery boot, 2 of the runtime boot, one per
# damaged list of hashes, 3 of the damaged list of hashes+sig, 3 of the
# IMA pair, 3 of the changed digest (keep it in step with the tests
# below: run-all.sh fails the suite when the count differs).
tap_plan $((5 + 2 + 9 + 3 + 3 + 3))

# The list as securityfs should show it, computed on the host.
count=$(od -An -tu4 -j16 -N4 "$bin" 2>/dev/null | tr -d ' ')
list_securityfs "$bin" > "$work/expected" 2> /dev/null
list_sha=$(sha256sum < "$bin" | cut -d' ' -f1)
crc7_sha=$(find "$kout/modules/" -name crc7.ko -exec sha256sum {} + 2>/dev/null | cut -d' ' -f1)

# The discovery boot, with module.sig_enforce=1 so that its crc7.ko load
# is the reference of the changed-digest boot below: on this kernel, from
# this list, crc7.ko loads by its digest.
{
	echo '#!/bin/sh'
	guest_list_compare "$work/expected"
	cat <<'GUEST'
f=/sys/kernel/security/ima/module_hashes
echo "MODE-$(stat -c %a "$f")"
if echo x 2>/dev/null > "$f"; then echo "WRITE-ACCEPTED"; else echo "WRITE-REFUSED"; fi
grep ' module-allowlist ' /sys/kernel/security/ima/ascii_runtime_measurements | sed 's/^/BOOT-MEASURED /'
GUEST
	guest_loads finit:/mods/crc7.ko
} > "$work/discovery.sh"
out=$(guest "$kout" discovery ima_policy=critical_data module.sig_enforce=1)
clean discovery && grep -q '^LIST-SAME$' <<< "$out"
tap $? "securityfs module_hashes lists exactly the $count digests of the build"
clean discovery && grep -q '^MODE-440$' <<< "$out"
tap $? "securityfs module_hashes is readable by root only (0440, as IMA's measurement lists)"
clean discovery && grep -q '^WRITE-REFUSED$' <<< "$out"
tap $? "securityfs module_hashes refuses writes"
clean discovery && grep -Eq "^BOOT-MEASURED 10 [0-9a-f]{40} ima-buf sha256:[0-9a-f]{64} module-allowlist $list_sha\$" <<< "$out"
tap $? "ima_policy=critical_data measures the list (event data = sha256 of the list) into PCR 10"
clean discovery && load_was discovery /mods/crc7.ko OK 0 -
tap $? "module.sig_enforce=1: crc7.ko, on the list, loads untainted"

cat > "$work/runtime.sh" <<'GUEST'
#!/bin/sh
m=/sys/kernel/security/ima/ascii_runtime_measurements
echo "BEFORE $(grep -c ' module-allowlist ' $m)"
cat /etc/ima/measure-modules.policy > /sys/kernel/security/ima/policy && echo POLICY-LOADED
cat /etc/ima/measure-modules.policy > /sys/kernel/security/ima/policy 2>/dev/null
echo "AFTER $(grep -c ' module-allowlist ' $m)"
. /bin/vmtest.sh
load_module finit /mods/crc7.ko
echo "LOAD-$errno"
grep ' /mods/crc7.ko$' $m | sed 's/^/MODULE-MEASURED /'
GUEST
out=$(guest "$kout" runtime)
clean runtime && grep -q '^BEFORE 0$' <<< "$out" && grep -q '^POLICY-LOADED$' <<< "$out" && grep -q '^AFTER 1$' <<< "$out"
tap $? "loading measure-modules.policy measures the list once (not before, not twice)"
clean runtime && grep -Eq "^MODULE-MEASURED 10 [0-9a-f]{40} ima-ng sha256:$crc7_sha /mods/crc7.ko\$" <<< "$out" &&
	grep -q '^LOAD-OK$' <<< "$out"
tap $? "measure-modules.policy measures a loaded module by its file digest"
grep '^# ' <<< "$out" | grep -Ev '^# (run-vm: |  )' | head -5

# changed_copy KOUT NAME AT BYTES-COMMAND...: $work/vmlinux-NAME, a copy
# of KOUT's vmlinux with the output of BYTES-COMMAND written over its
# list from byte AT on.  No copy when KOUT's vmlinux or its list cannot
# be found: the boot of it then fails as a kernel not built.
changed_copy() {
	local kout=$1 name=$2 at=$3 offset
	shift 3
	rm -f "$work/vmlinux-$name"
	if ! offset=$(list_offset "$kout/vmlinux"); then
		if [[ -f $kout/vmlinux ]]; then
			echo "# $kout/vmlinux: no allowlist at __module_hashes_start"
		else
			echo "# $kout/vmlinux is missing (kernel not built)"
		fi
		return 0
	fi
	cp "$kout/vmlinux" "$work/vmlinux-$name"
	"$@" | dd of="$work/vmlinux-$name" bs=1 seek=$((offset + at)) conv=notrunc status=none
}
digest() {	# digest I: the bytes of digest I of the build's list
	tail -c +$((21 + 32 * $1)) "$bin" | head -c 32
}

# damage NAME REASON AT BYTES-COMMAND...: boot hashes with its list so
# damaged (see changed_copy) under module.sig_enforce=1 and
# ima_policy=critical_data; the list must be refused for REASON, that
# refusal measured, and crc7.ko, on the list, then refused.
damage() {
	local name=$1 reason=$2
	shift 2
	changed_copy "$kout" "$name" "$@"
	boot_script "$name" finit:/mods/crc7.ko
	VM_KERNEL=$work/vmlinux-$name guest "$kout" "$name" module.sig_enforce=1 ima_policy=critical_data > /dev/null
	clean "$name" && refused_at_boot "$name" "$reason" && refusal_measured "$name" "$reason" &&
		load_was "$name" /mods/crc7.ko EKEYREJECTED 0 - 'Loading of module not on the allowlist is rejected'
	tap $? "list with $name: refused at boot ($reason), the refusal measured, an allowlisted module is then refused"
	rm -f "$work/vmlinux-$name"
}
damage magic "bad magic" 0 printf 'X'
damage version "unknown version" 8 printf '\002'
damage algorithm "unsupported hash algorithm" 10 printf '\001'
# 48 bytes: a digest size the format knows (SHA-384's), not SHA-256's.
damage digest-size "digest size does not match the algorithm" 12 printf '\060'
damage reserved "reserved field not zero" 15 printf '\200'
damage count "size does not match the digest count" 16 printf '\001'
# A count 2^27 too large: 2^27 more 32-byte digests are 2^32 bytes, so a
# size computed in 32 bits would come out right and the kernel would
# read far past the list.  A list shorter than its 20-byte header cannot
# be made inside a linked vmlinux (the list's end is fixed in the code
# that reads it): run-relinked-lists.sh relinks one.
damage count-wrap "size does not match the digest count" 19 printf '\010'
damage order "digests not sorted" 20 sh -c "$(declare -f digest); bin=$bin; digest 1; digest 0"
damage duplicate "duplicate digest" 52 sh -c "$(declare -f digest); bin=$bin; digest 0"

# hashes+sig with a damaged list: the list is refused and fails closed,
# but the signature path is independent of it, so a module signed with
# the build's key still loads under module.sig_enforce=1.
changed_copy "$sigout" sig-reserved 15 printf '\200'
boot_script sig-reserved finit:/mods/crc7.ko finit:/mods/hello-signed.ko
VM_KERNEL=$work/vmlinux-sig-reserved guest "$sigout" sig-reserved module.sig_enforce=1 > /dev/null
clean sig-reserved && refused_at_boot sig-reserved "reserved field not zero"
tap $? "hashes+sig, list with reserved: refused at boot (reserved field not zero)"
clean sig-reserved && load_was sig-reserved /mods/crc7.ko EKEYREJECTED 0 - 'Loading of unsigned module is rejected'
tap $? "hashes+sig, list refused: crc7.ko, on the list, is refused under module.sig_enforce=1"
# taint 4096, O: the out-of-tree taint any hello.ko gets, and no E
clean sig-reserved && load_was sig-reserved /mods/hello-signed.ko OK 4096 O
tap $? "hashes+sig, list refused: hello-signed.ko (the trusted test key) still loads under module.sig_enforce=1"
rm -f "$work/vmlinux-sig-reserved"

# Fail closed under the shipped IMA policy alone.  Two copies of vmlinux
# made the same way, booted the same way, whose lists differ in the
# reserved byte only: set (refused at boot) and as built (0, accepted).
# Each loads crc7.ko through finit_module() (/mods), init_module() (the
# same bytes as installed in /lib/modules: each load is told apart by its
# file) and the kernel's decompressor (crc7.ko.xz), unloading it after
# each pass.
crc7_installed=$(cd "$kout/modules" 2>/dev/null && find lib/modules -name crc7.ko)
ima_loads=(finit:/mods/crc7.ko "init:/$crc7_installed" finit-compressed:/mods/crc7.ko.xz)
for name in ima-reserved ima-intact; do
	byte='\200'
	[[ $name == ima-intact ]] && byte='\000'
	changed_copy "$kout" "$name" 15 printf "$byte"
	{
		echo '#!/bin/sh'
		guest_boot_report
		# vmtest.sh's setup_mode: the boot stops, unclean, if the
		# policy is refused.
		echo '. /bin/vmtest.sh; setup_mode policy=modules-allowlist.policy'
		for load in "${ima_loads[@]}"; do
			guest_loads "$load"
			echo '/sbin/rmmod crc7 2>/dev/null || :'
		done
	} > "$work/$name.sh"
	VM_KERNEL=$work/vmlinux-$name guest "$kout" "$name" > /dev/null
	rm -f "$work/vmlinux-$name"
done
clean ima-reserved && refused_at_boot ima-reserved "reserved field not zero"
tap $? "IMA policy only, list with reserved: refused at boot (reserved field not zero), the policy loaded"
clean ima-reserved; ok=$?
for load in "${ima_loads[@]}"; do
	load_was ima-reserved "${load#*:}" EACCES 0 - 'module allowlist not in use \(reserved field not zero\)' || ok=1
done
tap $ok "IMA policy only, list refused: crc7.ko is refused with EACCES through finit_module(), init_module() and the kernel's decompressor, \"module allowlist not in use\""
clean ima-intact && accepted_at_boot ima-intact "$count" sha256; ok=$?
for load in "${ima_loads[@]}"; do
	load_was ima-intact "${load#*:}" OK 0 - || ok=1
done
tap $ok "IMA policy only, the same copy with its list intact: accepted, and the three loads pass"

# One byte of crc7.ko's digest inverted (its last, so that the list stays
# in order, which the host checks first): the list is accepted and used,
# crc7.ko is no longer on it, and another module of the build still is.
# This boot is also the control of the damaged lists above: a vmlinux
# copy booted the same way, with a list the kernel takes.
index=$(list_digests "$bin" | grep -nx "$crc7_sha" | cut -d: -f1)
at=$((20 + 32 * ${index:-0} - 1))
byte=$(od -An -tu1 -j "$at" -N1 "$bin" 2>/dev/null | tr -d ' ')
flipped=$(printf '\\%03o' $((255 - ${byte:-0})))
changed_copy "$kout" digest-byte "$at" printf "$flipped"
# the list as the kernel sees it, strictly ascending (sort -c -u) or not
in_order() {
	{
		head -c "$at" "$bin"
		# shellcheck disable=SC2059 # the format is the octal escape of one byte
		printf "$flipped"
		tail -c +$((at + 2)) "$bin"
	} > "$work/digest-byte.bin"
	list_digests "$work/digest-byte.bin" | LC_ALL=C sort -c -u 2> /dev/null
}
if [[ -z $index ]]; then
	echo "# crc7.ko's digest ($crc7_sha) is not on the build's list"
elif ! in_order; then
	echo "# inverting the last byte of digest $index leaves the list out of order"
	rm -f "$work/vmlinux-digest-byte"
fi
crc4=$(cd "$kout/modules" 2>/dev/null && find lib/modules -name crc4.ko)
boot_script digest-byte finit:/mods/crc7.ko "modprobe:/$crc4"
VM_KERNEL=$work/vmlinux-digest-byte guest "$kout" digest-byte module.sig_enforce=1 > /dev/null
clean digest-byte && accepted_at_boot digest-byte "$count" sha256
tap $? "list with one byte of crc7's digest inverted, still in order: accepted at boot"
clean digest-byte && load_was digest-byte /mods/crc7.ko EKEYREJECTED 0 - 'Loading of module not on the allowlist is rejected'
tap $? "list with crc7's digest changed: crc7.ko is refused under module.sig_enforce=1"
clean digest-byte && load_was digest-byte "/$crc4" OK 0 -
tap $? "list with crc7's digest changed: crc4, on the list, loads by modprobe under module.sig_enforce=1"
rm -f "$work/vmlinux-digest-byte"
