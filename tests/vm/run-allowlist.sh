#!/bin/bash
# Usage: run-allowlist.sh BUILD_DIR
# What the built-in allowlist of the "hashes" kernel shows and does beyond
# single loads, in TAP:
#  - securityfs ima/module_hashes lists exactly the digests of the build's
#    .module-hashes.bin, is readable by root only and refuses writes;
#  - the list is measured as critical data (ima_policy=critical_data at
#    boot, and ima-policy/measure-modules.policy loaded at run time, which
#    also measures the module loads);
#  - a damaged list inside vmlinux is refused at boot with its reason, and
#    then no module passes through it (fail closed).
# Every test fails when the boot it reads did not end cleanly (run-vm.sh:
# qemu's status, the guest's end marker, no kernel warning or crash on
# the console), and when the hashes kernel is not built.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
kout=$build/out/hashes
base=$build/initramfs/base.cpio.gz
bin=$build/src/patched/obj-hashes/.module-hashes.bin
work=$build/test-results/allowlist
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/allowlist.sh"

# The plan: 4 tests of the discovery boot, 2 of the runtime boot, one per
# damaged list and the undamaged control (keep it in step with the tests
# below: run-all.sh fails the suite when the count differs).
tap_plan $((4 + 2 + 6 + 1))

# What of the build the tests need is missing, if anything: every test
# then fails (guest boots nothing).
missing=
for f in "$kout/bzImage" "$kout/vmlinux" "$kout/modules.cpio.gz" "$base" "$bin"; do
	[[ -f $f ]] || { missing="$f is missing"; break; }
done

# The list as securityfs should show it, computed on the host.
count=$(od -An -tu4 -j16 -N4 "$bin" | tr -d ' ')
{
	echo "# module allowlist version 1, sha256, $count digests"
	list_digests "$bin" | sed 's/^/sha256:/'
} > "$work/expected"
list_sha=$(sha256sum < "$bin" | cut -d' ' -f1)

# guest NAME [KERNEL_ARG...]: boot with $work/NAME.sh as the guest script
# and print what it printed.  Whether the boot ended cleanly is kept for
# "clean NAME", which every test made from this output must call.
guest() {
	local name=$1
	shift
	if [[ -n $missing ]]; then
		echo "# $missing (kernel not built)" > "$work/$name.out"
		echo 1 > "$work/$name.rc"
		return 1
	fi
	"$here/run-vm.sh" "$kout" "$base" "$work/$name.sh" "$work/$name.console" "$@" \
		> "$work/$name.out" 2>&1
	echo $? > "$work/$name.rc"
	cat "$work/$name.out"
}

# clean NAME: true if the boot of guest NAME ended cleanly; otherwise false
# after saying why in TAP comments (the first time it is asked), so that
# a test that reads the output of a bad boot fails.
clean() {
	[[ $(cat "$work/$1.rc" 2>/dev/null) == 0 ]] && return 0
	if [[ ! -f $work/$1.told ]]; then
		grep -E '^# (run-vm: |.*kernel not built)' "$work/$1.out" | head -n 25
		touch "$work/$1.told"
	fi
	return 1
}

{
	echo '#!/bin/sh'
	echo 'cat > /tmp/expected <<"LIST"'
	cat "$work/expected"
	echo 'LIST'
	cat <<'GUEST'
f=/sys/kernel/security/ima/module_hashes
if cmp -s /tmp/expected "$f"; then echo "LIST-SAME"; else echo "LIST-DIFFERENT"; diff /tmp/expected "$f" | head; fi
echo "MODE-$(stat -c %a "$f")"
if echo x 2>/dev/null > "$f"; then echo "WRITE-ACCEPTED"; else echo "WRITE-REFUSED"; fi
grep ' module-allowlist ' /sys/kernel/security/ima/ascii_runtime_measurements | sed 's/^/BOOT-MEASURED /'
GUEST
} > "$work/discovery.sh"
out=$(guest discovery ima_policy=critical_data)
clean discovery && grep -q '^LIST-SAME$' <<< "$out"
tap $? "securityfs module_hashes lists exactly the $count digests of the build"
clean discovery && grep -q '^MODE-400$' <<< "$out"
tap $? "securityfs module_hashes is readable by root only (0400)"
clean discovery && grep -q '^WRITE-REFUSED$' <<< "$out"
tap $? "securityfs module_hashes refuses writes"
clean discovery && grep -Eq "^BOOT-MEASURED 10 [0-9a-f]{40} ima-buf sha256:[0-9a-f]{64} module-allowlist $list_sha\$" <<< "$out"
tap $? "ima_policy=critical_data measures the list (event data = sha256 of the list) into PCR 10"

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
out=$(guest runtime)
clean runtime && grep -q '^BEFORE 0$' <<< "$out" && grep -q '^POLICY-LOADED$' <<< "$out" && grep -q '^AFTER 1$' <<< "$out"
tap $? "loading measure-modules.policy measures the list once (not before, not twice)"
crc7_sha=$(find "$kout/modules/" -name crc7.ko -exec sha256sum {} + 2>/dev/null | cut -d' ' -f1)
clean runtime && grep -Eq "^MODULE-MEASURED 10 [0-9a-f]{40} ima-ng sha256:$crc7_sha /mods/crc7.ko\$" <<< "$out" &&
	grep -q '^LOAD-OK$' <<< "$out"
tap $? "measure-modules.policy measures a loaded module by its file digest"
grep '^# ' <<< "$out" | grep -Ev '^# (run-vm: |  )' | head -5

# Damage the list inside a copy of vmlinux and boot that image.
offset=$(grep -obUaP 'KMODHASH' "$kout/vmlinux" | head -n 1 | cut -d: -f1)
damage() {	# damage NAME REASON WRITE-OFFSET BYTES-COMMAND
	local name=$1 reason=$2 at=$3
	shift 3
	cp "$kout/vmlinux" "$work/vmlinux-$name"
	"$@" | dd of="$work/vmlinux-$name" bs=1 seek=$((offset + at)) conv=notrunc status=none
	cat > "$work/$name.sh" <<'GUEST'
#!/bin/sh
dmesg | grep 'module allowlist' | sed 's/^/BOOTLOG /'
head -n 1 /sys/kernel/security/ima/module_hashes | sed 's/^/HEADER /'
. /bin/vmtest.sh
load_module finit /mods/crc7.ko
echo "LOAD-$errno"
GUEST
	local out
	out=$(VM_KERNEL=$work/vmlinux-$name guest "$name" module.sig_enforce=1)
	clean "$name" && grep -q "^BOOTLOG .*module allowlist refused: $reason; no module is accepted by digest" <<< "$out" &&
		grep -q "^HEADER # module allowlist refused: $reason" <<< "$out" &&
		grep -q '^LOAD-EKEYREJECTED$' <<< "$out"
	tap $? "list with $name: refused at boot ($reason), an allowlisted module is then refused"
	rm -f "$work/vmlinux-$name"
}
digest() {	# digest I: the bytes of digest I
	tail -c +$((21 + 32 * $1)) "$bin" | head -c 32
}
damage magic "bad magic" 0 printf 'X'
damage version "unknown version" 8 printf '\002'
damage algorithm "unsupported hash algorithm" 10 printf '\001'
damage count "size does not match the digest count" 16 printf '\001'
damage order "digests not sorted" 20 sh -c "$(declare -f digest); bin=$bin; digest 1; digest 0"
damage duplicate "duplicate digest" 52 sh -c "$(declare -f digest); bin=$bin; digest 0"

# The same method with nothing damaged: the list is accepted and used, so
# the refusals above come from the damage, not from booting vmlinux.
cp "$kout/vmlinux" "$work/vmlinux-control"
cat > "$work/control.sh" <<'GUEST'
#!/bin/sh
dmesg | grep 'module allowlist' | sed 's/^/BOOTLOG /'
. /bin/vmtest.sh
load_module finit /mods/crc7.ko
echo "LOAD-$errno"
GUEST
out=$(VM_KERNEL=$work/vmlinux-control guest control module.sig_enforce=1)
clean control && grep -q "^BOOTLOG .*module allowlist: $count sha256 digests" <<< "$out" && grep -q '^LOAD-OK$' <<< "$out"
tap $? "undamaged vmlinux booted the same way: list accepted, allowlisted module loads"
rm -f "$work/vmlinux-control"
