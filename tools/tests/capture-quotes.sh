#!/bin/bash
# Usage: capture-quotes.sh make OUTDIR
#        capture-quotes.sh header DIR... > captured-quotes.h
#        capture-quotes.sh corpus CORPUS_DIR DIR...
# The TPM quotes the unit tests (test-tpm-quote.c) and the fuzz target
# (fuzz-tpm-quote.c) start from, each a directory with the files a
# verifier holds: quote.msg (tpm2_quote -m), quote.sig (-s), quote.pcrs
# (-o, -F values), ak.pub (tpm2_createak -u), ak.name (-n) and nonce (hex).
#  - make: quotes from swtpm on the host (tests/lib/swtpm.sh), one TPM
#    with AKs of each signature scheme (rsassa, rsapss, ecdsa) and an
#    unrestricted signing key (unrestricted), all with the same nonce and
#    PCRs (PCR 10 extended twice in both banks), and another TPM's AK
#    (other-tpm) with that nonce.  The guest's quote (guest) is the
#    attest suite's clean boot: the files of
#    build/test-results/attest/clean/ that tests/vm/run-attest.sh keeps,
#    and clean.nonce as nonce.
#  - header: those files as C arrays, QUOTE_<dir>_<file>.
#  - corpus: seeds for fuzz-tpm-quote (its input format is there).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

make_quotes() {
	local out=$1 nonce pcrs=sha1:0,1,2,3,4,5,6,7,8,9,10+sha256:0,1,2,3,4,5,6,7,8,9,10
	. "$here/../../tests/lib/swtpm.sh"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	nonce=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
	# quote DIR KEY_CONTEXT SCHEME: a quote with KEY_CONTEXT into DIR.
	quote() {
		tpm2_quote -c "$2" -l $pcrs -q "$nonce" -g sha256 --scheme "$3" -m "$1/quote.msg" \
			-s "$1/quote.sig" -o "$1/quote.pcrs" -F values > /dev/null
		tpm2_flushcontext -t
		echo "$nonce" > "$1/nonce"
	}
	# ak NAME ALG SCHEME: an AK under the EK, and a quote with it.
	ak() {
		mkdir -p "$out/$1"
		tpm2_createak -C "$out/ek.ctx" -c "$out/$1.ctx" -G "$2" -g sha256 -s "$3" \
			-u "$out/$1/ak.pub" -n "$out/$1/ak.name" > /dev/null
		tpm2_flushcontext -t
		quote "$out/$1" "$out/$1.ctx" "$3"
	}
	ek() {
		tpm2_createek -c "$out/ek.ctx" -G rsa -u "$out/ek.pub" > /dev/null
		tpm2_flushcontext -t
	}

	swtpm_host_start "$out/tpm-a" > "$out/tpm-a.log" || { cat "$out/tpm-a.log"; exit 1; }
	tpm2_pcrextend "10:sha1=$(printf '1%.0s' $(seq 40)),sha256=$(printf '2%.0s' $(seq 64))"
	tpm2_pcrextend "10:sha1=$(printf '3%.0s' $(seq 40)),sha256=$(printf '4%.0s' $(seq 64))"
	ek
	ak rsassa rsa rsassa
	ak rsapss rsa rsapss
	ak ecdsa ecc ecdsa
	# A signing key that is not restricted: it would sign any digest.
	mkdir -p "$out/unrestricted"
	tpm2_createprimary -C o -c "$out/primary.ctx" > /dev/null
	tpm2_create -C "$out/primary.ctx" -G rsa -g sha256 -u "$out/key.pub" -r "$out/key.priv" \
		-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|sign' > /dev/null
	tpm2_flushcontext -t
	tpm2_load -C "$out/primary.ctx" -u "$out/key.pub" -r "$out/key.priv" -c "$out/key.ctx" \
		-n "$out/unrestricted/ak.name" > /dev/null
	tpm2_flushcontext -t
	tpm2_readpublic -c "$out/key.ctx" -o "$out/unrestricted/ak.pub" > /dev/null
	tpm2_flushcontext -t
	quote "$out/unrestricted" "$out/key.ctx" rsassa
	swtpm_host_stop

	swtpm_host_start "$out/tpm-b" > "$out/tpm-b.log" || { cat "$out/tpm-b.log"; exit 1; }
	ek
	ak other-tpm rsa rsassa
	swtpm_host_stop
	rm -f "$out"/*.ctx "$out"/key.* "$out"/ek.pub
}

# c_name DIR FILE: the array's name.
c_name() {
	local d
	d=$(basename "$1" | tr -c 'a-zA-Z0-9\n' '_')
	echo "QUOTE_${d}_$(tr -c 'a-zA-Z0-9\n' '_' <<< "$2")"
}

header() {
	local d f sum
	local -A seen=()
	cat <<-EOF
	/* SPDX-License-Identifier: GPL-2.0 */
	/*
	 * captured-quotes.h - TPM quotes as a verifier receives them, made by
	 * tools/tests/capture-quotes.sh (which says how; do not edit).
	 */
	EOF
	for d in "$@"; do
		for f in quote.msg quote.sig quote.pcrs ak.pub ak.name; do
			# The same bytes once (one TPM's PCR values, say).
			sum=$(sha256sum < "$d/$f" | cut -d' ' -f1)
			if [[ -n ${seen[$sum]:-} ]]; then
				echo "#define $(c_name "$d" "$f") ${seen[$sum]}"
				continue
			fi
			seen[$sum]=$(c_name "$d" "$f")
			echo "static const unsigned char $(c_name "$d" "$f")[] = {"
			od -An -v -w12 -tx1 "$d/$f" | sed 's/ \([0-9a-f][0-9a-f]\)/ 0x\1,/g; s/^ /  /'
			echo "};"
		done
		sum=nonce-$(cat "$d/nonce")
		if [[ -n ${seen[$sum]:-} ]]; then
			echo "#define $(c_name "$d" nonce) ${seen[$sum]}"
		else
			seen[$sum]=$(c_name "$d" nonce)
			echo "static const char $(c_name "$d" nonce)[] = \"$(cat "$d/nonce")\";"
		fi
	done
}

# The fuzz input: the quote, its signature and the AK each preceded by
# its size (2 bytes, big-endian), then the PCR values to the end.
corpus() {
	local out=$1 d f size
	shift
	mkdir -p "$out"
	for d in "$@"; do
		{
			for f in quote.msg quote.sig ak.pub; do
				size=$(stat -c %s "$d/$f")
				printf "\\x$(printf %02x $((size >> 8)))\\x$(printf %02x $((size & 255)))"
				cat "$d/$f"
			done
			cat "$d/quote.pcrs"
		} > "$out/$(basename "$d")"
	done
}

case ${1:-} in
make) make_quotes "$2" ;;
header) shift; header "$@" ;;
corpus) shift; corpus "$@" ;;
*) sed -n '2,4s/^# //p' "$0" >&2; exit 2 ;;
esac
