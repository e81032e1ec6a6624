#!/bin/sh
# Guest side of the distro suite's measured boot (installed as
# /usr/local/sbin/distro-measured by make-disk.sh, run by record-boot.sh
# in the boots with a TPM): quote PCRs 0-10 of both banks with a fresh
# attestation key under the TPM's endorsement key and the nonce the host
# put on the kernel command line (distro.nonce=HEX), then send the quote,
# the AK, the EK certificate and IMA's lists (binary per bank, ASCII as
# an agent reads them), in that order: a list read after the quote holds
# at least what was quoted.  Tying the AK to the EK (credential
# activation) is the attest suite's part (tests/vm/run-attest.sh).
nonce=$(sed -n 's/.*distro\.nonce=\([0-9a-f]*\).*/\1/p' /proc/cmdline)
ima=/sys/kernel/security/ima
pcrs=sha1:0,1,2,3,4,5,6,7,8,9,10+sha256:0,1,2,3,4,5,6,7,8,9,10

fact() {
	key=$1
	shift
	echo "distro-test: $key: $*"
}

send() {	# send NAME FILE
	echo "FILE-BEGIN $1"
	base64 < "$2"
	echo "FILE-END $1"
}

work=$(mktemp -d)
cd "$work" || exit 1
tpm2_nvread 0x01c00002 -o ekcert.der > /dev/null 2>&1
if tpm2_createek -c ek.ctx -G rsa -u ek.pub > /dev/null 2>&1 &&
	tpm2_createak -C ek.ctx -c ak.ctx -G rsa -g sha256 -s rsassa \
		-u ak.pub -n ak.name > /dev/null 2>&1 &&
	tpm2_quote -c ak.ctx -l "$pcrs" -q "$nonce" -g sha256 -m quote.msg \
		-s quote.sig -o quote.pcrs -F values > /dev/null 2>&1; then
	fact quote "made with nonce $nonce"
else
	fact quote "failed"
fi
for f in ekcert.der ak.pub ak.name quote.msg quote.sig quote.pcrs; do
	[ -f "$f" ] && send "$f" "$f"
done
send sha1.log "$ima/binary_runtime_measurements_sha1"
send sha256.log "$ima/binary_runtime_measurements_sha256"
send ascii.log "$ima/ascii_runtime_measurements"
send ascii-sha256.log "$ima/ascii_runtime_measurements_sha256"
cd / && rm -rf "$work"
