#!/bin/bash
# Usage: check-repro.sh BUILD_DIR [VARIANT...]   (default: hashes btf sig)
# Reproducibility of the published kernels, in TAP.  For each variant the
# regular build BUILD_DIR/out/VARIANT is built a second time from scratch,
# with the same compiler command (plain gcc for hashes and btf; sig goes
# through ccache, which cannot change the keys), from another copy of the
# patched source in another directory (BUILD_DIR/repro/VARIANT/linux),
# later, then both are compared
# byte for byte by compare-builds.sh (report in
# BUILD_DIR/test-results/repro/VARIANT.report):
#  - hashes, btf: everything identical, both builds compiled with plain
#    gcc; then the second build boots with lockdown=integrity, loads
#    an allowlisted module and refuses a tampered one (btf: and the loaded
#    module's BTF shows in /sys/kernel/btf);
#  - sig (MODULE_SIG_ALL with the build's own key): vmlinux, bzImage and
#    every module differ, and why: each module is identical once its
#    appended signature is cut off, and vmlinux differs only in the
#    section holding the built-in certificate list and in the GNU build
#    ID, a digest of the whole image.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
shift
variants=${*:-hashes btf sig}
results=$build/test-results/repro
mkdir -p "$results"
. "$here/../lib/tap.sh"
. "$here/../lib/elf.sh"

# second_build VARIANT: build it again in BUILD_DIR/repro, with the same
# compiler command as the first build (plain gcc for hashes and btf)
second_build() {
	local dir=$build/repro/$1
	rm -rf "$dir"
	mkdir -p "$dir"
	# shellcheck disable=SC2046 # patch file names have no spaces
	"$top/kernel/build/make-tree.sh" "$build/src/pristine" "$dir/linux" \
		$(sed "s|^|$top/kernel/patches/|" "$top/kernel/patches/series") &&
	KERNEL_CC=$(cat "$build/out/$1/compiler") \
		"$top/kernel/build/build-kernel.sh" "$dir/linux" "$1" "$dir/out"
}

unsigned() {	# unsigned MODULE: the module without its appended signature
	local size magic siglen
	size=$(stat -c %s "$1")
	magic=$(tail -c 28 "$1")
	if [[ $magic != "~Module signature appended~" ]]; then
		cat "$1"
		return
	fi
	# struct module_signature (12 bytes) ends with sig_len, big endian
	siglen=$(tail -c 32 "$1" | head -c 4 | od -An -tu1 | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	head -c $((size - 28 - 12 - siglen)) "$1"
}

differing_sections() {	# differing_sections ELF_A ELF_B: sections with a difference
	cmp -l "$1" "$2" | awk '{ print $1 - 1 }' > "$results/offsets"
	elf_sections "$1" | awk '
		FNR == NR { off[n++] = $1; next }
		{ for (i = 0; i < n; i++) if (off[i] >= $4 && off[i] < $4 + $5) { print $1; break } }
	' "$results/offsets" -
}

boot_check() {	# boot_check VARIANT OUT: load crc7 and a tampered crc7
	local v=$1 out=$2
	local initramfs_log=$results/$v.initramfs.log
	if ! "$top/initramfs/build-modules.sh" "$out" "$build/repro/$v/linux/obj-$v" > "$initramfs_log" 2>&1; then
		tap 1 "$v: test initramfs for the second build"
		sed 's/^/# /' "$initramfs_log"
		return
	fi
	cat > "$results/$v.guest.sh" <<'GUEST'
#!/bin/sh
. /bin/vmtest.sh
check_load "allowlisted crc7.ko loads under lockdown" finit /mods/crc7.ko OK 0 - -
if [ -d /sys/kernel/btf ]; then
	if [ -f /sys/kernel/btf/vmlinux ] && [ -f /sys/kernel/btf/crc7 ]; then
		tap_result ok "the BTF of vmlinux and of crc7 is in /sys/kernel/btf"
	else
		tap_result "not ok" "the BTF of vmlinux and of crc7 is in /sys/kernel/btf"
		ls /sys/kernel/btf | sed 's/^/# /'
	fi
fi
/sbin/rmmod crc7 || echo "Bail out! cannot unload crc7"
check_load "tampered crc7-flipped.ko is refused under lockdown" finit /mods/crc7-flipped.ko \
	EPERM 0 - 'Lockdown: [a-z]+: unsigned module loading is restricted'
tap_plan
GUEST
	"$top/tests/vm/run-vm.sh" "$out" "$build/initramfs/base.cpio.gz" "$results/$v.guest.sh" \
		"$results/$v.console" lockdown=integrity > "$results/$v.boot" 2>&1
	local rc=$?
	while read -r line; do
		desc=${line#* - }
		case $line in
		ok*) tap 0 "$v, second build booted: $desc" ;;
		*) tap 1 "$v, second build booted: $desc" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ - ' "$results/$v.boot")
	grep '^# ' "$results/$v.boot"
	[[ $rc == 0 ]] || { tap 1 "$v: second build boots and runs its checks"; tail -n 20 "$results/$v.boot" | sed 's/^/# /'; }
}

for v in $variants; do
	first=$build/out/$v
	second=$build/repro/$v/out
	report=$results/$v.report
	start=$SECONDS
	second_build "$v" > "$results/$v.build.log" 2>&1
	rc=$?
	tap $rc "$v: second build from scratch in $build/repro/$v ($(cat "$first/compiler"))"
	if [[ $rc != 0 ]]; then
		tail -n 20 "$results/$v.build.log" | sed 's/^/# /'
		continue
	fi
	echo "# $v: second build took $((SECONDS - start)) s"
	"$here/compare-builds.sh" "$first" "$second" > "$report" 2>&1
	rc=$?
	sed 's/^/# /' "$report"
	case $v in
	sig)
		[[ $rc == 1 ]]
		tap $? "$v: the two builds differ (their own signing keys)"
		modules=0
		explained=0
		while read -r ko; do
			modules=$((modules + 1))
			cmp -s <(unsigned "$first/$ko") <(unsigned "$second/$ko") && explained=$((explained + 1))
		done < <(cd "$first" && find modules modules-stripped -name '*.ko' | LC_ALL=C sort)
		[[ $modules -gt 0 && $explained == "$modules" ]] &&
			grep -c '\.ko: ' "$report" | grep -qx "$modules"
		tap $? "$v: all $modules modules differ, each only in its appended signature ($explained identical without it)"
		# The certificate differs, and so does the GNU build ID, a digest
		# of the whole image; nothing else may.
		certs=$(elf_section_of_symbol "$first/vmlinux" system_certificate_list)
		build_id=$(readelf -n "$first/vmlinux" |
			awk '/^Displaying notes found in:/ { s = $NF } /NT_GNU_BUILD_ID/ { print s; exit }')
		sections=$(differing_sections "$first/vmlinux" "$second/vmlinux" | sort -u | tr '\n' ' ')
		expected=$(printf '%s\n' "$certs" "$build_id" | sort -u | tr '\n' ' ')
		echo "# $v: vmlinux sections with differences: ${sections:-none}; certificate list in ${certs:-?}, build ID in ${build_id:-?}"
		[[ -n $certs && -n $build_id && $sections == "$expected" ]]
		tap $? "$v: vmlinux differs only in ${certs:-?} (the build's certificate) and ${build_id:-?} (its build ID)"
		;;
	*)
		[[ $(cat "$first/compiler") == gcc ]]
		tap $? "$v: both builds compiled with plain gcc, no ccache ($(cat "$first/compiler"))"
		[[ $rc == 0 ]]
		tap $? "$v: bzImage, vmlinux and every installed module are identical ($(tail -n 1 "$report"))"
		boot_check "$v" "$second"
		;;
	esac
done
tap_done
