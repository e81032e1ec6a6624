#!/bin/bash
# Usage: run-dkms.sh BUILD_DIR VARIANT
# What a distribution that ships a reproducible kernel and DKMS needs, in
# TAP, on VARIANT (hashes+sig in make check, hashes+sigforce in
# check-full): a kernel with no build-time key that trusts a fixed
# certificate (tests/keys/dkms-test-cert.pem, CONFIG_SYSTEM_TRUSTED_KEYS).
# hello.ko, built out of tree against the kernel's build directory and
# signed with scripts/sign-file and the test key as DKMS signs
# (initramfs/build-modules.sh), in every enforcing mode of the variant
# (hashes+sig: module.sig_enforce=1, lockdown=integrity, and
# module.sig_enforce=1 under the IMA policy that accepts appended
# signatures; hashes+sigforce: a plain boot, MODULE_SIG_FORCE):
#  - loads, tainted only as out of tree (O), never as unverified (E);
#  - unsigned, signed with another key, or changed after signing: refused,
#    with the errno and log line of each mode, the kernel untainted;
#  - the in-tree crc7 still loads through the allowlist, plain and
#    through the kernel's zstd decompressor, untainted;
#  - the machine owner's path: a module signed with the owner's key is
#    refused until root adds the owner's certificate, signed by the
#    trusted key, to .secondary_trusted_keys, and then loads; a
#    self-signed certificate is not let into that keyring.
# Every test fails when the boot it reads did not end cleanly or when the
# kernel it needs is not built.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
variant=$2
work=$build/test-results/dkms-$variant
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/vm-scenario.sh"

# mode NAME KERNEL_ARGS SETUP: the enforcing modes; SETUP runs in the guest
# first.  UNSIGNED, FOREIGN and OWNER-BEFORE: what a module with no
# signature, or with a signature by a key the kernel does not trust, gets.
case $variant in
hashes+sig)
	modes="enforce lockdown ima"
	;;
hashes+sigforce)
	modes="sigforce"
	;;
*)
	echo "usage: run-dkms.sh BUILD_DIR hashes+sig|hashes+sigforce" >&2
	exit 2
	;;
esac
tap_plan $(($(wc -w <<< "$modes") * 8))

args_of() {
	case $1 in
	enforce | ima) echo module.sig_enforce=1 ;;
	lockdown) echo lockdown=integrity ;;
	sigforce) ;;
	esac
}

# The refusal of a module without a trusted signature, per mode, as
# "ERRNO LOG_ERE" (no signature / unknown key).
untrusted() {	# untrusted MODE unsigned|unknown
	case $1:$2 in
	enforce:unsigned | sigforce:unsigned) echo 'EKEYREJECTED Loading of unsigned module is rejected' ;;
	enforce:unknown | sigforce:unknown) echo 'EKEYREJECTED Loading of module with unavailable key is rejected' ;;
	lockdown:*) echo 'EPERM Lockdown: [a-z]+: unsigned module loading is restricted' ;;
	ima:*) echo 'EACCES hello[a-z-]*\.ko: sha256:[0-9a-f]{64} is not on the module allowlist' ;;
	esac
}

for mode in $modes; do
	setup= owner_ima=
	if [[ $mode == ima ]]; then
		# IMA verifies appended signatures with the keys of its ".ima"
		# keyring, which takes only keys that a built-in key signed
		# (CONFIG_INTEGRITY_TRUSTED_KEYRING): the trusted certificate
		# itself, and the owner's, which it certified.
		setup='keyctl padd asymmetric "" %keyring:.ima < /mods/signing_key.x509 >/dev/null || echo IMACERT-FAILED
policy "$(cat /etc/ima/modules-allowlist-modsig.policy)"'
		# IMA does not consult .secondary_trusted_keys: the owner
		# gives IMA the certificate as well.
		owner_ima='keyctl padd asymmetric "" %keyring:.ima < /mods/owner.x509 >/dev/null || echo OWNER-IMA-FAILED'
	fi
	cat > "$work/$mode.sh" <<GUEST
$guest_prologue
$setup
# Refusals first: the taint they must not set is cumulative.
result UNSIGNED finit /mods/hello.ko
result FOREIGN finit /mods/hello-foreign.ko
result MODIFIED finit /mods/hello-badsig.ko
result OWNER-BEFORE finit /mods/hello-owner.ko
result CRC7 finit /mods/crc7.ko
rmmod crc7
result CRC7-ZST finit-compressed /mods/crc7.ko.zst
rmmod crc7
if keyctl padd asymmetric "" %:.secondary_trusted_keys < /mods/rogue.x509 > /dev/null 2>&1; then
	echo ROGUE-ADDED
else
	echo ROGUE-REFUSED
fi
keyctl padd asymmetric "" %:.secondary_trusted_keys < /mods/owner.x509 > /dev/null && echo OWNER-ADDED
keyctl show %:.secondary_trusted_keys | sed 's/^/SECONDARY /'
$owner_ima
result DKMS insmod /mods/hello-signed.ko
rmmod hello
result DKMS-FINIT finit /mods/hello-signed.ko
rmmod hello
result OWNER finit /mods/hello-owner.ko
GUEST
	# shellcheck disable=SC2046 # zero or one argument
	boot "$mode" "$variant" $(args_of "$mode")
	what="$variant, $mode"

	read -r errno log < <(untrusted "$mode" unsigned)
	saw "$mode" "^UNSIGNED errno=$errno taint=0\$" && saw "$mode" "^UNSIGNED log: .*$log"
	tap $? "$what: unsigned hello.ko is refused ($errno)"
	read -r errno log < <(untrusted "$mode" unknown)
	saw "$mode" "^FOREIGN errno=$errno taint=0\$" && saw "$mode" "^FOREIGN log: .*$log" &&
		saw "$mode" "^OWNER-BEFORE errno=$errno taint=0\$"
	tap $? "$what: hello.ko signed with a key the kernel does not know, and with the owner's key not yet added, is refused ($errno)"
	# A signature by the trusted key over other bytes: rejected by the
	# signature check itself, whatever the mode (IMA: no allowlist entry,
	# no valid modsig).
	errno=EKEYREJECTED
	[[ $mode == ima ]] && errno=EACCES
	saw "$mode" "^MODIFIED errno=$errno taint=0\$"
	tap $? "$what: hello.ko changed after signing is refused ($errno)"
	saw "$mode" '^CRC7 errno=OK taint=0$' && saw "$mode" '^CRC7-ZST errno=OK taint=0$'
	tap $? "$what: in-tree crc7.ko loads through the allowlist, plain and through the kernel's zstd decompressor, untainted"
	saw "$mode" '^DKMS errno=OK taint=4096$' && saw "$mode" '^DKMS modtaint=O$' &&
		saw "$mode" '^DKMS-FINIT errno=OK taint=4096$' && saw "$mode" '^DKMS-FINIT modtaint=O$' &&
		! saw "$mode" '^DKMS(-FINIT)? log: .*verification failed'
	tap $? "$what: the DKMS-signed hello.ko loads with insmod and finit_module(), out-of-tree taint only (O, no E)"
	saw "$mode" '^ROGUE-REFUSED$' && ! saw "$mode" '^SECONDARY .*Self-signed module key'
	tap $? "$what: a self-signed certificate is not let into .secondary_trusted_keys"
	saw "$mode" '^OWNER-ADDED$' && saw "$mode" '^SECONDARY .*Machine owner module key' &&
		! saw "$mode" '^(IMACERT|OWNER-IMA)-FAILED$'
	tap $? "$what: root adds the owner's certificate, signed by the trusted key, to .secondary_trusted_keys"
	saw "$mode" '^OWNER errno=OK taint=4096$' && saw "$mode" '^OWNER modtaint=O$'
	tap $? "$what: after that, hello.ko signed with the owner's key loads (O, no E)"
done
