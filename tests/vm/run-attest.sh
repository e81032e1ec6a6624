#!/bin/bash
# Usage: run-attest.sh BUILD_DIR [--reboot]
# Measured boot end to end with a software TPM 2.0 (issue 13), in TAP:
# the hashes kernel under qemu with swtpm (tests/lib/swtpm.sh: a fresh
# state per boot, banks sha1 and sha256), IMA policy
# ima-policy/attest-modules.policy (measure module loads with ima-ng and
# the allowlist as critical data, appraise modules through the allowlist).
#  - boot "clean" (ima_appraise enforcing): loads the listed crc7, crc4
#    and crc8 from /lib/modules;
#  - boot "dirty" (ima_appraise=log): the same, then the unlisted
#    /mods/hello.ko, crc7 again through init_module() (after rmmod crc7)
#    and a tampered crc7.ko (/mods/crc7-flipped.ko copied to
#    /tmp/tampered/crc7.ko, after rmmod crc7).
# Each boot's swtpm is made as a manufacturer would: an EK certificate
# and a platform certificate in NV, signed by a local CA this run makes
# (swtpm_localca, in $work/ca; tests/lib/swtpm.sh).  The guest, through
# /dev/tpmrm0 with tpm2-tools, reads its EK certificate (NV 0x01c00002),
# creates an AK under the EK and sends (base64 on the console, send_file)
# the certificate, the AK's public area and name, then waits for the
# host's challenge on its second serial port (ttyS1, a FIFO pair on the
# host).  The host checks that the certificate chains to the CA, makes a
# credential for the AK's name with the certificate's key
# (tpm2_makecredential --tcti none: the verifier holds no TPM) and one
# for the AK of another TPM (a second swtpm on the host, with its own
# CA), and sends both with a fresh nonce.  The guest activates both with
# its TPM (tpm2_activatecredential: only the first can succeed), quotes
# PCRs 0-10 of both banks with the AK and the nonce, and sends back the
# secret, the quote, its signature and PCR values, both banks' binary
# lists, the ASCII lists of the sha1 and sha256 banks and PCRs 0-10 of
# both banks from sysfs.  The host checks:
#  - IMA found the TPM: no TPM-bypass message in the guest's dmesg (which
#    shows the TIS driver's TPM 2.0), /sys/class/tpm/tpm0 and
#    /dev/tpmrm0 exist, the boot_aggregate is not zeros;
#  - the EK certificate chains to the CA, the other TPM's does not; the
#    guest's TPM gave back the credential's secret, and could not
#    activate the other TPM's AK's credential;
#  - verify-log verifies the quote (libtss2-mu, OpenSSL) with that AK,
#    the name the credential was made for and the nonce; the quote's PCR
#    digest is also the one computed here from verify-log's replay of
#    each bank and the quoted PCRs 0-9; a quote by the other TPM's AK, the
#    clean boot's quote offered for the dirty boot's nonce, a changed PCR
#    value are refused (exit 1), a truncated or garbled quote is an error
#    (exit 2);
#  - verify-log, given the quote: clean passes (exit 0); dirty reports
#    exactly the unlisted and the tampered entries (index, path) and
#    nothing else (exit 1); its replay equals sysfs's PCR 10; one boot's
#    list against the other's quote fails;
#  - evmctl ima_measurement agrees on both logs;
#  - modhash export (sha256sum and keylime) holds exactly the digests the
#    clean log measured for the listed modules, and the digest of the
#    module-allowlist entry;
#  - Keylime's rules (tests/tools/keylime-rules.py, as NOTES.md writes
#    them down): the keylime export, with the boot_aggregate from the
#    clean boot's list, passes the clean boot's ascii_runtime_measurements
#    (what an agent sends by default) and, with --log-hash-alg sha256, its
#    ascii_runtime_measurements_sha256; on the dirty boot's list it fails
#    exactly the unlisted and the tampered entries, while crc7 loaded
#    once more through init_module() (modload init: what kmod 30 does
#    with a .ko.xz; measured as critical data "modules", a rule the
#    guest adds if the shipped policy lacks it) passes by its ima-buf
#    digest; and the negative case of each rule, made from the clean
#    boot's lists by keylime-rules-cases.py, fails where the rule says;
#  - the boot_aggregate is IMA's function of the quoted PCRs 0-9 (IMA
#    hashes with sha256 here, so it reads the sha256 bank, PCRs 0-9);
#  - the dirty boot's entries up to its listed loads are the clean boot's,
#    and so is its PCR 10 at that point (same kernel, same load order).
# With --reboot (make check-full): the clean boot twice, each with a
# fresh TPM; both banks' PCRs 0-10 and both lists must be the same.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
mode=${2:-}
. "$here/../lib/tap.sh"
. "$here/../lib/console.sh"
. "$here/../lib/swtpm.sh"

kout=$build/out/hashes
base=$build/initramfs/base.cpio.gz
modhash=$build/tools/modhash/modhash
entries=$top/tests/lib/ima-entries.py
release=$(cat "$kout/kernelrelease" 2> /dev/null)
tree=$kout/modules/lib/modules/$release
work=$build/test-results/attest${mode:+-reboot}
rm -rf "$work"
mkdir -p "$work"

# The negative cases keylime-rules-cases.py makes, one test each.
keylime_cases=23
if [[ $mode == --reboot ]]; then
	tap_plan 5
else
	tap_plan $((33 + keylime_cases))
fi

# The quoted PCRs: both banks, PCRs 0-10.
quote_pcrs=sha1:0,1,2,3,4,5,6,7,8,9,10+sha256:0,1,2,3,4,5,6,7,8,9,10

# guest_script MODE: the guest's /test.sh.
guest_script() {
	cat <<GUEST
#!/bin/sh
. /bin/vmtest.sh
mode=$1
quote_pcrs=$quote_pcrs
GUEST
	cat <<'GUEST'
ima=/sys/kernel/security/ima
lib=/lib/modules/$(uname -r)/kernel/lib
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
# kmod's clients by their full path: in busybox sh a bare "insmod" or
# "rmmod" is busybox's own applet, even with kmod's on PATH.
echo "INSMOD $(/sbin/insmod --version | head -n 1)"
[ -d /sys/class/tpm/tpm0 ] && echo "HAVE /sys/class/tpm/tpm0"
[ -c /dev/tpmrm0 ] && echo "HAVE /dev/tpmrm0"
pcrs() {	# pcrs NAME: PCRs 0-10 of both banks, evmctl's --pcrs form
	for bank in sha1 sha256; do
		for i in 0 1 2 3 4 5 6 7 8 9 10; do
			printf 'PCR-%02d: %s\n' $i "$(cat /sys/class/tpm/tpm0/pcr-$bank/$i)"
		done > /tmp/$1.$bank.pcrs
		send_file $1.$bank.pcrs /tmp/$1.$bank.pcrs
	done
}
# init_module() buffers are critical data "modules": measured with the
# shipped policy's rule, or one added here if it has none.
{ cat /etc/ima/attest-modules.policy
  grep -qx 'measure func=CRITICAL_DATA label=modules' /etc/ima/attest-modules.policy ||
	echo 'measure func=CRITICAL_DATA label=modules'
} > $ima/policy && echo POLICY-LOADED
for m in crc7 crc4 crc8; do
	/sbin/insmod $lib/$m.ko && echo "LOADED $m"
done
pcrs listed
if [ $mode = dirty ]; then
	/sbin/insmod /mods/hello.ko
	echo "UNLISTED-LOAD rc=$?"
	/sbin/rmmod crc7
	# crc7 as a loader that decompresses in user space (kmod 30, for a
	# .ko.xz) hands it over: init_module() of the image, no file.
	echo "INIT-MODULE-LOAD $(/bin/modload init /mods/crc7.ko)"
	/sbin/rmmod crc7
	mkdir /tmp/tampered
	cp /mods/crc7-flipped.ko /tmp/tampered/crc7.ko
	/sbin/insmod /tmp/tampered/crc7.ko
	echo "TAMPERED-LOAD rc=$?"
fi
# The EK certificate and an AK; the host's challenge on ttyS1: a nonce
# and two credentials (or "-"), for this AK and for another TPM's.  The
# tty is opened before saying so: bytes that came before may be lost.
# tpm2-tools is one program; the tools without a link in the initramfs
# are called through it.
cd /tmp
tpm2 nvread 0x01c00002 -o ekcert.der 2> /dev/null
tpm2_createek -c ek.ctx -G rsa -u ek.pub > /dev/null &&
	tpm2_createak -C ek.ctx -c ak.ctx -G rsa -g sha256 -s rsassa -u ak.pub -n ak.name > /dev/null &&
	echo AK-CREATED
for f in ekcert.der ak.pub ak.name; do
	send_file $f $f
done
exec 3< /dev/ttyS1
stty -F /dev/ttyS1 -echo 2> /dev/null
echo CHALLENGE-WAIT
read -t 120 -r word nonce cred foreign <&3
echo "CHALLENGE-READ $word"
# The TSS's messages on a refusal (the other TPM's credential) go to a
# file: their "WARNING:" on the console would be taken for the kernel's.
activate() {	# activate BLOB SECRET: tpm2_activatecredential, with the EK's policy
	tpm2 startauthsession --policy-session -S session.ctx > /dev/null &&
		tpm2 policysecret -S session.ctx -c e > /dev/null &&
		tpm2 activatecredential -c ak.ctx -C ek.ctx -i $1 -o $2 -P session:session.ctx \
			> /dev/null 2> $2.err
	rc=$?
	[ $rc = 0 ] || sed -n 's/^ERROR: /TSS-ERROR /p' $2.err
	tpm2_flushcontext session.ctx > /dev/null 2>&1
	return $rc
}
try() {	# try NAME BLOB: activate BLOB, base64 ("-": none was sent)
	[ "$2" = - ] && return
	echo "$2" | base64 -d > $1.blob
	activate $1.blob $1.secret
	echo "ACTIVATE $1 rc=$?"
}
try cred "$cred"
try foreign "$foreign"
send_file secret cred.secret
# The quote first, then the lists: a list read after the quote holds at
# least what was quoted (verify-log stops where the PCR matches).
tpm2_quote -c ak.ctx -l $quote_pcrs -q "$nonce" -g sha256 \
	-m quote.msg -s quote.sig -o quote.pcrs -F values > /dev/null &&
	echo QUOTED
for f in quote.msg quote.sig quote.pcrs; do
	send_file $f $f
done
send_file sha1.log $ima/binary_runtime_measurements_sha1
send_file sha256.log $ima/binary_runtime_measurements_sha256
# What a Keylime agent sends: ascii_runtime_measurements by default.
send_file ascii.log $ima/ascii_runtime_measurements
send_file ascii-sha256.log $ima/ascii_runtime_measurements_sha256
pcrs final
dmesg > /tmp/dmesg
send_file dmesg /tmp/dmesg
GUEST
}

# other_tpm: another TPM on the host (swtpm, EK certificate from a CA
# of its own) with an AK, for the credential and the quote that must be
# refused: $work/other/ekcert.der, ak.pub, ak.name, ak.ctx.  It runs
# until other_quote has quoted for each boot.
other_tpm() {
	local d=$work/other
	mkdir -p "$d"
	swtpm_ca "$work/other-ca"
	swtpm_host_start "$d/swtpm" "$work/other-ca" > "$d/out" &&
		tpm2_nvread 0x01c00002 -o "$d/ekcert.der" > /dev/null 2>&1 &&
		tpm2_createek -c "$d/ek.ctx" -G rsa -u "$d/ek.pub" > /dev/null &&
		tpm2_flushcontext -t && tpm2_createak -C "$d/ek.ctx" -c "$d/ak.ctx" -G rsa \
			-g sha256 -s rsassa -u "$d/ak.pub" -n "$d/ak.name" > /dev/null &&
		tpm2_flushcontext -t
}

# other_quote NAME: the other TPM's quote with boot NAME's nonce, in
# $work/other/NAME/.
other_quote() {
	mkdir -p "$work/other/$1"
	[[ -s $work/other/ak.ctx ]] &&
		tpm2_quote -c "$work/other/ak.ctx" -l $quote_pcrs -q "$(cat "$work/$1.nonce")" -g sha256 \
			-m "$work/other/$1/quote.msg" -s "$work/other/$1/quote.sig" \
			-o "$work/other/$1/quote.pcrs" -F values > /dev/null && tpm2_flushcontext -t
}

# ek_chains CERT_DER: the certificate chains to this run's CA.
ek_chains() {
	openssl x509 -inform der -in "$1" -out "$1.pem" 2> /dev/null &&
		openssl verify -CAfile "$work/ca/swtpm-localca-rootca-cert.pem" \
			-untrusted "$work/ca/issuercert.pem" "$1.pem" > /dev/null 2>&1
}

# challenge NAME VM_PID FIFO: once boot NAME's guest waits for it, check
# its EK certificate and send on FIFO (its ttyS1) the nonce and the
# credentials for its AK's name and the other TPM's AK's name, made with
# the certificate's key and a secret kept in $work/NAME.secret; "-" for
# a credential not made.  The name the credential was made for is kept
# in $work/NAME.akname, the certificate's verdict in $work/NAME.ekchain.
challenge() {
	local name=$1 d=$work/$1 cred=- foreign=- fd
	until tr -d '\r' 2> /dev/null < "$work/$name.console" | grep -q '^CHALLENGE-WAIT$'; do
		kill -0 "$2" 2> /dev/null || return 1
		sleep 0.5
	done
	console_files "$work/$name.console" "$d"
	ek_chains "$d/ekcert.der"
	echo $? > "$work/$name.ekchain"
	if [[ $(cat "$work/$name.ekchain") == 0 && -s $d/ak.name ]]; then
		cp "$d/ak.name" "$work/$name.akname"
		openssl x509 -in "$d/ekcert.der.pem" -pubkey -noout > "$work/$name.ek.pem"
		head -c 32 /dev/urandom > "$work/$name.secret"
		tpm2_makecredential --tcti none -u "$work/$name.ek.pem" -G rsa -s "$work/$name.secret" \
			-n "$(xxd -p -c 256 "$work/$name.akname")" -o "$work/$name.cred" > /dev/null 2>&1 &&
			cred=$(base64 -w0 "$work/$name.cred")
		[[ -s $work/other/ak.name ]] &&
			tpm2_makecredential --tcti none -u "$work/$name.ek.pem" -G rsa -s "$work/$name.secret" \
				-n "$(xxd -p -c 256 "$work/other/ak.name")" -o "$work/$name.foreign" > /dev/null 2>&1 &&
			foreign=$(base64 -w0 "$work/$name.foreign")
	fi
	# Read-write: opening a FIFO so never waits for a reader.
	exec {fd}<> "$3"
	echo "CHALLENGE $(cat "$work/$name.nonce") $cred $foreign" >&"$fd"
	exec {fd}>&-
}

# boot NAME MODE [KERNEL_ARG...]: one boot with a fresh TPM and the
# challenge above; the files it sent go to $work/NAME/, its output to
# $work/NAME.out, the boot's status to $work/NAME.rc, its nonce to
# $work/NAME.nonce.
boot() {
	local name=$1 mode=$2 rc=1 start=$SECONDS chal vm
	shift 2
	mkdir -p "$work/$name"
	od -An -N20 -tx1 /dev/urandom | tr -d ' \n' > "$work/$name.nonce"
	guest_script "$mode" > "$work/$name.sh"
	if [[ ! -f $kout/bzImage || ! -f $kout/modules.cpio.gz || ! -f $base ]]; then
		echo "# $kout or $base is missing (kernel not built)" > "$work/$name.out"
	elif swtpm_start "$work/$name.swtpm" "$work/ca" > "$work/$name.out"; then
		# The guest's ttyS1: qemu reads PATH.in and writes PATH.out.
		chal=$(mktemp -d /tmp/attest-chal.XXXXXX)
		mkfifo "$chal/tty.in" "$chal/tty.out"
		VM_QEMU_ARGS="$swtpm_qemu_args -chardev pipe,id=chal,path=$chal/tty -serial chardev:chal" \
			VM_TIMEOUT=${VM_TIMEOUT:-240} \
			"$here/run-vm.sh" "$kout" "$base" "$work/$name.sh" "$work/$name.console" \
			tpm_tis.force=1 "$@" >> "$work/$name.out" 2>&1 &
		vm=$!
		challenge "$name" "$vm" "$chal/tty.in"
		wait "$vm"
		rc=$?
		rm -rf "$chal"
		swtpm_stop
	fi
	echo "$rc" > "$work/$name.rc"
	echo "# boot $name: $((SECONDS - start)) s"
	console_files "$work/$name.out" "$work/$name"
}

# booted NAME: the boot ended cleanly; else explain once, status 1.
booted() {
	[[ $(cat "$work/$1.rc") == 0 ]] && return 0
	if [[ ! -f $work/$1.told ]]; then
		grep '^# ' "$work/$1.out" | head -n 30
		touch "$work/$1.told"
	fi
	return 1
}

# pcr NAME SNAPSHOT BANK N: PCR N as the guest read it from sysfs.
pcr() {
	sed -n "s/^PCR-$(printf %02d "$4"): \([0-9a-fA-F]*\)$/\L\1/p" "$work/$1/$2.$3.pcrs" 2> /dev/null
}

# quoted NAME BANK N: PCR N of BANK in NAME's quoted PCR values (trusted
# once verify-log verified the quote): the values of $quote_pcrs, in
# that order.
quoted() {
	local off size
	case $2 in
	sha1) off=$(($3 * 20)) size=20 ;;
	sha256) off=$((11 * 20 + $3 * 32)) size=32 ;;
	esac
	[[ -s $work/$1/quote.pcrs ]] &&
		od -An -v -tx1 -j "$off" -N "$size" "$work/$1/quote.pcrs" | tr -d ' \n' && echo
}

# replayed NAME BANK: the PCR 10 verify-log computed for NAME's BANK list.
replayed() {
	sed -n "s/^$2 PCR-10: \([0-9a-f]*\) after .*/\1/p" "$work/$1.$2.verify" 2> /dev/null
}

# quote_opts NAME [DIR [AK_PUB [AK_NAME]]]: in the array q, verify-log's
# options for a quote with boot NAME's nonce and the AK name its
# credential was made for: the quote in DIR (default $work/NAME), made
# with AK_PUB (default NAME's AK); AK_NAME instead of that name.
quote_opts() {
	local d=${2:-$work/$1}
	q=(--quote "$d/quote.msg" --quote-sig "$d/quote.sig" --pcr-values "$d/quote.pcrs"
		--ak-pub "${3:-$work/$1/ak.pub}" --ak-name "${4:-$work/$1.akname}"
		--nonce "$(cat "$work/$1.nonce" 2> /dev/null)")
}

# verify NAME: verify-log on both banks of NAME's lists with its quote;
# output in $work/NAME.BANK.verify, status in $work/NAME.BANK.vrc.
verify() {
	local bank q
	quote_opts "$1"
	for bank in sha1 sha256; do
		"$modhash" verify-log --kernel "$kout/vmlinux" --bank "$bank" \
			"${q[@]}" "$work/$1/$bank.log" \
			> "$work/$1.$bank.verify" 2>&1
		echo $? > "$work/$1.$bank.vrc"
		"$entries" "$bank" "$work/$1/$bank.log" > "$work/$1.$bank.entries" 2> /dev/null
	done
}

# no_bypass NAME: IMA did not fall back to TPM-bypass in boot NAME.
no_bypass() {
	booted "$1" || return 1
	local zero agg
	zero=$(printf '0%.0s' $(seq 64))
	agg=$(awk '$1 == 0 && $5 == "boot_aggregate" { print $4 }' "$work/$1.sha256.entries")
	# IMA's bypass message is pr_info, below the console's loglevel=5:
	# it is looked for in the guest's dmesg, next to the TIS driver's.
	grep -q 'tpm_tis .*2\.0 TPM' "$work/$1/dmesg" &&
		! grep -aq 'activating TPM-bypass' "$work/$1.console" "$work/$1/dmesg" &&
		grep -qx 'HAVE /sys/class/tpm/tpm0' "$work/$1.out" &&
		grep -qx 'HAVE /dev/tpmrm0' "$work/$1.out" &&
		[[ -n $agg && $agg != "sha256:$zero" ]] ||
		{ echo "# boot $1: bypass message, no TPM device or boot_aggregate '$agg'"; return 1; }
}

# quote_digest NAME: the quote's signed PCR digest equals the sha256 of
# the quoted selection (sha1 PCRs 0-10, sha256 PCRs 0-10) with PCR 10 of
# each bank taken from verify-log's replay instead of the quote.
quote_digest() {
	booted "$1" || return 1
	python3 - "$work/$1/quote.msg" "$(replayed "$1" sha1)" "$(replayed "$1" sha256)" \
		$(for b in sha1 sha256; do for i in 0 1 2 3 4 5 6 7 8 9; do quoted "$1" $b $i; done; done) <<'PY'
import hashlib, sys
msg = open(sys.argv[1], 'rb').read()
r1, r256, low = sys.argv[2], sys.argv[3], sys.argv[4:]
assert len(r1) == 40 and len(r256) == 64 and len(low) == 20, sys.argv[2:]
values = low[:10] + [r1] + low[10:] + [r256]
want = hashlib.sha256(bytes.fromhex(''.join(values))).digest()
# TPMS_ATTEST of a quote ends with TPM2B_DIGEST pcrDigest (sha256 here).
assert msg[-34:-32] == b'\x00\x20' and msg[-32:] == want, (msg[-32:].hex(), want.hex())
PY
}

# aggregate NAME SOURCE: the boot_aggregate IMA computes from the sha256
# bank's PCRs 0-9 (SOURCE quoted: from the verified quote; sysfs: as the
# guest read them), and the sha1 rule's value (PCRs 0-7) for the record.
aggregate() {
	local i values= v
	for i in 0 1 2 3 4 5 6 7 8 9; do
		if [[ $2 == quoted ]]; then v=$(quoted "$1" sha256 $i); else v=$(pcr "$1" final sha256 $i); fi
		values+=$v
	done
	[[ ${#values} == 640 ]] && echo "sha256:$(xxd -r -p <<< "$values" | sha256sum | cut -d' ' -f1)"
}
aggregate_sha1() {
	local i values=
	for i in 0 1 2 3 4 5 6 7; do values+=$(quoted "$1" sha1 $i); done
	[[ ${#values} == 320 ]] && echo "sha1:$(xxd -r -p <<< "$values" | sha1sum | cut -d' ' -f1)"
}

# evmctl_agrees NAME: evmctl replays NAME's sha1 list (and the sha256
# bank from it) to the quoted PCR 10 of both banks, at the entry where
# verify-log's replay reached it.
evmctl_agrees() {
	booted "$1" || return 1
	local bank n at1 at256
	at1=$(sed -n 's/^sha1 PCR-10: [0-9a-f]* after \([0-9]*\) entries.*/\1/p' "$work/$1.sha1.verify")
	at256=$(sed -n 's/^sha256 PCR-10: [0-9a-f]* after \([0-9]*\) entries.*/\1/p' "$work/$1.sha256.verify")
	for bank in sha1 sha256; do
		{ for n in 0 1 2 3 4 5 6 7 8 9 10; do printf 'PCR-%02d: %s\n' $n "$(quoted "$1" $bank $n)"; done; } \
			> "$work/$1.$bank.evmpcrs"
	done
	evmctl -v ima_measurement --pcrs "sha1,$work/$1.sha1.evmpcrs" \
		--pcrs "sha256,$work/$1.sha256.evmpcrs" "$work/$1/sha1.log" > "$work/$1.evmctl" 2>&1 &&
		[[ -n $at1 && -n $at256 ]] &&
		grep -qx "sha1 PCR-10: succeed at entry $at1" "$work/$1.evmctl" &&
		grep -qx "sha256 PCR-10: succeed at entry $at256" "$work/$1.evmctl" ||
		{ grep -E 'PCR|atch|rror' "$work/$1.evmctl" | head -n 12 | sed 's/^/# /'; return 1; }
}

# tied NAME: boot NAME's EK certificate chains to this run's CA and its
# TPM activated the credential made for its AK's name with that
# certificate's key: the secret came back.
tied() {
	booted "$1" || return 1
	[[ $(cat "$work/$1.ekchain" 2> /dev/null) == 0 ]] &&
		grep -qx 'ACTIVATE cred rc=0' "$work/$1.out" &&
		[[ -s $work/$1.secret ]] && cmp -s "$work/$1.secret" "$work/$1/secret" ||
		{ echo "# boot $1: EK certificate check $(cat "$work/$1.ekchain" 2> /dev/null)," \
			"$(grep '^ACTIVATE cred' "$work/$1.out"), secret back: $(cmp "$work/$1.secret" "$work/$1/secret" 2>&1)"; return 1; }
}

# quote_verified NAME: verify-log accepted NAME's quote on both banks'
# runs, signed by the AK of the name its credential was made for.
quote_verified() {
	local bank name
	name=$(xxd -p -c 256 "$work/$1.akname" 2> /dev/null)
	for bank in sha1 sha256; do
		[[ -n $name ]] && grep -qx "quote: verified: rsassa-sha256 signature by the AK $name (the name given), the nonce given, PCR values hash to the signed digest (sha1 PCRs 0-10, sha256 PCRs 0-10)" \
			"$work/$1.$bank.verify" ||
			{ echo "# boot $1, $bank:"; head -n 3 "$work/$1.$bank.verify" 2> /dev/null | sed 's/^/#   /'; return 1; }
	done
}

# try_quote TAG RC PATTERN VERIFY_LOG_ARG...: verify-log on the sha256
# bank with the args exits RC, a line of its output matching PATTERN
# (grep -E); output in $work/TAG.verify.
try_quote() {
	local tag=$1 want=$2 pattern=$3 rc
	shift 3
	"$modhash" verify-log --kernel "$kout/vmlinux" --bank sha256 "$@" > "$work/$tag.verify" 2>&1
	rc=$?
	[[ $rc == "$want" ]] && grep -qE "$pattern" "$work/$tag.verify" ||
		{ echo "# $tag: exit $rc (want $want) and no line /$pattern/:"; sed 's/^/#   /' "$work/$tag.verify"; return 1; }
}

swtpm_ca "$work/ca"
if [[ $mode == --reboot ]]; then
	boot clean1 clean
	boot clean2 clean
	for b in clean1 clean2; do
		verify "$b"
	done
	no_bypass clean1 && no_bypass clean2
	tap $? "two clean boots, each with a fresh swtpm: IMA found the TPM both times (no bypass)"
	tied clean1 && tied clean2 && quote_verified clean1 && quote_verified clean2 &&
		[[ $(cat "$work/clean1.sha1.vrc" "$work/clean1.sha256.vrc" "$work/clean2.sha1.vrc" "$work/clean2.sha256.vrc") == $'0\n0\n0\n0' ]]
	tap $? "both AKs are tied to their TPM's EK certificate, both quotes verify and verify-log passes both lists against them"
	same=0
	for bank in sha1 sha256; do
		for i in 0 1 2 3 4 5 6 7 8 9; do
			[[ -n $(quoted clean1 $bank $i) && $(quoted clean1 $bank $i) == "$(quoted clean2 $bank $i)" ]] ||
				{ echo "# $bank PCR $i: $(quoted clean1 $bank $i) then $(quoted clean2 $bank $i)"; same=1; }
		done
	done
	tap $same "the reboot gives the same PCRs 0-9 in both banks (firmware and boot measurements)"
	same=0
	for bank in sha1 sha256; do
		[[ -n $(quoted clean1 $bank 10) && $(quoted clean1 $bank 10) == "$(quoted clean2 $bank 10)" ]] ||
			{ echo "# $bank PCR 10: $(quoted clean1 $bank 10) then $(quoted clean2 $bank 10)"; same=1; }
	done
	tap $same "the reboot gives the same PCR 10 in both banks (same kernel, same module-load order)"
	cmp -s "$work/clean1/sha1.log" "$work/clean2/sha1.log" &&
		cmp -s "$work/clean1/sha256.log" "$work/clean2/sha256.log" && [[ -s $work/clean1/sha256.log ]]
	tap $? "the two boots' binary lists are the same, byte for byte, in both banks"
	exit 0
fi

other_tpm
boot clean clean
boot dirty dirty ima_appraise=log
for b in clean dirty; do
	other_quote "$b"
	verify "$b"
done
swtpm_host_stop
for b in clean dirty; do
	booted "$b"
	tap $? "boot $b with swtpm ended cleanly (no crash, no warning, guest script done)"
done
for b in clean dirty; do
	grep -qE '^INSMOD kmod version [0-9]+' "$work/$b.out"
	tap $? "boot $b: the modules were loaded by kmod's insmod ($(sed -n 's/^INSMOD //p' "$work/$b.out" | head -n 1))"
done

# --- the TPM and the quote ----------------------------------------------
for b in clean dirty; do
	no_bypass "$b"
	tap $? "boot $b: IMA uses the TPM (no TPM-bypass, tpm0 and /dev/tpmrm0, boot_aggregate not zeros)"
done
for b in clean dirty; do
	tied "$b"
	tap $? "boot $b: the guest's EK certificate (NV 0x01c00002) chains to this run's swtpm_localca CA, and its TPM activated the credential made for its AK's name with that certificate's key (the secret came back)"
done
ok=0
[[ -s $work/other/ekcert.der ]] && ! ek_chains "$work/other/ekcert.der" ||
	{ echo "# the other TPM's EK certificate: $(ls "$work/other/ekcert.der" 2>&1), chains: $((1 - $?))"; ok=1; }
for b in clean dirty; do
	[[ -s $work/$b.foreign ]] && grep -qx 'ACTIVATE foreign rc=[1-9][0-9]*' "$work/$b.out" ||
		{ echo "# boot $b: $(grep '^ACTIVATE foreign' "$work/$b.out" || echo "no foreign credential tried")"; ok=1; }
done
tap $ok "another TPM (a second swtpm, its own CA): its EK certificate does not chain to this CA, and neither guest's TPM could activate a credential made for its AK's name"
for b in clean dirty; do
	quote_verified "$b"
	tap $? "boot $b: verify-log verifies the quote of PCRs 0-10 (libtss2-mu, OpenSSL) with the activated AK's name, its key and the host's nonce"
done
for b in clean dirty; do
	quote_digest "$b"
	tap $? "boot $b: the quote's signed PCR digest is that of verify-log's replayed PCR 10 (both banks) with the quoted PCRs 0-9"
done

# --- verify-log -----------------------------------------------------------
ok=0
for bank in sha1 sha256; do
	[[ $(cat "$work/clean.$bank.vrc" 2> /dev/null) == 0 ]] &&
		grep -q "^$bank PCR-10: .*: matches the quoted value" "$work/clean.$bank.verify" &&
		grep -q '^modules: 3 loads, 3 on the allowlist' "$work/clean.$bank.verify" &&
		grep -qx 'boot_aggregate: entry 0 matches the quoted sha256 PCRs 0-9' "$work/clean.$bank.verify" &&
		! grep -q '^offending:' "$work/clean.$bank.verify" &&
		[[ $(replayed clean $bank) == "$(pcr clean final $bank 10)" ]] ||
		{ ok=1; sed 's/^/# /' "$work/clean.$bank.verify" 2> /dev/null; }
done
tap $ok "boot clean, both banks: verify-log reaches the quoted PCR 10 (which sysfs showed too), 3 listed loads, boot_aggregate matches the quote, exit 0"

# The entries the dirty boot must report: hello.ko and the tampered crc7.
hello=$(awk '$5 == "/mods/hello.ko" { print $1 }' "$work/dirty.sha256.entries" 2> /dev/null)
tampered=$(awk '$5 == "/tmp/tampered/crc7.ko" { print $1 }' "$work/dirty.sha256.entries" 2> /dev/null)
ok=0
for bank in sha1 sha256; do
	grep '^offending:' "$work/dirty.$bank.verify" 2> /dev/null |
		sed 's/^offending: entry \([0-9]*\) (offset [0-9]*): \([^:]*\): .*/\1 \2/' > "$work/dirty.$bank.offending"
	[[ $(cat "$work/dirty.$bank.vrc" 2> /dev/null) == 1 && -n $hello && -n $tampered ]] &&
		grep -q "^$bank PCR-10: .*: matches the quoted value" "$work/dirty.$bank.verify" &&
		grep -qx 'boot_aggregate: entry 0 matches the quoted sha256 PCRs 0-9' "$work/dirty.$bank.verify" &&
		[[ $(cat "$work/dirty.$bank.offending") == "$hello /mods/hello.ko"$'\n'"$tampered /tmp/tampered/crc7.ko" ]] &&
		[[ $(replayed dirty $bank) == "$(pcr dirty final $bank 10)" ]] ||
		{ ok=1; echo "# want entries $hello (hello.ko) and $tampered (tampered crc7.ko):"; sed 's/^/# /' "$work/dirty.$bank.verify" 2> /dev/null; }
done
tap $ok "boot dirty, both banks: verify-log reaches the quoted PCR 10, reports exactly entry $hello /mods/hello.ko and entry $tampered /tmp/tampered/crc7.ko, exit 1"

# The clean boot's list against the dirty boot's quote: a list that is
# not the quoted boot's never reaches its PCR 10.
quote_opts dirty
"$modhash" verify-log --kernel "$kout/vmlinux" --bank sha256 "${q[@]}" \
	"$work/clean/sha256.log" > "$work/swapped.verify" 2>&1
rc=$?
booted clean && booted dirty && [[ $rc == 1 ]] &&
	grep -q '^sha256 PCR-10: .*: the quoted value is never reached$' "$work/swapped.verify"
ok=$?
[[ $ok == 0 ]] || { echo "# exit $rc:"; sed 's/^/# /' "$work/swapped.verify"; }
tap $ok "verify-log: boot clean's list against boot dirty's quote never reaches its PCR 10, exit 1"

for b in clean dirty; do
	evmctl_agrees "$b"
	tap $? "boot $b: evmctl ima_measurement replays the list to the quoted PCR 10 of both banks, at the entry verify-log did"
done

# --- quotes that must not pass ----------------------------------------------
# The other TPM's quote, with the clean boot's nonce: with its own key,
# that key is not the activated one; with the activated AK's key, its
# signature does not verify.  With its own name it verifies (the quote
# itself is sound).
ok=0
quote_opts clean "$work/other/clean" "$work/other/ak.pub"
try_quote other-ak 1 "^quote: refused: the AK's name is not the one the credential was made for" \
	"${q[@]}" "$work/clean/sha256.log" || ok=1
quote_opts clean "$work/other/clean"
try_quote other-key 1 "^quote: refused: the rsassa signature does not verify with the AK's public key" \
	"${q[@]}" "$work/clean/sha256.log" || ok=1
quote_opts clean "$work/other/clean" "$work/other/ak.pub" "$work/other/ak.name"
try_quote other-own 1 "^quote: verified: " "${q[@]}" "$work/clean/sha256.log" || ok=1
booted clean
tap $((ok | $?)) "a quote signed by another TPM's AK is refused (exit 1): its key is not the activated AK's name, and the activated AK's key does not verify it"

# The clean boot's quote again when the verifier asked the dirty boot
# (its nonce): a replay.
quote_opts clean
q[${#q[@]} - 1]=$(cat "$work/dirty.nonce" 2> /dev/null)
try_quote replayed 1 "^quote: refused: the quote's nonce \(extraData, 20 bytes\) is not the one given" \
	"${q[@]}" "$work/clean/sha256.log"
tap $? "the clean boot's quote offered for the dirty boot's nonce (a replay) is refused, exit 1"

# The dirty boot's PCR values with its sha256 PCR 10 set to the clean
# boot's, where the dirty list passes through (same first entries): the
# list would pass, cut there, but the values no longer hash to the
# signed digest.
mkdir -p "$work/changed"
cp "$work/dirty/quote.msg" "$work/dirty/quote.sig" "$work/dirty/quote.pcrs" "$work/changed/" 2> /dev/null
xxd -r -p <<< "$(quoted clean sha256 10)" |
	dd of="$work/changed/quote.pcrs" bs=1 seek=$((11 * 20 + 10 * 32)) conv=notrunc status=none
quote_opts dirty "$work/changed"
try_quote changed 1 "^quote: refused: the PCR values do not hash to the quote's signed digest" \
	"${q[@]}" "$work/dirty/sha256.log" && [[ -n $(quoted clean sha256 10) ]] &&
	! cmp -s "$work/dirty/quote.pcrs" "$work/changed/quote.pcrs"
tap $? "a changed PCR value (the dirty boot's sha256 PCR 10 set to the clean boot's) is refused, exit 1"

# A truncated quote and one whose magic is garbled: errors, exit 2.
ok=0
for how in truncated garbled; do
	mkdir -p "$work/$how"
	cp "$work/clean/quote.sig" "$work/clean/quote.pcrs" "$work/$how/" 2> /dev/null
done
head -c 60 "$work/clean/quote.msg" > "$work/truncated/quote.msg" 2> /dev/null
{ printf '\x00'; tail -c +2 "$work/clean/quote.msg"; } > "$work/garbled/quote.msg" 2> /dev/null
quote_opts clean "$work/truncated"
try_quote truncated 2 "^modhash verify-log: $work/truncated/quote.msg: not a TPMS_ATTEST: truncated" \
	"${q[@]}" "$work/clean/sha256.log" || ok=1
quote_opts clean "$work/garbled"
try_quote garbled 2 "^modhash verify-log: $work/garbled/quote.msg: not made by a TPM: magic 0x00544347" \
	"${q[@]}" "$work/clean/sha256.log" || ok=1
booted clean
tap $((ok | $?)) "a truncated quote and one with a garbled magic are errors naming the file and the fault, exit 2"

# --- reference values -------------------------------------------------------
# What the clean boot measured for module loads (path digest) and for
# the allowlist.
awk '$3 == "ima-ng" && $5 ~ /^\/lib\/modules\// { sub(/^sha256:/, "", $4); print $4 "  " $5 }' \
	"$work/clean.sha256.entries" 2> /dev/null | sort > "$work/clean.measured"
allowlist_entry=$(awk '$3 == "ima-buf" && $5 == "module-allowlist" { sub(/^sha256:/, "", $4); print $4 }' \
	"$work/clean.sha256.entries" 2> /dev/null)
"$modhash" export --format=sha256sum --modules "$tree" -o "$work/export.sha256" "$kout/vmlinux" 2> "$work/export.err"
sums_rc=$?
"$modhash" export --format=keylime --modules "$tree" -o "$work/export.json" "$kout/vmlinux" 2>> "$work/export.err"
keylime_rc=$?
# The exported digests of the paths the clean boot loaded.
cut -d' ' -f3 "$work/clean.measured" > "$work/clean.paths"
grep -F -f "$work/clean.paths" "$work/export.sha256" 2> /dev/null | sort > "$work/export.loaded"
booted clean && [[ $sums_rc == 0 && $(wc -l < "$work/clean.measured") == 3 ]] &&
	diff "$work/clean.measured" "$work/export.loaded" > "$work/export.diff"
ok=$?
[[ $ok == 0 ]] || sed 's/^/# /' "$work/export.err" "$work/export.diff" "$work/clean.measured" 2> /dev/null
tap $ok "export --format=sha256sum: the 3 listed loads of boot clean have exactly the digests IMA measured for those paths"

booted clean && [[ $keylime_rc == 0 && -n $allowlist_entry ]] &&
	python3 - "$work/export.json" "$work/clean.measured" "$allowlist_entry" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
measured = dict(reversed(l.split('  ', 1)) for l in open(sys.argv[2]).read().splitlines())
for path, digest in measured.items():
    assert p['digests'].get(path) == [digest], (path, digest, p['digests'].get(path))
assert p['ima-buf']['module-allowlist'] == [sys.argv[3]], (p['ima-buf'], sys.argv[3])
PY
tap $? "export --format=keylime: the digests of those loads and the module-allowlist entry's digest ($allowlist_entry) are the measured ones"

list=$build/src/patched/obj-hashes/.module-hashes.bin
buf=$(awk '$3 == "ima-buf" && $5 == "module-allowlist" { print $6 }' "$work/clean.sha256.entries" 2> /dev/null)
booted clean && [[ -f $list && -n $buf && $buf == "$(sha256sum < "$list" | cut -d' ' -f1)" &&
	$allowlist_entry == "$(xxd -r -p <<< "$buf" | sha256sum | cut -d' ' -f1)" ]]
tap $? "the module-allowlist entry's event data is the sha256 of the build's list, its digest the sha256 of that"

# --- Keylime's rules --------------------------------------------------------
# The policy a verifier would load (boot_aggregate from boot clean's
# ASCII list, the default log_hash_alg), checked with Keylime's rules
# (tests/tools/keylime-rules.py, NOTES.md) on the lists an agent sends.
rules=$top/tests/tools/keylime-rules.py
"$modhash" export --format=keylime --modules "$tree" --ima-log "$work/clean/ascii.log" \
	-o "$work/keylime.json" "$kout/vmlinux" > "$work/keylime.err" 2>&1
keylime_rc=$?
"$modhash" export --format=keylime --modules "$tree" --ima-log "$work/clean/sha256.log" \
	--log-hash-alg sha256 -o "$work/keylime-sha256.json" "$kout/vmlinux" >> "$work/keylime.err" 2>&1
keylime256_rc=$?
# rules NAME POLICY LIST [ARG...]: the checker's output in NAME.rules,
# its status in NAME.rrc.
rules() {
	local name=$1
	shift
	python3 "$rules" "$@" > "$work/$name.rules" 2>&1
	echo $? > "$work/$name.rrc"
}
# failing NAME: "entry N: RULE" for each entry the checker failed.
failing() { grep -v '^#' "$work/$1.rules" | cut -d: -f1-2; }
rules clean-ascii --pcr "sha256:$(quoted clean sha256 10)" "$work/keylime.json" "$work/clean/ascii.log"
rules clean-binary --bank sha1 "$work/keylime.json" "$work/clean/sha1.log"
entries=$(grep -c . "$work/clean/ascii.log" 2> /dev/null)
booted clean && [[ $keylime_rc == 0 && -n $(quoted clean sha256 10) ]] &&
	[[ $(cat "$work/clean-ascii.rrc" "$work/clean-binary.rrc") == $'0\n0' ]] &&
	grep -qx "# $entries entries, 0 failures" "$work/clean-ascii.rules" && ! grep -q warning "$work/keylime.err"
ok=$?
[[ $ok == 0 ]] || sed 's/^/# /' "$work/keylime.err" "$work/clean-ascii.rules" "$work/clean-binary.rules" 2> /dev/null | head -n 20
tap $ok "Keylime rules: the exported policy (boot_aggregate from boot clean's list) passes all $entries entries of boot clean's ascii_runtime_measurements, the agent's default, replayed to the quoted sha256 PCR 10 (and its binary sha1 list)"

rules clean-256 --pcr "sha256:$(quoted clean sha256 10)" "$work/keylime-sha256.json" "$work/clean/ascii-sha256.log"
rules clean-256-sha1 "$work/keylime.json" "$work/clean/ascii-sha256.log"
booted clean && [[ $keylime256_rc == 0 && $(cat "$work/clean-256.rrc") == 0 ]] &&
	[[ $(failing clean-256-sha1) == "$(for ((i = 0; i < entries; i++)); do echo "entry $i: M3"; done)" ]]
ok=$?
[[ $ok == 0 ]] || sed 's/^/# /' "$work/clean-256.rules" "$work/clean-256-sha1.rules" 2> /dev/null | head -n 20
tap $ok "Keylime rules: with --log-hash-alg sha256 the policy passes boot clean's ascii_runtime_measurements_sha256; with sha1 every entry of that list fails (M3)"

# The dirty boot: only the unlisted and the tampered loads fail; crc7
# loaded by init_module() passes by its ima-buf digest.
init=$(awk '$3 == "ima-buf" && $5 == "init_module" { print $1 }' "$work/dirty.sha256.entries" 2> /dev/null)
rules dirty-ascii --pcr "sha256:$(quoted dirty sha256 10)" "$work/keylime.json" "$work/dirty/ascii.log"
grep -x 'INIT-MODULE-LOAD .*' "$work/dirty.out" | sed 's/^/# boot dirty: /'
booted dirty && [[ -n $init && -n $hello && -n $tampered && $(cat "$work/dirty-ascii.rrc") == 1 ]] &&
	grep -qx 'INIT-MODULE-LOAD OK' "$work/dirty.out" &&
	[[ $(failing dirty-ascii) == "entry $hello: M5"$'\n'"entry $tampered: M5" ]]
ok=$?
[[ $ok == 0 ]] || { echo "# want entries $hello and $tampered only (init_module: entry $init):"; sed 's/^/# /' "$work/dirty-ascii.rules"; }
tap $ok "Keylime rules: boot dirty's list fails exactly on entry $hello (/mods/hello.ko) and entry $tampered (/tmp/tampered/crc7.ko); crc7 loaded by init_module (entry $init) passes by its ima-buf digest"

python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
del p["ima-buf"]["init_module"]
json.dump(p, open(sys.argv[2], "w"))' "$work/keylime.json" "$work/keylime-no-init.json" 2> /dev/null
rules dirty-no-init "$work/keylime-no-init.json" "$work/dirty/ascii.log"
booted dirty && [[ -n $init ]] &&
	[[ $(failing dirty-no-init) == "entry $hello: M5"$'\n'"entry $init: M7"$'\n'"entry $tampered: M5" ]]
ok=$?
[[ $ok == 0 ]] || sed 's/^/# /' "$work/dirty-no-init.rules" 2> /dev/null
tap $ok "Keylime rules: without the init_module digests, boot dirty's init_module entry $init fails too (M7)"

# The negative case of each rule, on boot clean's real lists.
n=0
while IFS=$'\t' read -r result what; do
	case $result in
	'#'*) echo "$result${what:+ $what}" ;;
	ok) n=$((n + 1)); tap 0 "Keylime rules, negative case: $what" ;;
	'not ok') n=$((n + 1)); tap 1 "Keylime rules, negative case: $what" ;;
	*) echo "# $result $what" ;;
	esac
done < <(booted clean && python3 "$top/tests/tools/keylime-rules-cases.py" "$rules" "$work/keylime.json" \
	"$work/clean/ascii.log" "$work/clean/ascii-sha256.log" "sha256:$(quoted clean sha256 10)" "$work/keylime-cases" 2>&1)
for ((; n < keylime_cases; n++)); do
	tap 1 "Keylime rules, negative case $((n + 1)): not run (boot clean failed or keylime-rules-cases.py stopped)"
done

# --- boot_aggregate -------------------------------------------------------
for b in clean dirty; do
	logged=$(awk '$1 == 0 && $5 == "boot_aggregate" { print $4 }' "$work/$b.sha256.entries" 2> /dev/null)
	from_quote=$(aggregate "$b" quoted)
	from_sysfs=$(aggregate "$b" sysfs)
	echo "# boot $b: boot_aggregate $logged; sha256 PCRs 0-9 give $from_quote (quote), $from_sysfs (sysfs); the sha1 rule (PCRs 0-7) would give $(aggregate_sha1 "$b")"
	booted "$b" && [[ -n $logged && $logged == "$from_quote" && $logged == "$from_sysfs" ]]
	tap $? "boot $b: entry 0, boot_aggregate, is the sha256 of the quoted sha256 PCRs 0-9 (and of sysfs's)"
done

# --- the same load order gives the same PCR 10 -----------------------------
# The dirty boot's first entries (boot_aggregate, the allowlist, the three
# listed loads) and its PCR 10 after them are the clean boot's, even with
# another command line (ima_appraise=log): with -kernel, qemu's firmware
# measures neither the kernel nor its command line.
n=$(wc -l < "$work/clean.sha256.entries" 2> /dev/null)
booted clean && booted dirty && [[ $n == 5 ]] &&
	diff <(cut -d' ' -f1-5 "$work/clean.sha256.entries") <(head -n "$n" "$work/dirty.sha256.entries" | cut -d' ' -f1-5) > /dev/null &&
	[[ $(pcr dirty listed sha1 10) == "$(pcr clean final sha1 10)" && $(pcr dirty listed sha256 10) == "$(pcr clean final sha256 10)" &&
		-n $(pcr clean final sha256 10) ]]
tap $? "boot dirty after its listed loads: the same $n entries and the same PCR 10 (both banks) as boot clean"

grep -x 'UNLISTED-LOAD rc=[0-9]*\|TAMPERED-LOAD rc=[0-9]*' "$work/dirty.out" | sed 's/^/# boot dirty: /'
booted dirty && grep -qx 'UNLISTED-LOAD rc=0' "$work/dirty.out" && grep -qx 'TAMPERED-LOAD rc=0' "$work/dirty.out"
tap $? "boot dirty (ima_appraise=log): the unlisted and the tampered module load, and are measured"
