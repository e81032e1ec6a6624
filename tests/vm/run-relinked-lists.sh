#!/bin/bash
# Usage: run-relinked-lists.sh BUILD_DIR
# Allowlists that cannot be made by changing bytes inside a copy of
# vmlinux, each linked into the "hashes" kernel by kbuild itself, in its
# build directory (the relink every build does after its allowlist step,
# tests/lib/allowlist.sh), then booted, in TAP:
#  - the build's list made again with SHA-384 and with SHA-512 (kbuild's
#    own allowlist command with another -a): the kernel takes a list of
#    HASH_ALGO_SHA384 (5) / SHA512 (6) with 48/64-byte digests, securityfs
#    names the algorithm and lists exactly its digests, crc7.ko loads
#    under module.sig_enforce=1 and crc7-flipped.ko is refused;
#  - the build's list cut to 19 bytes, shorter than its header (the end
#    of the list is a link-time address, so only a link can shorten it):
#    refused at boot ("truncated header"), crc7.ko then refused;
#  - afterwards the build's own list is linked again, and vmlinux and
#    bzImage must be byte for byte the published ones (BUILD/out/hashes).
# Not under an IMA policy: IMA appraises a module file by its own digest
# (SHA-256 here), which a SHA-384 or SHA-512 list cannot hold (NOTES.md).
# Each relink takes about 13 s: make check-full only.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
kout=$build/out/hashes
obj=$build/src/patched/obj-hashes
# shellcheck disable=SC2034 # work and base are read by guest (tests/lib/allowlist.sh)
base=$build/initramfs/base.cpio.gz
work=$build/test-results/relinked-lists
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/allowlist.sh"

# The plan: 3 tests per algorithm, 1 for the truncated list, 1 for the
# restored build.
tap_plan $((3 * 2 + 1 + 1))

# Keep the build's own list, and put it back whatever happens: a foreign
# list newer than the modules would stay in every later build.
saved=
if [[ -f $obj/.module-hashes.bin ]]; then
	saved=$work/build.bin
	cp -p "$obj/.module-hashes.bin" "$saved"
fi
restored=
restore() {
	[[ -n $saved && -z $restored ]] || return 0
	restored=yes
	relink_restore "$build" hashes "$saved" 2> "$work/restore.log"
}
trap restore EXIT
trap 'exit 130' INT TERM

# relinked NAME LIST: $work/bzImage-NAME, the kernel relinked around LIST;
# nothing (a kernel not built, for the boot) when the relink failed,
# whose reasons are then given as TAP comments.
relinked() {
	rm -f "$work/bzImage-$1"
	if relink_with_list "$build" hashes "$2" 2> "$work/$1.relink.log"; then
		cp "$obj/arch/x86/boot/bzImage" "$work/bzImage-$1"
	else
		echo "# relinking hashes around the $1 list failed:"
		tail -n 20 "$work/$1.relink.log" | sed 's/^/#   /'
	fi
}

step=$(allowlist_step "$obj" 2>&1) || echo "# $step"
for algo in sha384 sha512; do
	case $algo in
	sha384) header="5 48" ;;
	sha512) header="6 64" ;;
	esac
	# kbuild's command with the algorithm changed, over the same modules
	list=$work/$algo.bin
	cmd=${step/ -a sha256 / -a $algo }
	[[ $cmd != "$step" ]] && (cd "$obj" && $cmd -o "$list" modules.order) ||
		echo "# could not make the $algo list with kbuild's command ($step)"
	list_securityfs "$list" > "$work/$algo.expected" 2>/dev/null
	count=$(od -An -tu4 -j16 -N4 "$list" 2>/dev/null | tr -d ' ')
	relinked "$algo" "$list"
	{
		echo '#!/bin/sh'
		guest_boot_report
		guest_list_compare "$work/$algo.expected"
		# the refused one first: both are named crc7
		guest_loads finit:/mods/crc7-flipped.ko finit:/mods/crc7.ko
	} > "$work/$algo.sh"
	VM_KERNEL=$work/bzImage-$algo guest "$kout" "$algo" module.sig_enforce=1 > /dev/null
	[[ $(od -An -tu2 -j10 -N4 "$list" 2>/dev/null | tr -s ' ') == " $header" ]] &&
		clean "$algo" && accepted_at_boot "$algo" "$count" "$algo" &&
		grep -qx LIST-SAME "$work/$algo.out"
	tap $? "$algo list (header: algorithm ${header% *}, ${header#* }-byte digests) relinked: accepted at boot, securityfs lists exactly its $count digests"
	clean "$algo" && load_was "$algo" /mods/crc7.ko OK 0 -
	tap $? "$algo list: crc7.ko loads under module.sig_enforce=1, untainted"
	clean "$algo" && load_was "$algo" /mods/crc7-flipped.ko EKEYREJECTED 0 - 'Loading of module not on the allowlist is rejected'
	tap $? "$algo list: crc7-flipped.ko is refused under module.sig_enforce=1"
	rm -f "$work/bzImage-$algo"
done

# 19 bytes: everything of the header but the last byte of the count.
head -c 19 "$saved" > "$work/truncated.bin" 2>/dev/null
relinked truncated "$work/truncated.bin"
boot_script truncated finit:/mods/crc7.ko
VM_KERNEL=$work/bzImage-truncated guest "$kout" truncated module.sig_enforce=1 > /dev/null
[[ $(stat -c %s "$work/truncated.bin") == 19 ]] && clean truncated &&
	refused_at_boot truncated "truncated header" &&
	load_was truncated /mods/crc7.ko EKEYREJECTED 0 - 'Loading of module not on the allowlist is rejected'
tap $? "19-byte list relinked: refused at boot (truncated header), an allowlisted module is then refused"
rm -f "$work/bzImage-truncated"

restore
status=$?
[[ $status == 0 ]] || sed 's/^/# /' "$work/restore.log"
[[ -n $saved && $status == 0 ]]
tap $? "relinked with its own list again, vmlinux and bzImage are byte for byte build/out/hashes"
