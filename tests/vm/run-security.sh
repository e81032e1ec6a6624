#!/bin/bash
# Usage: run-security.sh BUILD_DIR
# The VM tests of the security review (NOTES.md, "Security review"), in
# TAP.  Each one failed on the series before its fix:
#  - cache: a file that passed MODULE_CHECK through the allowlist is then
#    read as an IMA policy under "appraise func=POLICY_CHECK
#    appraise_type=imasig": refused (EACCES), like a file never loaded;
#    the pass was cached in the slot all kernel_read_file() hooks share;
#  - trailing: a listed module compressed, with bytes appended after the
#    stream, given to finit_module(MODULE_INIT_COMPRESSED_FILE): refused
#    by the loader (EINVAL) and, under the IMA policy, by IMA (EACCES);
#    xz on hashes, zstd on hashes+sig;
#  - roothash: root writes a correct security.ima hash (evmctl ima_hash)
#    on an unlisted, unsigned module on tmpfs: the shipped policy refuses
#    it, while a rule without appraise_type=imasig (the shipped policy
#    before the fix) lets it load;
#  - revoked: the digest of the listed crc7.ko is added to the system
#    blacklist keyring as a "bin:" hash, signed with the key whose
#    certificate hashes+sig trusts (tests/keys, CONFIG_SYSTEM_TRUSTED_KEYS;
#    CONFIG_SYSTEM_BLACKLIST_AUTH_UPDATE): finit_module(),
#    init_module() and the kernel's decompression of crc7.ko.zst are
#    refused with EKEYREJECTED and a log line naming the digest, without
#    and with the IMA policy, while crc7 as INSTALL_MOD_STRIP=1 installs
#    it (another listed digest) and crc8 still load;
#  - audit: with integrity_audit=1, a pass through the allowlist under the
#    IMA policy is an integrity audit record (cause=module-allowlisted),
#    for finit_module() and init_module(); without it, no record;
#  - nofunc: under a rule without func= (appraise_tcb's form), each file
#    gets the same answer from finit_module() and init_module(): a listed
#    module with a security.ima hash loads, without one it is refused at
#    open (FILE_CHECK), an unlisted one with a hash root wrote loads;
#  - noima: IMA's init never runs (initcall_blacklist=init_ima, as when
#    it fails on a TPM or keyring error) under module.sig_enforce=1: the
#    list is still validated, listed crc7 loads through finit_module(),
#    init_module() and the kernel's decompressor, a changed copy is
#    refused; the list used to be validated by IMA's init only.
# Every test fails when the boot it reads did not end cleanly or when the
# kernel it needs is not built.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
work=$build/test-results/security
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/vm-scenario.sh"

tap_plan 30

# --- cache ---------------------------------------------------------------
cat > "$work/cache.sh" <<GUEST
$guest_prologue
cp /mods/crc7.ko /tmp/passed.ko
cp /mods/crc7.ko /tmp/fresh.ko
policy "\$(cat /etc/ima/modules-allowlist.policy)" "appraise func=POLICY_CHECK appraise_type=imasig"
result LOAD finit /tmp/passed.ko
for f in passed fresh; do
	if echo /tmp/\$f.ko 2>/tmp/err > /sys/kernel/security/ima/policy; then
		echo "AS-POLICY \$f: accepted"
	else
		echo "AS-POLICY \$f: \$(cat /tmp/err)"
	fi
done
GUEST
boot cache hashes
saw cache '^LOAD errno=OK taint=0$'
tap $? "cache: crc7.ko passes finit_module() through the allowlist under the IMA policy"
saw cache '^AS-POLICY passed: .*Permission denied'
tap $? "cache: the same file read as an IMA policy (POLICY_CHECK, imasig) is refused, the allowlist pass is not reused"
saw cache '^AS-POLICY fresh: .*Permission denied'
tap $? "cache: control, a copy never loaded is refused the same way"

# --- trailing ------------------------------------------------------------
# trailing VARIANT EXT: the listed crc7.ko compressed as EXT with 16 bytes
# appended, through the kernel's decompressor, without and with the IMA
# policy.
trailing() {
	local name=trailing-$1 ext=$2
	cat > "$work/$name.sh" <<GUEST
$guest_prologue
cat /mods/crc7.ko.$ext > /tmp/trailing.ko.$ext
printf 'sixteen bytes!!\n' >> /tmp/trailing.ko.$ext
result PLAIN finit-compressed /tmp/trailing.ko.$ext
rmmod crc7 2>/dev/null
policy "\$(cat /etc/ima/modules-allowlist.policy)"
result IMA finit-compressed /tmp/trailing.ko.$ext
GUEST
	boot "$name" "$1"
	saw "$name" '^PLAIN errno=EINVAL taint=0$' && saw "$name" "^PLAIN log: .*16 bytes after the (stream|frame)"
	tap $? "trailing, $1: crc7.ko.$ext with 16 bytes after the stream is refused by the loader (EINVAL), saying so"
	saw "$name" '^IMA errno=EACCES taint=0$' && saw "$name" '^IMA log: .*trailing\.ko\.'"$ext"': sha256:[0-9a-f]{64} is not on the module allowlist'
	tap $? "trailing, $1: the same file is refused by IMA's MODULE_CHECK (EACCES)"
}
trailing hashes xz
trailing hashes+sig zst

# --- roothash ------------------------------------------------------------
# roothash NAME RULE: hello.ko (not listed, not signed) on tmpfs with a
# security.ima hash that root wrote, loaded under RULE.
roothash() {
	cat > "$work/$1.sh" <<GUEST
$guest_prologue
cp /mods/hello.ko /tmp/hello.ko
evmctl ima_hash -a sha256 /tmp/hello.ko > /dev/null 2>&1 && echo HASH-WRITTEN
policy "$2"
result LOAD finit /tmp/hello.ko
GUEST
	boot "$1" hashes
}
roothash roothash-shipped "$(grep -v '^#' "$here/../../ima-policy/modules-allowlist.policy")"
roothash roothash-old "appraise func=MODULE_CHECK"
saw roothash-shipped '^HASH-WRITTEN$'
tap $? "roothash: evmctl wrote security.ima (a sha256 hash) on tmpfs"
saw roothash-shipped '^LOAD errno=EACCES taint=0$' &&
	saw roothash-shipped '^LOAD log: .*hello\.ko: sha256:[0-9a-f]{64} is not on the module allowlist'
tap $? "roothash: the shipped policy refuses the unlisted module whatever hash root wrote"
saw roothash-old '^HASH-WRITTEN$' && saw roothash-old '^LOAD errno=OK taint=12288$'
tap $? "roothash: control, a rule without appraise_type=imasig lets it load (taint OE): why the policy says imasig"
shipped=$(grep -v '^#' "$here/../../ima-policy/modules-allowlist.policy")
[[ $shipped == "appraise func=MODULE_CHECK appraise_type=imasig" ]]
tap $? "roothash: ima-policy/modules-allowlist.policy is exactly the imasig rule"
grep -qx 'appraise func=MODULE_CHECK appraise_type=imasig|modsig' "$here/../../ima-policy/modules-allowlist-modsig.policy"
tap $? "roothash: ima-policy/modules-allowlist-modsig.policy accepts signatures only (imasig|modsig)"

# --- revoked -------------------------------------------------------------
# The blacklist keyring takes a "bin:HEX" key from root only with a PKCS#7
# signature of that description by a key of the builtin keyring: here the
# test key whose certificate the hashes+sig build trusts.
signing_key=$here/../keys/dkms-test-key.pem
signing_cert=$here/../keys/dkms-test-cert.pem
digest=$(sha256sum "$build/out/hashes+sig/modules/lib/modules/"*/kernel/lib/crc7.ko 2>/dev/null | cut -d' ' -f1)
signature=
if [[ -f $signing_key && -n $digest ]]; then
	printf 'bin:%s' "$digest" > "$work/revoke.txt"
	openssl smime -sign -binary -noattr -nocerts -outform DER -md sha256 \
		-in "$work/revoke.txt" -signer "$signing_cert" -inkey "$signing_key" \
		-out "$work/revoke.p7s" 2> "$work/revoke.err" &&
		signature=$(base64 -w0 "$work/revoke.p7s")
fi
cat > "$work/revoked.sh" <<GUEST
$guest_prologue
echo "$signature" | base64 -d > /tmp/revoke.p7s
if keyctl padd blacklist "bin:$digest" %:.blacklist < /tmp/revoke.p7s > /dev/null; then
	echo REVOKED
fi
crc7=\$(find /lib/modules -name crc7.ko)
for stage in PLAIN IMA; do
	[ \$stage = IMA ] && policy "\$(cat /etc/ima/modules-allowlist.policy)"
	result "\$stage-finit" finit "\$crc7"
	result "\$stage-init" init "\$crc7"
	result "\$stage-zst" finit-compressed /mods/crc7.ko.zst
	result "\$stage-stripped" finit /mods/crc7-stripped.ko
	rmmod crc7
done
result CRC8 modprobe crc8
GUEST
boot revoked hashes+sig
saw revoked '^REVOKED$'
tap $? "revoked, hashes+sig: root adds crc7.ko's digest, signed by the trusted test key, to the blacklist keyring"
for stage in PLAIN IMA; do
	for path in finit init zst; do
		saw revoked "^$stage-$path errno=EKEYREJECTED taint=0\$" &&
			saw revoked "^$stage-$path log: .*module sha256:$digest is on the allowlist but blacklisted"
		tap $? "revoked, hashes+sig$([[ $stage == IMA ]] && echo ', IMA policy'): crc7 through $path is refused with EKEYREJECTED, naming the digest"
	done
done
saw revoked '^PLAIN-stripped errno=OK taint=0$' && saw revoked '^IMA-stripped errno=OK taint=0$' &&
	saw revoked '^CRC8 errno=OK taint=0$'
tap $? "revoked, hashes+sig: crc7 stripped (another listed digest) and crc8 still load, without and with the IMA policy"

# --- audit ---------------------------------------------------------------
audit_boot() {	# audit_boot NAME [KERNEL_ARG...]
	local name=$1
	shift
	cat > "$work/$name.sh" <<GUEST
$guest_prologue
policy "\$(cat /etc/ima/modules-allowlist.policy)"
# kauditd prints the records a moment after the load: wait for them.
audited() {
	sleep 1
	dmesg | grep 'cause=module-allowlisted' | sed "s/^/\$1 audit: /"
}
result FINIT finit /mods/crc7.ko
audited FINIT
rmmod crc7
result INIT init /mods/crc7.ko
audited INIT
GUEST
	boot "$name" hashes "$@"
}
audit_boot audit integrity_audit=1
audit_boot audit-quiet
saw audit '^FINIT errno=OK taint=0$' &&
	saw audit '^FINIT audit: .*audit: type=1800 .* op=appraise_data cause=module-allowlisted comm="modload" name="/mods/crc7.ko" .* res=1'
tap $? "audit: integrity_audit=1, crc7.ko through finit_module() passes and the pass is an audit record naming the file"
saw audit '^INIT errno=OK taint=0$' &&
	saw audit '^INIT audit: .*audit: type=1800 .* op=appraise_data cause=module-allowlisted comm="modload" name="init_module".* res=1'
tap $? "audit: integrity_audit=1, crc7.ko through init_module() passes and the pass is an audit record"
saw audit-quiet '^FINIT errno=OK taint=0$' && saw audit-quiet '^INIT errno=OK taint=0$' &&
	! saw audit-quiet 'cause=module-allowlisted'
tap $? "audit: without integrity_audit=1 the passes are not recorded (informational records)"

# --- nofunc --------------------------------------------------------------
# A rule without func=, like appraise_tcb's "appraise fowner=0", narrowed
# to the files of uid 1234 so that the guest's own programs (no
# security.ima) still run.  It appraises the open of a module file
# (FILE_CHECK) as well as finit_module()'s read (MODULE_CHECK), and leaves
# init_module() buffers alone: both syscalls must agree for each file.
cat > "$work/nofunc.sh" <<GUEST
$guest_prologue
for f in crc7 hello; do
	cp /mods/\$f.ko /tmp/\$f-hash.ko
	evmctl ima_hash -a sha256 /tmp/\$f-hash.ko > /dev/null 2>&1 || echo "NO-HASH \$f"
done
cp /mods/crc7.ko /tmp/crc7-bare.ko
chown 1234 /tmp/crc7-hash.ko /tmp/hello-hash.ko /tmp/crc7-bare.ko
policy "appraise fowner=1234"
for f in crc7-hash crc7-bare hello-hash; do
	result "\$f-finit" finit /tmp/\$f.ko
	rmmod \${f%%-*} 2>/dev/null
	result "\$f-init" init /tmp/\$f.ko
	rmmod \${f%%-*} 2>/dev/null
done
true
GUEST
boot nofunc hashes
saw nofunc '^crc7-hash-finit errno=OK taint=0$' && saw nofunc '^crc7-hash-init errno=OK taint=0$'
tap $? "nofunc: under \"appraise fowner=1234\" (no func=) the listed crc7.ko with a security.ima hash loads through finit_module() and init_module()"
saw nofunc '^crc7-bare-finit errno=EACCES taint=0$' && saw nofunc '^crc7-bare-init errno=EACCES taint=0$'
tap $? "nofunc: without security.ima the same file is refused through both, at open (FILE_CHECK, where the list does not apply)"
saw nofunc '^hello-hash-finit errno=OK taint=12288$' && saw nofunc '^hello-hash-init errno=OK taint=12288$' &&
	! saw nofunc '^NO-HASH'
tap $? "nofunc: the unlisted hello.ko with a hash root wrote loads through both (taint OE): the rule accepts hashes, which is why the shipped policies say imasig"

# --- noima ---------------------------------------------------------------
# initcall_blacklist= skips IMA's late_initcall altogether: no IMA
# securityfs directory, no IMA hashing, no measurement.  The module loader
# must still find the list validated.
cat > "$work/noima.sh" <<GUEST
$guest_prologue
if [ -d /sys/kernel/security/ima ]; then echo IMA-UP; else echo IMA-DOWN; fi
dmesg | grep -o 'module allowlist: [0-9]* sha256 digests' | sed 's/^/BOOT /'
result FINIT finit /mods/crc7.ko
rmmod crc7
result INIT init /mods/crc7.ko
rmmod crc7
result XZ finit-compressed /mods/crc7.ko.xz
rmmod crc7
result FLIPPED finit /mods/crc7-flipped.ko
GUEST
boot noima hashes initcall_blacklist=init_ima module.sig_enforce=1
saw noima '^IMA-DOWN$' && saw noima '^BOOT module allowlist: [0-9]+ sha256 digests$'
tap $? "noima, hashes: with IMA's init skipped (initcall_blacklist=init_ima) the list is validated all the same"
saw noima '^FINIT errno=OK taint=0$' && saw noima '^INIT errno=OK taint=0$'
tap $? "noima, hashes, module.sig_enforce=1: listed crc7.ko loads through finit_module() and init_module(), untainted"
saw noima '^XZ errno=OK taint=0$'
tap $? "noima, hashes, module.sig_enforce=1: crc7.ko.xz loads through the kernel's decompressor"
saw noima '^FLIPPED errno=EKEYREJECTED taint=0$' &&
	saw noima '^FLIPPED log: .*Loading of module not on the allowlist is rejected'
tap $? "noima, hashes, module.sig_enforce=1: crc7 with one byte changed is refused (EKEYREJECTED)"
