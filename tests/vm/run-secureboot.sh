#!/bin/bash
# Usage: run-secureboot.sh BUILD_DIR [VARIANT]   (default hashes+sig)
# The allowlist kernel under UEFI secure boot, in TAP: Debian's OVMF
# build with secure boot enforced (OVMF_CODE_4M.secboot.fd) and the
# test-only "snakeoil" key enrolled as PK, KEK and db
# (OVMF_VARS_4M.snakeoil.fd), the kernel and a unified kernel image
# holding it (systemd-boot-efi's stub, booted from an EFI system
# partition) signed with that key by sbsign.
# VARIANT needs EFI_STUB, IMA_ARCH_POLICY and LOCK_DOWN_IN_EFI_SECURE_BOOT
# (hashes+sig has them).  Checked:
#  - the firmware refuses the unsigned image ("Access Denied", no kernel
#    output): secure boot is really on;
#  - the signed one boots, the kernel sees secure boot, lockdown is in
#    integrity mode, the arch policy has enforced module signatures
#    (sig_enforce=Y) and added IMA's "measure func=MODULE_CHECK" but no
#    MODULE_CHECK appraisal (ima_efi.c: MODULE_SIG or MODULE_HASHES);
#  - the listed crc7 loads, by finit_module() and init_module(), taint 0,
#    and is measured; a changed crc7 and the unsigned hello.ko are
#    refused (EKEYREJECTED); hello.ko signed with the trusted test key
#    loads;
#  - a module whose only signature is an IMA one (security.ima, as a
#    MOK-style key would make for IMA appraisal) is refused: under this
#    arch policy nothing consults security.ima for modules, the loader
#    wants an appended signature or a listed digest.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
variant=${2:-hashes+sig}
work=$build/test-results/secureboot
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/vm-scenario.sh"

tap_plan 9
kout=$build/out/$variant
code=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
vars=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
key=/usr/share/ovmf/PkKek-1-snakeoil.key
cert=/usr/share/ovmf/PkKek-1-snakeoil.pem

# Sign the kernel with the snakeoil key (its passphrase is "snakeoil",
# README.Debian of the ovmf package).
signed=no
if [[ -f $kout/bzImage && -f $key ]] &&
	openssl pkey -in "$key" -passin pass:snakeoil -out "$work/db.key" 2> "$work/sign.err" &&
	sbsign --key "$work/db.key" --cert "$cert" --output "$work/bzImage.signed" "$kout/bzImage" \
		>> "$work/sign.err" 2>&1 &&
	sbverify --cert "$cert" "$work/bzImage.signed" >> "$work/sign.err" 2>&1; then
	signed=yes
fi
trap 'rm -f "$work/db.key"' EXIT
[[ $signed == yes ]]
tap $? "$variant: bzImage signed with the snakeoil db key (sbsign, sbverify)"
[[ $signed == yes ]] || sed 's/^/# /' "$work/sign.err"

# ovmf_boot NAME IMAGE signed|unsigned [TIMEOUT]: boot IMAGE under the
# firmware in a unified kernel image (run-vm.sh, VM_UKI) signed with the
# db key or not, with its own copy of the variable store.
stub=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
ovmf_boot() {
	local key= crt=
	[[ $3 == signed ]] && key=$work/db.key crt=$cert
	cp "$vars" "$work/$1.vars"
	VM_UKI=$stub VM_UKI_KEY=$key VM_UKI_CERT=$crt \
	VM_KERNEL=$2 VM_TIMEOUT=${4:-240} VM_QEMU_ARGS="-machine q35,smm=on \
-global driver=cfi.pflash01,property=secure,value=on \
-drive if=pflash,format=raw,unit=0,readonly=on,file=$code \
-drive if=pflash,format=raw,unit=1,file=$work/$1.vars" boot "$1" "$variant"
}

cat > "$work/unsigned.sh" <<'GUEST'
#!/bin/sh
echo KERNEL-RAN
GUEST
ovmf_boot unsigned "$kout/bzImage" unsigned 60
! grep -aq 'Linux version' "$work/unsigned.console" && ! grep -q '^KERNEL-RAN' "$work/unsigned.out" &&
	grep -aq 'failed to load Boot.*Access Denied' "$work/unsigned.console"
tap $? "$variant: the firmware refuses the unsigned image (Access Denied) and no kernel runs (secure boot enforced)"

# A MOK-style key of the machine owner's, for an IMA signature.
openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 -days 1 -batch \
	-subj "/CN=Machine owner IMA key (vm tests)/" -keyout "$work/owner.pem" \
	-out "$work/owner.crt" 2> /dev/null
cat > "$work/signed.sh" <<GUEST
$guest_prologue
echo "$(base64 -w0 "$work/owner.pem" 2> /dev/null)" | base64 -d > /tmp/owner.pem
GUEST
cat >> "$work/signed.sh" <<'GUEST'
dmesg | grep -q 'Secure boot enabled' && echo SECUREBOOT
echo "LOCKDOWN $(cat /sys/kernel/security/lockdown)"
echo "SIG_ENFORCE $(cat /sys/module/module/parameters/sig_enforce)"
sed 's/^/POLICY /' /sys/kernel/security/ima/policy
result CRC7 finit /mods/crc7.ko
rmmod crc7
result CRC7-INIT init /mods/crc7.ko
rmmod crc7
grep -c ' /mods/crc7.ko$' /sys/kernel/security/ima/ascii_runtime_measurements | sed 's/^/MEASURED /'
result FLIPPED finit /mods/crc7-flipped.ko
result UNSIGNED finit /mods/hello.ko
cp /mods/hello.ko /tmp/imasig.ko
evmctl ima_sign --key /tmp/owner.pem -a sha256 /tmp/imasig.ko > /dev/null 2>&1 && echo IMASIG-WRITTEN
result IMASIG finit /tmp/imasig.ko
result DKMS finit /mods/hello-signed.ko
GUEST
ovmf_boot signed "$work/bzImage.signed" signed
saw signed '^SECUREBOOT$' && saw signed '^LOCKDOWN .*\[integrity\]'
tap $? "$variant, secure boot: the kernel sees secure boot and locks down in integrity mode"
saw signed '^SIG_ENFORCE Y$' && saw signed '^POLICY measure func=MODULE_CHECK' &&
	! saw signed '^POLICY appraise func=MODULE_CHECK'
tap $? "$variant, secure boot: the arch policy enforces module signatures and measures modules, with no MODULE_CHECK appraisal"
saw signed '^CRC7 errno=OK taint=0$' && saw signed '^CRC7-INIT errno=OK taint=0$' &&
	saw signed '^MEASURED [1-9]'
tap $? "$variant, secure boot: listed crc7.ko loads through finit_module() and init_module(), untainted, and is measured"
saw signed '^FLIPPED errno=EKEYREJECTED taint=0$' && saw signed '^UNSIGNED errno=EKEYREJECTED taint=0$'
tap $? "$variant, secure boot: a changed crc7 and the unsigned hello.ko are refused (EKEYREJECTED)"
saw signed '^IMASIG-WRITTEN$' && saw signed '^IMASIG errno=EKEYREJECTED taint=0$'
tap $? "$variant, secure boot: hello.ko with only an IMA signature (security.ima) is refused (EKEYREJECTED)"
saw signed '^DKMS errno=OK taint=4096$' && saw signed '^DKMS modtaint=O$'
tap $? "$variant, secure boot: hello.ko signed with the trusted test key loads (O only)"
[[ $(cat "$work/signed.rc") == 0 ]]
tap $? "$variant, secure boot: the boot ended cleanly, no warning on the console"
