#!/bin/bash
# Usage: check-ima-tools.sh BUILD_DIR
# End-to-end tests of "modhash verify-log" and "modhash lint-policy" on
# the real "hashes" kernel, in TAP.  One qemu boot, with a software TPM
# (tests/lib/swtpm.sh: fresh state, banks sha1 and sha256;
# tpm_tis.force=1, as these kernels have no ACPI to announce it) so that
# IMA extends real PCRs:
#  - the guest loads every policy of ima-policy/ (measure-modules.policy
#    first) and one bad rule, loads listed modules from /lib/modules, then
#    a tampered copy of crc7.ko, then crc7.ko.xz through finit_module's
#    decompression, and sends back both banks' binary lists and PCR 10 of
#    both banks, after the listed loads and after the tampered one, the
#    sha256 list after the compressed load, and its ASCII list (base64
#    between markers); then crc7.ko.xz through kmod's insmod (Debian 12's
#    kmod 30 decompresses it and calls init_module), a tampered crc7
#    through init_module, hello.ko signed with the DKMS test key
#    (tests/keys, an appended signature, IMA's modsig allowed by
#    modules-allowlist-modsig.policy) and hello.ko signed for IMA with
#    root's key (security.ima), and sends the sha256 lists again, binary
#    and ASCII; the boot uses template ima-modsig (ima_template=), so that
#    every file entry carries both kinds of signature;
#  - verify-log, given the vmlinux and the TPM's PCR 10, accepts the first
#    lists and reports exactly the tampered entry in the second ones; the
#    compressed load is listed through modhash export's digests of the
#    installed file (--reference) and offending without; the init_module
#    loads are critical-data entries judged by their digest (listed,
#    offending); the signed ones are signed-by their key id with the
#    certificate given, offending without; the ASCII list gives the same
#    report as the binary one, and --format=json the same results;
#  - evmctl ima_measurement, an independent replay, agrees with the PCR
#    values verify-log computed (and so with the TPM);
#  - a list cut in the middle of an entry is an error naming the entry;
#  - lint-policy passes every shipped policy and names the bad rule's
#    file:line:column, which the kernel refuses too;
#  - the kernel and lint-policy agree on every rule of policy-rules.txt
#    (ima_appraise=log keeps the appraise rules among them harmless).
# Writing several policies in one boot needs CONFIG_IMA_WRITE_POLICY=y,
# which the hashes kernel has (a kernel without it takes one write only).
# $IMA_TOOLS_KERNEL replaces the --kernel argument (default: the vmlinux).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/console.sh"
. "$here/../lib/swtpm.sh"

kout=$build/out/hashes
base=$build/initramfs/base.cpio.gz
modhash=$build/tools/modhash/modhash
kernel=${IMA_TOOLS_KERNEL:-$kout/vmlinux}
work=$build/test-results/ima-tools
rm -rf "$work"
mkdir -p "$work/got"

policies=("$top"/ima-policy/*.policy)
tap_plan $((22 + ${#policies[@]}))

# What the guest loads and what the host checks with: files of the
# kernel's module set, and hello.ko signed with the DKMS test key as DKMS
# would sign it (the build's scripts/sign-file).
mods=$work/mods
mkdir -p "$mods"
if [[ -f $kout/modules.cpio.gz ]]; then
	(cd "$work" && zcat "$kout/modules.cpio.gz" |
		cpio -id --quiet mods/crc7.ko mods/crc7.ko.xz mods/crc7-flipped.ko mods/rootkey.x509 mods/hello.ko)
fi
signfile=$build/src/patched/obj-hashes/scripts/sign-file
dkms_cert=$top/tests/keys/dkms-test-cert.pem
if [[ -x $signfile && -f $mods/hello.ko ]]; then
	"$signfile" sha256 "$top/tests/keys/dkms-test-key.pem" "$dkms_cert" \
		"$mods/hello.ko" "$mods/hello-dkms.ko"
fi

# --- the boot ------------------------------------------------------------
cat > "$work/guest.sh" <<'GUEST'
#!/bin/sh
. /bin/vmtest.sh
ima=/sys/kernel/security/ima
lib=/lib/modules/$(uname -r)/kernel/lib
snapshot() {	# snapshot NAME: both banks' lists and PCR 10
	for bank in sha1 sha256; do
		[ -r $ima/binary_runtime_measurements_$bank ] &&
			send_file "$1.$bank.log" $ima/binary_runtime_measurements_$bank
		[ -r /sys/class/tpm/tpm0/pcr-$bank/10 ] &&
			send_file "$1.$bank.pcr10" /sys/class/tpm/tpm0/pcr-$bank/10
	done
}
policy() {	# policy FILE: append FILE's rules to the IMA policy
	if cat "$1" > $ima/policy 2>/dev/null; then
		echo "POLICY-ACCEPTED ${1##*/}"
	else
		echo "POLICY-REFUSED ${1##*/}"
	fi
}
policy /etc/ima/measure-modules.policy
for m in crc7 crc4 crc8; do
	insmod $lib/$m.ko && echo "LOADED $m"
done
snapshot listed
rmmod crc7
mkdir /tmp/tampered
cp /mods/crc7-flipped.ko /tmp/tampered/crc7.ko
echo "TAMPERED $(sha256sum /tmp/tampered/crc7.ko)"
insmod /tmp/tampered/crc7.ko 2>/dev/null
echo "TAMPERED-LOAD rc=$?"
snapshot tampered
rmmod crc7
echo "COMPRESSED $(sha256sum /mods/crc7.ko.xz) $(modload finit-compressed /mods/crc7.ko.xz)"
send_file compressed.sha256.log $ima/binary_runtime_measurements_sha256
send_file ascii $ima/ascii_runtime_measurements
rmmod crc7
# kmod 30 decompresses a .ko.xz itself: init_module, critical data.
/sbin/insmod /mods/crc7.ko.xz && echo "KMOD-XZ loaded"
rmmod crc7
echo "INIT-TAMPERED $(modload init /mods/crc7-flipped.ko)"
rmmod crc7 2>/dev/null
policy /etc/ima/modules-allowlist-modsig.policy
mkdir /tmp/dkms /tmp/imasig
base64 -d > /tmp/dkms/hello.ko <<'HELLO'
@HELLO_DKMS@
HELLO
echo "DKMS $(modload finit /tmp/dkms/hello.ko)"
rmmod hello
cp /mods/hello.ko /tmp/imasig/hello.ko
evmctl ima_sign -a sha256 --key /mods/rootkey-key.pem /tmp/imasig/hello.ko >/dev/null 2>&1 &&
	echo "IMA-SIGNED"
echo "IMASIG $(modload finit /tmp/imasig/hello.ko)"
rmmod hello
send_file modules.sha256.log $ima/binary_runtime_measurements_sha256
send_file modules.ascii $ima/ascii_runtime_measurements_sha256
for p in /etc/ima/*.policy; do
	policy "$p"
done
printf '# a misspelt hook\nmeasure func=MODULE_CHECK\nmeasure func=MODULE_CHEK\n' > /tmp/bad.policy
policy /tmp/bad.policy
n=0
while IFS= read -r rule; do
	n=$((n + 1))
	case $rule in '#'*) continue ;; esac
	if printf '%s\n' "$rule" > $ima/policy 2>/dev/null; then
		echo "RULE $n accepted"
	else
		echo "RULE $n refused"
	fi
done <<'RULES'
GUEST
cat "$here/policy-rules.txt" >> "$work/guest.sh"
echo RULES >> "$work/guest.sh"
if [[ -f $mods/hello-dkms.ko ]]; then
	hello_dkms=$(base64 -w 76 "$mods/hello-dkms.ko")
	awk -v b64="$hello_dkms" '$0 == "@HELLO_DKMS@" { print b64; next } { print }' \
		"$work/guest.sh" > "$work/guest.sh.new" && mv "$work/guest.sh.new" "$work/guest.sh"
fi

vm_rc=1
if [[ ! -f $kout/bzImage || ! -f $base ]]; then
	echo "# $kout or $base is missing (kernel not built)"
elif swtpm_start "$work/tpm"; then
	VM_QEMU_ARGS=$swtpm_qemu_args VM_TIMEOUT=${VM_TIMEOUT:-240} \
		"$top/tests/vm/run-vm.sh" "$kout" "$base" "$work/guest.sh" \
		"$work/console" tpm_tis.force=1 ima_appraise=log ima_template=ima-modsig \
		> "$work/guest.out" 2>&1
	vm_rc=$?
	swtpm_stop
fi
[[ $vm_rc == 0 ]] || grep '^# ' "$work/guest.out" | head -n 30
tap $vm_rc "the hashes kernel booted with a TPM and the guest script ran to its end"

# Unpack what the guest sent.
console_files "$work/guest.out" "$work/got"

# --- the kernel accepts every policy ------------------------------------
for p in "${policies[@]}"; do
	grep -qx "POLICY-ACCEPTED ${p##*/}" "$work/guest.out"
	tap $? "the kernel accepts ima-policy/${p##*/}"
done
grep -qx "POLICY-REFUSED bad.policy" "$work/guest.out"
tap $? "the kernel refuses a policy with func=MODULE_CHEK"

# --- verify-log ----------------------------------------------------------
# verify NAME BANK: run verify-log on snapshot NAME's BANK list with the
# TPM's PCR 10 of that bank; output in $work/NAME.BANK.out, status echoed.
verify() {
	local log=$work/got/$1.$2.log pcr=$work/got/$1.$2.pcr10
	if [[ ! -s $log || ! -s $pcr || ! -x $modhash ]]; then
		echo "# verify $1 $2: missing $log, $pcr or $modhash" >&2
		echo 99
		return
	fi
	"$modhash" verify-log --kernel "$kernel" --bank "$2" --pcr10 "$pcr" "$log" \
		> "$work/$1.$2.out" 2> "$work/$1.$2.err"
	echo $?
}

for bank in sha1 sha256; do
	rc=$(verify listed $bank)
	[[ $rc == 0 ]] && grep -q "^$bank PCR-10: .*: matches the quoted value" "$work/listed.$bank.out" &&
		grep -q '^modules: 3 loads, 3 on the allowlist' "$work/listed.$bank.out"
	ok=$?
	[[ $ok == 0 ]] || sed 's/^/# /' "$work/listed.$bank.out" "$work/listed.$bank.err" 2>/dev/null
	tap $ok "verify-log, $bank bank, listed loads only: exit 0, the replay reaches the TPM's PCR 10, 3 modules listed"
done

# The tampered entry, from the guest's own ASCII list: its index (line
# number - 1) and digest.  The path is the fifth field (ima-modsig's
# empty signature fields follow it).
# ascii_index PATH: the index of PATH's first entry in the ASCII list.
ascii_index() {
	awk -v path="$1" '$5 == path { print NR - 1; exit }' "$work/got/ascii" 2>/dev/null
}
tampered_index=$(ascii_index /tmp/tampered/crc7.ko)
tampered_sha256=$(sed -n 's/^TAMPERED \([0-9a-f]\{64\}\) .*/\1/p' "$work/guest.out" | tr -d '\r')
for bank in sha1 sha256; do
	rc=$(verify tampered $bank)
	grep '^offending:' "$work/tampered.$bank.out" > "$work/tampered.$bank.offending" 2>/dev/null
	[[ $rc == 1 && -n $tampered_index && -n $tampered_sha256 ]] &&
		[[ $(wc -l < "$work/tampered.$bank.offending") == 1 ]] &&
		grep -Eq "^offending: entry $tampered_index \(offset [0-9]+\): /tmp/tampered/crc7.ko: sha256:$tampered_sha256: not on the kernel's allowlist$" \
			"$work/tampered.$bank.offending"
	ok=$?
	[[ $ok == 0 ]] || { echo "# expected entry $tampered_index sha256:$tampered_sha256 (rc $rc):"; sed 's/^/# /' "$work/tampered.$bank.out" "$work/tampered.$bank.err" 2>/dev/null; }
	tap $ok "verify-log, $bank bank, after a tampered crc7.ko: exit 1, exactly that entry reported (index, path, digest)"
done

# A compressed module: IMA logs the digest of the compressed file, which
# the list (of uncompressed modules) cannot hold: without the installed
# files' digests (--reference) verify-log says so.
compressed_index=$(ascii_index /mods/crc7.ko.xz)
compressed_sha256=$(sed -n 's/^COMPRESSED \([0-9a-f]\{64\}\) .*/\1/p' "$work/guest.out")
"$modhash" verify-log --kernel "$kernel" --bank sha256 "$work/got/compressed.sha256.log" \
	> "$work/compressed.out" 2>&1
rc=$?
[[ $rc == 1 && -n $compressed_index && -n $compressed_sha256 ]] &&
	[[ $(grep -c '^offending:' "$work/compressed.out") == 2 ]] &&
	grep -q "^offending: entry $tampered_index .*/tmp/tampered/crc7.ko: .*not on the kernel's allowlist$" "$work/compressed.out" &&
	grep -Eq "^offending: entry $compressed_index \(offset [0-9]+\): /mods/crc7.ko.xz: sha256:$compressed_sha256: compressed module: .*\(--reference, from modhash export\)$" "$work/compressed.out"
ok=$?
[[ $ok == 0 ]] || { echo "# exit $rc:"; sed 's/^/# /' "$work/compressed.out"; }
tap $ok "verify-log without --reference reports a compressed module load (finit_module of crc7.ko.xz) as offending, saying to give the installed files' digests, and the tampered one still"

# The module-allowlist entry against what the generator wrote: the kernel
# measures the list's SHA-256 (ima_measure_critical_data with hash=true),
# so the entry's buffer is that digest.
list=$build/src/patched/obj-hashes/.module-hashes.bin
buf=$(awk '$3 == "ima-buf" && $5 == "module-allowlist" { print $6 }' "$work/got/ascii" 2>/dev/null)
[[ -f $list && -n $buf && $buf == "$(sha256sum < "$list" | cut -d' ' -f1)" ]] &&
	grep -q '^module-allowlist: entry [0-9]* matches the kernel' "$work/listed.sha256.out"
tap $? "the module-allowlist entry holds the SHA-256 of the generator's list, and verify-log finds it equal to the vmlinux list's"

# evmctl replays the SHA-1 list on its own, recomputing the sha256 bank
# from the template data; given the PCR values verify-log computed (in
# evmctl's --pcrs form), it must say both banks match.
pcrs_file() {	# pcrs_file HEX: PCR-00..PCR-23, all zero but PCR 10
	local i zero=${1//?/0}
	for i in $(seq 0 23); do
		if [[ $i == 10 ]]; then printf 'PCR-10: %s\n' "$1"; else printf 'PCR-%02d: %s\n' "$i" "$zero"; fi
	done
}
for snap in listed tampered; do
	ours_sha1=$(sed -n 's/^sha1 PCR-10: \([0-9a-f]*\) after \([0-9]*\) entries.*/\1 \2/p' "$work/$snap.sha1.out" 2>/dev/null)
	ours_sha256=$(sed -n 's/^sha256 PCR-10: \([0-9a-f]*\) after \([0-9]*\) entries.*/\1 \2/p' "$work/$snap.sha256.out" 2>/dev/null)
	pcrs_file "${ours_sha1% *}" > "$work/$snap.pcrs-sha1"
	pcrs_file "${ours_sha256% *}" > "$work/$snap.pcrs-sha256"
	evmctl -v ima_measurement --pcrs "sha1,$work/$snap.pcrs-sha1" \
		--pcrs "sha256,$work/$snap.pcrs-sha256" "$work/got/$snap.sha1.log" \
		> "$work/$snap.evmctl" 2>&1
	rc=$?
	[[ $rc == 0 && -n $ours_sha1 && -n $ours_sha256 ]] &&
		grep -q "^sha1 PCR-10: succeed at entry ${ours_sha1#* }$" "$work/$snap.evmctl" &&
		grep -q "^sha256 PCR-10: succeed at entry ${ours_sha256#* }$" "$work/$snap.evmctl"
	ok=$?
	[[ $ok == 0 ]] || { echo "# ours: sha1 $ours_sha1, sha256 $ours_sha256; evmctl (rc $rc):"; grep -E 'PCR|atch|rror' "$work/$snap.evmctl" | head -n 12 | sed 's/^/# /'; }
	tap $ok "evmctl ima_measurement agrees with verify-log's PCR 10 in both banks, at the same entry ($snap)"
done

# A list cut in the middle of the tampered entry.
log=$work/got/tampered.sha256.log
offset=$(sed -n 's/^offending: entry [0-9]* (offset \([0-9]*\)).*/\1/p' "$work/tampered.sha256.out" 2>/dev/null)
if [[ -n $offset && -s $log ]]; then
	head -c $((offset + 20)) "$log" > "$work/cut.log"
	"$modhash" verify-log --kernel "$kernel" --bank sha256 "$work/cut.log" > /dev/null 2> "$work/cut.err"
	rc=$?
else
	rc=99
fi
[[ $rc == 2 ]] && grep -q "cut.log: entry $tampered_index (offset $offset): truncated template hash at offset $((offset + 4))$" "$work/cut.err"
ok=$?
[[ $ok == 0 ]] || sed 's/^/# /' "$work/cut.err" 2>/dev/null
tap $ok "verify-log on a list cut inside an entry: exit 2, naming the entry, its offset and the offset of the missing bytes"

# The raw list the generator wrote is the same kernel's list.
rc=$("$modhash" verify-log --kernel "$build/src/patched/obj-hashes/.module-hashes.bin" --bank sha256 \
	"$work/got/listed.sha256.log" > /dev/null 2>&1; echo $?)
tap $([[ $rc == 0 ]]; echo $?) "verify-log accepts the listed loads against the generator's raw list too"

# --- module loads of every kind (list "modules": sha256 bank) ------------
tr -d '\r' < "$work/guest.out" > "$work/guest.txt" 2>/dev/null
# The installed file crc7.ko.xz as modhash export lists it for /mods.
mkdir -p "$work/installed"
cp "$mods/crc7.ko.xz" "$work/installed/" 2>/dev/null
"$modhash" export --format=sha256sum --modules "$work/installed" --prefix /mods "$kernel" \
	> "$work/installed.sha256" 2> "$work/export.err"
# keyid CERT: the IMA key id of a certificate, as the kernel and evmctl
# compute it: the last 4 bytes of SHA-1 of the DER public key.
keyid() {
	openssl x509 -in "$1" -inform "$2" -noout -pubkey |
		openssl rsa -pubin -RSAPublicKey_out -outform DER 2>/dev/null |
		sha1sum | cut -c33-40
}
dkms_id=$(keyid "$dkms_cert" PEM)
root_id=$(keyid "$mods/rootkey.x509" DER)
mlog=$work/got/modules.sha256.log
# vlog NAME ARGS...: verify-log on the modules list, output in $work/NAME.out.
vlog() {
	local name=$1
	shift
	"$modhash" verify-log --kernel "$kernel" "$@" > "$work/$name.out" 2>&1
	echo $?
}
rc=$(vlog modules --reference "$work/installed.sha256" --cert "$dkms_cert" \
	--cert "$mods/rootkey.x509" "$mlog")
rc_bare=$(vlog modules-bare "$mlog")
# line FILE VERDICT PATH DIGEST: the one result line for PATH (and DIGEST).
line() {
	grep -E "^$2: entry [0-9]+ \(offset [0-9]+\): $3: sha256:$4: " "$1"
}
crc7=$(sha256sum < "$mods/crc7.ko" 2>/dev/null | cut -d' ' -f1)
flipped=$(sha256sum < "$mods/crc7-flipped.ko" 2>/dev/null | cut -d' ' -f1)
xz=$(sha256sum < "$mods/crc7.ko.xz" 2>/dev/null | cut -d' ' -f1)
ascii=$work/got/modules.ascii

# kmod's own decompression: the buffer entry holds crc7.ko's digest.
[[ -s $mlog && -n $crc7 ]] && grep -qx "KMOD-XZ loaded" "$work/guest.txt" &&
	grep -Eq "^10 [0-9a-f]{64} ima-buf sha256:[0-9a-f]{64} init_module $crc7\$" "$ascii" &&
	line "$work/modules.out" listed init_module "$crc7" | grep -q ": on the allowlist$" &&
	line "$work/modules-bare.out" listed init_module "$crc7" > /dev/null
ok=$?
[[ $ok == 0 ]] || { grep -E 'KMOD|init_module' "$work/guest.out" "$ascii" | head -n 5 | sed 's/^/# /'; sed 's/^/# /' "$work/modules.out"; }
tap $ok "kmod's insmod of crc7.ko.xz (user-space decompression, init_module) is a critical-data entry init_module holding crc7.ko's digest (label modules, shipped policy), and verify-log calls it listed"

line "$work/modules.out" offending init_module "$flipped" | grep -q ": not on the kernel's allowlist$"
ok=$?
[[ $ok == 0 ]] || { grep INIT-TAMPERED "$work/guest.out" | sed 's/^/# /'; sed 's/^/# /' "$work/modules.out"; }
tap $ok "init_module of a tampered crc7 is offending: its digest is not on the allowlist"

"$modhash" verify-log --kernel "$kernel" --modules "$work/installed" "$mlog" > "$work/modules-tree.out" 2>&1
rc_tree=$?
[[ $rc_bare == 1 && $rc_tree == 1 && -s $work/installed.sha256 ]] &&
	grep -qx "$xz  /mods/crc7.ko.xz" "$work/installed.sha256" &&
	line "$work/modules.out" listed /mods/crc7.ko.xz "$xz" |
		grep -q ": an installed file of the reference (/mods/crc7.ko.xz)$" &&
	line "$work/modules-bare.out" offending /mods/crc7.ko.xz "$xz" | grep -q -- "--reference" &&
	line "$work/modules-tree.out" listed /mods/crc7.ko.xz "$xz" |
		grep -qF ": an installed file of the reference ($work/installed/crc7.ko.xz)"
ok=$?
[[ $ok == 0 ]] || { sed 's/^/# /' "$work/installed.sha256" "$work/export.err"; grep crc7.ko.xz "$work/modules.out" | sed 's/^/# /'; }
tap $ok "the compressed load (finit_module, kernel-side decompression) is listed through modhash export's digest of the installed file (--reference) or the file itself (--modules), offending without"

[[ -n $dkms_id ]] && grep -qx "DKMS OK" "$work/guest.txt" &&
	grep -Eq "^signed-by $dkms_id: entry [0-9]+ \(offset [0-9]+\): /tmp/dkms/hello.ko: sha256:[0-9a-f]{64}: .*DKMS" "$work/modules.out" &&
	grep -Eq "^offending: entry [0-9]+ \(offset [0-9]+\): /tmp/dkms/hello.ko: .*: appended signature, and no certificate given \(--cert\)$" "$work/modules-bare.out"
ok=$?
[[ $ok == 0 ]] || { echo "# dkms key id $dkms_id"; grep -E 'DKMS|hello' "$work/guest.out" "$work/modules.out" "$work/modules-bare.out" | sed 's/^/# /'; }
tap $ok "hello.ko with an appended signature by the DKMS test key (ima-modsig) is signed-by that key's id ($dkms_id) given its certificate, offending without"

# The key id in the logged security.ima (bytes 3-6 of the sig field).
sig_id=$(awk '$5 == "/tmp/imasig/hello.ko" { print substr($6, 7, 8) }' "$ascii" 2>/dev/null)
[[ -n $root_id && $sig_id == "$root_id" ]] && grep -qx "IMA-SIGNED" "$work/guest.txt" &&
	grep -Eq "^signed-by $root_id: entry [0-9]+ \(offset [0-9]+\): /tmp/imasig/hello.ko: " "$work/modules.out" &&
	grep -Eq "^offending: entry [0-9]+ \(offset [0-9]+\): /tmp/imasig/hello.ko: .*: security.ima signature, and no certificate given \(--cert\)$" "$work/modules-bare.out"
ok=$?
[[ $ok == 0 ]] || { echo "# root key id $root_id, in the log $sig_id"; grep -E 'IMA|hello' "$work/guest.out" "$work/modules.out" | sed 's/^/# /'; }
tap $ok "hello.ko signed for IMA by root's key (security.ima, ima-sig field) is signed-by its key id given /mods/rootkey.x509, offending without"

# The same list in ASCII, and as JSON: the same report.
"$modhash" verify-log --kernel "$kernel" --reference "$work/installed.sha256" --cert "$dkms_cert" \
	--cert "$mods/rootkey.x509" "$ascii" > "$work/modules-ascii.out" 2>&1
rc_ascii=$?
"$modhash" verify-log --kernel "$kernel" --reference "$work/installed.sha256" --cert "$dkms_cert" \
	--cert "$mods/rootkey.x509" --format=json "$mlog" > "$work/modules.json" 2>&1
rc_json=$?
json_lines=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["entry"] is None:
        continue
    v = "signed-by " + r["key"] if r["verdict"] == "signed" else r["verdict"]
    print(v, r["entry"], r["path"], r["digest"])
' "$work/modules.json" 2>&1)
text_lines=$(sed -n 's/^\(listed\|signed-by [0-9a-f]*\|offending\): entry \([0-9]*\) (offset [0-9]*): \([^:]*\): \(sha[0-9]*:[0-9a-f]*\): .*/\1 \2 \3 \4/p' "$work/modules.out")
[[ $rc == 1 && $rc_ascii == 1 && $rc_json == 1 && -n $text_lines ]] &&
	cmp -s "$work/modules.out" "$work/modules-ascii.out" && [[ $json_lines == "$text_lines" ]]
ok=$?
[[ $ok == 0 ]] || { echo "# exits $rc $rc_ascii $rc_json"; diff "$work/modules.out" "$work/modules-ascii.out" | head | sed 's/^/# /'; echo "# json: $json_lines" | head -n 12; }
tap $ok "verify-log reads the guest's ASCII list (bank from its entries) into the same report as the binary one, and --format=json gives the same results"

# --- lint-policy ---------------------------------------------------------
# lint NAME STATUS ERE DESCRIPTION: lint-policy on $work/NAME.policy (or
# the shipped policies for NAME "shipped") exits STATUS and its output
# matches ERE (empty ERE: no output at all).
lint() {
	local files=("$work/$1.policy") ok rc
	[[ $1 != shipped ]] || files=("${policies[@]}")
	"$modhash" lint-policy "${files[@]}" > "$work/lint-$1.out" 2>&1
	rc=$?
	if [[ -z $3 ]]; then
		[[ $rc == "$2" && ! -s $work/lint-$1.out ]]
	else
		[[ $rc == "$2" ]] && grep -Eq "$3" "$work/lint-$1.out"
	fi
	ok=$?
	[[ $ok == 0 ]] || { echo "# exit $rc:"; sed 's/^/# /' "$work/lint-$1.out"; }
	tap $ok "$4"
}
lint shipped 0 "" "lint-policy passes every ima-policy/*.policy silently"
printf '# a misspelt hook\nmeasure func=MODULE_CHECK\nmeasure func=MODULE_CHEK\n' > "$work/bad.policy"
lint bad 2 "^$work/bad.policy:3:9: " \
	"lint-policy names the bad rule as file:3:9 and exits 2 (the kernel refused the same file)"
printf 'appraise func=MODULE_CHECK\n' > "$work/weak.policy"
lint weak 1 "^$work/weak.policy:1:1: warning: .*imasig" \
	"lint-policy warns (exit 1) about appraise func=MODULE_CHECK without appraise_type=imasig"

# The kernel and lint-policy on each rule of policy-rules.txt.
n=0 rules=0 refused=0 disagree=
while IFS= read -r rule; do
	n=$((n + 1))
	case $rule in '#'*) continue ;; esac
	rules=$((rules + 1))
	printf '%s\n' "$rule" > "$work/rule.policy"
	lint=accepted
	"$modhash" lint-policy "$work/rule.policy" > "$work/rule.out" 2>&1
	[[ $? == 2 ]] && lint=refused && refused=$((refused + 1))
	kernel=$(sed -n "s/^RULE $n \([a-z]*\)\r*$/\1/p" "$work/guest.out")
	[[ $kernel == "$lint" ]] || disagree+="# line $n, \"$rule\": kernel ${kernel:-(no answer)}, lint-policy $lint: $(cat "$work/rule.out")"$'\n'
done < "$here/policy-rules.txt"
[[ -z $disagree ]]
ok=$?
printf '%s' "$disagree"
tap $ok "the kernel and lint-policy agree on each of $rules rules of policy-rules.txt ($refused refused)"
