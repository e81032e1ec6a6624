#!/bin/bash
# Usage: run-hash-count.sh BUILD_DIR VARIANT
# How many times the kernel hashes a module during one load, in TAP,
# counted with kprobes (VARIANT must have CONFIG_KPROBE_EVENTS: the debug
# variant).  Two probes catch every hash of a buffer the size of crc7.ko:
# IMA's ima_calc_buffer_hash() (the digest of a file or buffer IMA
# measures or appraises) and crypto_shash_tfm_digest(), through which the
# allowlist code hashes for the loader and for IMA when IMA's own digest
# cannot be used.  One boot without module.sig_enforce, so that IMA
# itself checks init_module() buffers once the shipped policy is loaded.
# Loads of the listed crc7.ko, each unloaded again:
#  - without an IMA policy, finit_module() and init_module(): hashed once,
#    by the loader;
#  - under ima-policy/modules-allowlist.policy, finit_module() of a new
#    copy (IMA hashes the file, finds it on the list, and the loader takes
#    IMA's word for that buffer: patch 12), the same file again (IMA's
#    digest comes from its cache, which says nothing about the bytes read
#    now, so the loader hashes), and init_module() (IMA checks the buffer,
#    the loader takes its word): hashed once each;
#  - a changed copy under the policy, through finit_module(): refused
#    (EACCES), hashed once by IMA and never by the loader.
# Before patch 12 the first and the third load under the policy were
# hashed twice.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
variant=$2
work=$build/test-results/hash-count
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/vm-scenario.sh"

# label, path, file, expected result, expected hashes
loads="plain-finit finit /tmp/a.ko OK 1
plain-init init /tmp/a.ko OK 1
ima-finit-new finit /tmp/b.ko OK 1
ima-finit-again finit /tmp/b.ko OK 1
ima-init init /tmp/b.ko OK 1
ima-changed finit /tmp/changed.ko EACCES 1"
tap_plan $(($(wc -l <<< "$loads") + 1))
# the commit these results are of: tests/bench/summary.sh quotes them only
# for a benchmark run of the same commit
echo "# commit $("$here/../bench/provenance.sh" --commit)"

{
	cat <<'GUEST'
#!/bin/sh
. /bin/vmtest.sh
t=/sys/kernel/tracing
mount -t tracefs tracefs $t || echo NO-TRACEFS
size=$(wc -c < /mods/crc7.ko)
# x86_64 calling convention: the length is the second argument of
# ima_calc_buffer_hash(buf, len, hash), the third of
# crypto_shash_tfm_digest(tfm, data, len, out).
echo 'p:ima_buffer ima_calc_buffer_hash len=%si:s64' >> $t/kprobe_events || echo NO-PROBE
echo 'p:shash_digest crypto_shash_tfm_digest len=%dx:u32' >> $t/kprobe_events || echo NO-PROBE
echo 1 > $t/events/kprobes/enable || echo NO-PROBE
cp /mods/crc7.ko /tmp/a.ko
cp /mods/crc7.ko /tmp/b.ko
cp /mods/crc7-flipped.ko /tmp/changed.ko
echo > $t/trace
load() {	# load LABEL PATH FILE: the result and the hashes of $size bytes
	result=$(modload "$2" "$3" 2> /dev/null)
	[ "$result" = OK ] && /sbin/rmmod crc7
	echo "$1 RESULT $result HASHES $(grep -cE " len=$size\$" $t/trace)"
	grep -E " len=$size\$" $t/trace | sed "s/^/$1 TRACE /"
	echo > $t/trace
}
GUEST
	while read -r label path file _; do
		[[ $label == ima-finit-new ]] &&
			echo 'cat /etc/ima/modules-allowlist.policy > /sys/kernel/security/ima/policy || echo POLICY-REFUSED'
		echo "load $label $path $file"
	done <<< "$loads"
} > "$work/count.sh"

boot count "$variant"
out=$work/count.out
! grep -qE '^(NO-TRACEFS|NO-PROBE|POLICY-REFUSED)$' "$out" && [[ $(cat "$work/count.rc") == 0 ]]
tap $? "$variant: kprobes on ima_calc_buffer_hash and crypto_shash_tfm_digest, the IMA policy loaded, the boot ended cleanly"
grep -E '^(NO-|POLICY-)' "$out" | sed 's/^/# /'
while read -r label path file result hashes; do
	line=$(grep "^$label RESULT " "$out")
	saw count "^$label RESULT $result HASHES $hashes\$"
	tap $? "$variant, $label: $path of $file gives $result, the module hashed $hashes time(s) (${line:-no result})"
	grep "^$label TRACE " "$out" | sed 's/^/# /'
done <<< "$loads"
