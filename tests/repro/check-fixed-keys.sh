#!/bin/bash
# Usage: check-fixed-keys.sh BUILD_DIR VARIANT...
# What makes a variant that checks module signatures reproducible, read
# from its published build BUILD_DIR/out/VARIANT, in TAP (a few seconds;
# the byte-for-byte comparison with a second build from scratch is the
# repro suites' job, tests/repro/check-repro.sh):
#  - its .config asks for no signing key (MODULE_SIG_KEY empty, in-tree
#    modules not signed) and trusts the fixed certificate file
#    certs/trusted-keys.pem (kernel/build/trusted-keys.sh);
#  - vmlinux's built-in certificate list (system_certificate_list, its
#    length in system_certificate_list_size) is exactly the DER of that
#    certificate, $TRUSTED_KEYS or tests/keys/dkms-test-cert.pem: no key
#    made during the build is in it;
#  - no installed module carries an appended signature.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
shift
. "$here/../lib/tap.sh"
. "$here/../lib/elf.sh"
cert=${TRUSTED_KEYS:-$here/../keys/dkms-test-cert.pem}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# symbol_bytes VMLINUX SYMBOL COUNT: COUNT bytes of the file at SYMBOL
symbol_bytes() {
	local addr section_addr offset
	addr=$(nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
	[[ -n $addr ]] || return 1
	read -r section_addr offset < <(elf_sections "$1" | awk -v a="$((16#$addr))" '
		$3 != 0 && a >= $3 && a < $3 + $5 { print $3, $4; exit }')
	[[ -n $offset ]] || return 1
	tail -c +$((offset + 16#$addr - section_addr + 1)) "$1" | head -c "$3"
}

tap_plan $(($# * 3))
openssl x509 -in "$cert" -outform DER > "$tmp/cert.der" ||
	echo "# $cert: not a PEM certificate"
for v in "$@"; do
	out=$build/out/$v
	config=$out/config
	grep -qx 'CONFIG_MODULE_SIG_KEY=""' "$config" 2>/dev/null &&
		grep -qx '# CONFIG_MODULE_SIG_ALL is not set' "$config" &&
		grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS="certs/trusted-keys.pem"' "$config"
	tap $? "$v: .config asks for no signing key and trusts certs/trusted-keys.pem"

	length=$(stat -c %s "$tmp/cert.der")
	size=$(symbol_bytes "$out/vmlinux" system_certificate_list_size 8 | od -An -tu8 | tr -d ' ')
	symbol_bytes "$out/vmlinux" system_certificate_list "$length" > "$tmp/$v.list"
	echo "# $v: built-in certificate list ${size:-?} bytes, $(basename "$cert") $length bytes of DER"
	[[ $length -gt 0 && $size == "$length" ]] && cmp -s "$tmp/cert.der" "$tmp/$v.list"
	tap $? "$v: vmlinux's built-in certificate list is exactly $(basename "$cert")"

	signed=0
	count=0
	while read -r ko; do
		count=$((count + 1))
		tail -c 28 "$ko" | grep -qF '~Module signature appended~' && {
			signed=$((signed + 1))
			echo "# $ko: signed at build time"
		}
	done < <(find "$out/modules" -name '*.ko' 2>/dev/null)
	[[ $count -gt 0 && $signed == 0 ]]
	tap $? "$v: none of its $count installed modules is signed"
done
