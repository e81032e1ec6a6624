#!/bin/bash
# Usage: build-modules.sh OUT OBJ
# The kernel-specific part of the test initramfs for the kernel published
# in OUT (see kernel/build/build-kernel.sh), whose build tree is OBJ.
# Writes OUT/modules.cpio.gz with
#   /lib/modules/RELEASE/      the installed modules, for modprobe
#   /mods/crc7.ko              an in-tree module as installed (signed when
#                              the kernel signs modules)
#   /mods/crc7.ko.xz           the same, compressed as kbuild would
#   /mods/crc7.ko.zst
#   /mods/crc7-flipped.ko      the same with one byte of .comment inverted
#   /mods/crc7-flipped.ko.xz   that, compressed
#   /mods/crc7-flipped.ko.zst
#   /mods/crc7-corrupt.ko.xz   crc7.ko.xz and .zst with one byte inverted
#   /mods/crc7-corrupt.ko.zst  in the middle of the compressed data (they
#                              do not decompress)
#   /mods/crc7-stripped.ko     crc7 as INSTALL_MOD_STRIP=1 installs it
#   /mods/crc7-junk.ko         the same with 64 bytes of junk appended
#   /mods/crc7-truncated.ko    the same cut to half its size
#   /mods/crc7-other.ko        crc7 built again, outside the kernel tree:
#                              same name and code, not from this build
#   /mods/crc7-otherbuild.ko  crc7 built again in tree, by another build
#                              of the same source and kernel release (a
#                              copy of OBJ, one compiler option more)
#   /mods/crc7-foreign.ko      crc7.ko with a signature appended, made with
#                              a key generated here and thrown away (no
#                              kernel knows it)
#   /mods/hello.ko             an out-of-tree module, never signed
#   /mods/hello-foreign.ko     the same signed with that foreign key
#   /mods/hello-signed.ko      the same signed with the kernel's module key
#                              (see below), as DKMS signs what it builds
#   /mods/hello-badsig.ko      that with one byte of .comment inverted
#                              after signing (the signature does not verify)
#   /mods/crc7-signed.ko       crc7.ko signed with the kernel's module key
#   /mods/crc7-badsig.ko       that with one byte of .comment inverted
#   /mods/signing_key.x509     the certificate of the kernel's module key
#   /mods/owner.x509           a machine owner's certificate, signed by the
#                              kernel's module key (a CA in the tests), for
#                              the secondary trusted keyring
#   /mods/rogue.x509           a self-signed certificate nothing vouches for
#   /mods/hello-owner.ko       hello.ko signed with the owner's key
#   /mods/imakey.x509          a key for IMA signatures (security.ima),
#   /mods/imakey-key.pem       certified by the kernel's module key, and
#                              its private key (the tests sign with it in
#                              the guest)
#   /mods/rootkey.x509         on every kernel: a self-signed key that
#   /mods/rootkey-key.pem      root makes for itself, to sign modules for
#                              IMA (initramfs/vmtest.sh, imasig_load)
# (the files from hello-signed.ko to imakey-key.pem only for kernels with
# CONFIG_MODULE_SIG), and OUT/mods.sha256, the host's digests of those
# files (see below).
# The kernel's module key is the one whose certificate the kernel has built
# in, as its configuration says: the key kbuild generated
# (CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"; a build directory may
# hold a stale one from an earlier configuration) or the test key of tests/keys,
# when the build trusts its certificate (CONFIG_SYSTEM_TRUSTED_KEYS,
# kernel/build/configure.sh).
# Signatures are appended with the build's scripts/sign-file, which every
# variant has (CONFIG_IMA_APPRAISE_MODSIG selects MODULE_SIG_FORMAT).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$(cd "$1" && pwd)
obj=$(cd "$2" && pwd)
release=$(cat "$out/kernelrelease")
. "$top/tests/lib/module-file.sh"
. "$top/tests/lib/elf.sh"
root=$out/modules.root
rm -rf "$root"
mkdir -p "$root/lib" "$root/mods"
cp -a "$out/modules/lib/modules" "$root/lib/"

# installed_crc7 INSTALL_DIR DEST: copy crc7.ko as installed in
# INSTALL_DIR, decompressed when the kernel compresses all modules.
installed_crc7() {
	installed=$(find "$1" -name 'crc7.ko*')
	[ -n "$installed" ] || { echo "$0: no crc7.ko installed in $1" >&2; exit 1; }
	module_bytes "$installed" > "$2"
}
installed_crc7 "$root/lib/modules/$release" "$root/mods/crc7.ko"
xz --check=crc32 --lzma2=dict=1MiB -c "$root/mods/crc7.ko" > "$root/mods/crc7.ko.xz"
zstd -q -19 -c "$root/mods/crc7.ko" > "$root/mods/crc7.ko.zst"

flip_comment "$root/mods/crc7.ko" "$root/mods/crc7-flipped.ko"
xz --check=crc32 --lzma2=dict=1MiB -c "$root/mods/crc7-flipped.ko" > "$root/mods/crc7-flipped.ko.xz"
zstd -q -19 -c "$root/mods/crc7-flipped.ko" > "$root/mods/crc7-flipped.ko.zst"

# A byte in the middle of the compressed data inverted: far from the
# stream headers and trailers, so that the damage is found by the
# decompressor (the .xz files carry a CRC32, the .zst files zstd's
# content checksum), not by a magic number.  Check that it is found.
for ext in xz zst; do
	cp "$root/mods/crc7.ko.$ext" "$root/mods/crc7-corrupt.ko.$ext"
	invert_byte "$root/mods/crc7-corrupt.ko.$ext" $(($(stat -c %s "$root/mods/crc7.ko.$ext") / 2))
	if module_bytes "$root/mods/crc7-corrupt.ko.$ext" > /dev/null 2>&1; then
		echo "$0: crc7-corrupt.ko.$ext still decompresses" >&2
		exit 1
	fi
done

# What "make modules_install INSTALL_MOD_STRIP=1" installs.
installed_crc7 "$out/modules-stripped" "$root/mods/crc7-stripped.ko"

head -c 64 /dev/urandom | cat "$root/mods/crc7.ko" - > "$root/mods/crc7-junk.ko"
size=$(stat -c %s "$root/mods/crc7.ko")
head -c $((size / 2)) "$root/mods/crc7.ko" > "$root/mods/crc7-truncated.ko"

# Out-of-tree builds against this kernel: our hello module, and crc7 again.
external() {	# external NAME SOURCE -> $out/NAME.build/NAME.ko
	local dir=$out/$1.build
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$2" "$dir/$1.c"
	echo "obj-m := $1.o" > "$dir/Kbuild"
	KERNEL_CC=$(cat "$out/compiler") \
		"$top/kernel/build/kmake.sh" "$(dirname "$obj")" "${obj##*/obj-}" M="$dir" modules
}
external hello "$top/tests/modules/hello/hello.c"
cp "$out/hello.build/hello.ko" "$root/mods/hello.ko"
external crc7 "$(dirname "$obj")/lib/crc7.c"
cp "$out/crc7.build/crc7.ko" "$root/mods/crc7-other.ko"
rm -rf "$out/hello.build" "$out/crc7.build"

# Another build's in-tree crc7.ko, of the same source, config and release.
# Built again with the same configuration, it would be byte for byte this
# build's (the builds are reproducible; the hashes and hashes+sig builds
# install the very same crc7.ko), so this one adds a compiler option, the
# one CONFIG_ZERO_CALL_USED_REGS would add, as a distribution's build of
# the release might.  kbuild builds the single module in a copy of OBJ,
# which stays untouched.
other_obj=$(dirname "$obj")/obj-${obj##*/obj-}.otherbuild
rm -rf "$other_obj"
cp -a "$obj" "$other_obj"
KERNEL_CC=$(cat "$out/compiler") "$top/kernel/build/kmake.sh" "$(dirname "$obj")" "${other_obj##*/obj-}" \
	lib/crc7.ko CFLAGS_crc7.o=-fzero-call-used-regs=used-gpr
cp "$other_obj/lib/crc7.ko" "$root/mods/crc7-otherbuild.ko"
rm -rf "$other_obj"
cmp -s "$root/mods/crc7.ko" "$root/mods/crc7-otherbuild.ko" &&
	{ echo "$0: crc7-otherbuild.ko is this build's crc7.ko" >&2; exit 1; }

# sign KEY CERT IN OUT: IN with an appended module signature (sha256).
sign() {
	"$obj/scripts/sign-file" sha256 "$1" "$2" "$3" "$4"
}

# cert_form CERT: PEM or DER, as openssl's -inform wants it.
cert_form() {
	if grep -q -- '-----BEGIN CERTIFICATE-----' "$1"; then echo PEM; else echo DER; fi
}

# owner_key PREFIX SUBJECT [CA_KEY CA_CERT]: a new key PREFIX-key.pem and
# its certificate PREFIX-cert.pem for module signing, signed by CA_KEY
# (with CA_CERT's name as issuer and its key identifier) or by itself.
owner_key() {
	openssl req -new -newkey rsa:2048 -nodes -sha256 -batch -subj "$2" \
		-keyout "$1-key.pem" -out "$1.csr" 2>/dev/null
	printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
		'subjectKeyIdentifier=hash' 'authorityKeyIdentifier=keyid' > "$1.ext"
	if [ $# -eq 4 ]; then
		openssl x509 -req -in "$1.csr" -sha256 -days 36500 -extfile "$1.ext" \
			-CA "$4" -CAform "$(cert_form "$4")" -CAkey "$3" -set_serial 2 \
			-out "$1-cert.pem" 2>/dev/null
	else
		openssl x509 -req -in "$1.csr" -sha256 -days 36500 -extfile "$1.ext" \
			-key "$1-key.pem" -out "$1-cert.pem" 2>/dev/null
	fi
	rm -f "$1.csr" "$1.ext"
}

# guest_key NAME SUBJECT [CA_KEY CA_CERT]: an owner_key whose certificate
# (/mods/NAME.x509, DER) and private key (/mods/NAME-key.pem) both go to
# the guest, which signs with it.
guest_key() {
	local name=$1
	shift
	owner_key "$out/$name" "$@"
	openssl x509 -in "$out/$name-cert.pem" -outform DER -out "$root/mods/$name.x509"
	mv "$out/$name-key.pem" "$root/mods/$name-key.pem"
	rm -f "$out/$name-cert.pem"
}

# A key and certificate that no kernel trusts, made for this archive only.
openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 -days 36500 -batch \
	-subj "/CN=Foreign module signing key (vm tests)/" \
	-keyout "$out/foreign-key.pem" -out "$out/foreign-cert.pem" 2>/dev/null
sign "$out/foreign-key.pem" "$out/foreign-cert.pem" "$root/mods/crc7.ko" "$root/mods/crc7-foreign.ko"
sign "$out/foreign-key.pem" "$out/foreign-cert.pem" "$root/mods/hello.ko" "$root/mods/hello-foreign.ko"
rm -f "$out/foreign-key.pem" "$out/foreign-cert.pem"

if grep -q "^CONFIG_MODULE_SIG=y" "$out/config"; then
	if grep -qx 'CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"' "$out/config"; then
		key=$obj/certs/signing_key.pem
		cert=$obj/certs/signing_key.x509
	elif grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS="certs/trusted-keys.pem"' "$out/config" &&
		cmp -s "$obj/certs/trusted-keys.pem" "$top/tests/keys/dkms-test-cert.pem"; then
		key=$top/tests/keys/dkms-test-key.pem
		cert=$top/tests/keys/dkms-test-cert.pem
	else
		echo "$0: $obj signs modules, but with no key this script knows" >&2
		exit 1
	fi
	sign "$key" "$cert" "$root/mods/hello.ko" "$root/mods/hello-signed.ko"
	flip_comment "$root/mods/hello-signed.ko" "$root/mods/hello-badsig.ko"
	sign "$key" "$cert" "$root/mods/crc7.ko" "$root/mods/crc7-signed.ko"
	flip_comment "$root/mods/crc7-signed.ko" "$root/mods/crc7-badsig.ko"
	openssl x509 -in "$cert" -inform "$(cert_form "$cert")" -outform DER -out "$root/mods/signing_key.x509"

	# A machine owner's key, certified by the kernel's key as a distribution
	# CA would, and one that only vouches for itself.
	owner_key "$out/owner" "/CN=Machine owner module key (vm tests)/" "$key" "$cert"
	sign "$out/owner-key.pem" "$out/owner-cert.pem" "$root/mods/hello.ko" "$root/mods/hello-owner.ko"
	openssl x509 -in "$out/owner-cert.pem" -outform DER -out "$root/mods/owner.x509"
	owner_key "$out/rogue" "/CN=Self-signed module key (vm tests)/"
	openssl x509 -in "$out/rogue-cert.pem" -outform DER -out "$root/mods/rogue.x509"
	rm -f "$out/owner-key.pem" "$out/owner-cert.pem" "$out/rogue-key.pem" "$out/rogue-cert.pem"

	# A key for IMA's ".ima" keyring, which takes only keys that a
	# built-in key certified (CONFIG_INTEGRITY_TRUSTED_KEYRING).
	guest_key imakey "/CN=IMA signing key certified by the module key (vm tests)/" "$key" "$cert"
fi

# Root's own key, as root would make one on the machine to sign a module
# for IMA: nothing the kernel trusts vouches for it.
guest_key rootkey "/CN=Root's own IMA key (vm tests)/"

# The digests the kernel may name when it refuses one of these files
# ("<file>: sha256:<hex> is not on the module allowlist", "init_module
# refused: sha256:<hex> ..."), computed here from the very bytes packed
# for the guest, so that the tests can check the kernel hashed what they
# think it hashed.  One line per file of /mods and per installed module:
# its path in the guest, the sha256 of the file, and the sha256 of the
# module inside it (decompressed; the file's own for an uncompressed
# one; "-" for a file that is not a module or does not decompress).
# Which of the two a load logs depends on the path: run-verdicts.sh.
manifest() {
	local path file image
	(cd "$root" && find mods lib/modules -type f | LC_ALL=C sort) | while read -r path; do
		file=$(sha256sum < "$root/$path" | cut -d' ' -f1)
		image=-
		case $path in
		*.ko | *.ko.*)
			if module_bytes "$root/$path" > "$out/image.tmp" 2>/dev/null; then
				image=$(sha256sum < "$out/image.tmp" | cut -d' ' -f1)
			fi
			;;
		esac
		echo "/$path $file $image"
	done
	rm -f "$out/image.tmp"
}
manifest > "$out/mods.sha256.tmp"
mv "$out/mods.sha256.tmp" "$out/mods.sha256"

"$here/pack-cpio.sh" "$root" "$out/modules.cpio.gz"
rm -rf "$root"
