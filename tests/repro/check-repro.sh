#!/bin/bash
# Usage: check-repro.sh BUILD_DIR [VARIANT...]   (default: hashes hashes+sig btf sig)
# Reproducibility of the published kernels, in TAP.  For each variant the
# regular build BUILD_DIR/out/VARIANT is built a second time from scratch,
# with the same compiler command (plain gcc for hashes, hashes+sig and btf; sig goes
# through ccache, which cannot change the keys), from another copy of the
# patched source in another directory (BUILD_DIR/repro/VARIANT/linux),
# later, then both are compared
# byte for byte by compare-builds.sh (report in
# BUILD_DIR/test-results/repro/VARIANT.report):
#  - hashes, hashes+sig, btf: everything identical, both builds compiled with plain
#    gcc (as each build published it, OUT/compiler, and as kbuild recorded
#    it for every C file in each build directory, so that a build through
#    ccache cannot pass); then the second build boots with
#    lockdown=integrity, ends cleanly, loads an allowlisted module and
#    refuses a tampered one (btf: and the loaded module's BTF shows in
#    /sys/kernel/btf; hashes+sig: and an out-of-tree module signed with the
#    test key whose fixed certificate it trusts loads);
#  - sig (MODULE_SIG_ALL with the build's own key): vmlinux, bzImage and
#    every module differ, and why: each module is identical once its
#    appended signature is cut off, and vmlinux differs only in the
#    section holding the built-in certificate list and in the GNU build
#    ID, a digest of the whole image.
# The plan comes first: a variant whose second build fails still gives its
# number of tests, the ones that could not run failing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
shift
variants=${*:-hashes hashes+sig btf sig}
results=$build/test-results/repro
mkdir -p "$results"
. "$here/../lib/tap.sh"
. "$here/../lib/elf.sh"

# second_build VARIANT: build it again in BUILD_DIR/repro, with the same
# compiler command as the first build (plain gcc for the reproducible ones)
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

export -f second_build
export build top

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

# The guest's checks of the second build, by the description it prints:
# every one must be there and pass.
guest_checks() {	# guest_checks VARIANT
	echo "allowlisted crc7.ko loads under lockdown"
	btf_expected "$1" && echo "the BTF of vmlinux and of crc7 is in /sys/kernel/btf"
	echo "tampered crc7-flipped.ko is refused under lockdown"
	sig_expected "$1" && echo "hello-signed.ko (the trusted test key, as DKMS signs) loads under lockdown"
}

sig_expected() {	# sig_expected VARIANT: the first build checks module signatures
	grep -q '^CONFIG_MODULE_SIG=y' "$build/out/$1/config" 2>/dev/null
}

btf_expected() {	# btf_expected VARIANT: the first build has module BTF
	grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$build/out/$1/config" 2>/dev/null
}

boot_check() {	# boot_check VARIANT OUT: load crc7 and a tampered crc7
	local v=$1 out=$2 rc desc
	local initramfs_log=$results/$v.initramfs.log
	if ! "$top/initramfs/build-modules.sh" "$out" "$build/repro/$v/linux/obj-$v" > "$initramfs_log" 2>&1; then
		echo "# $v: the test initramfs for the second build failed:"
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
if [ -f /mods/hello-signed.ko ]; then
	check_load "hello-signed.ko (the trusted test key, as DKMS signs) loads under lockdown" \
		finit /mods/hello-signed.ko OK 4096 O 'hello: loading out-of-tree module taints kernel'
fi
tap_plan
GUEST
	"$top/tests/vm/run-vm.sh" "$out" "$build/initramfs/base.cpio.gz" "$results/$v.guest.sh" \
		"$results/$v.console" lockdown=integrity > "$results/$v.boot" 2>&1
	rc=$?
	tap $rc "$v: second build boots and its guest ends cleanly (tests/vm/run-vm.sh)"
	grep '^# ' "$results/$v.boot"
	# A check passes when the guest passed it in a boot that ended cleanly.
	while read -r desc; do
		[[ $rc == 0 ]] && awk -v d="$desc" '
			/^ok [0-9]+ - / { sub(/^ok [0-9]+ - /, ""); if ($0 == d) found = 1 }
			END { exit !found }' "$results/$v.boot"
		tap $? "$v, second build booted: $desc"
	done < <(guest_checks "$v")
}

# kbuild_compilers OBJ: the compilers of every C file kbuild compiled in
# OBJ, as it recorded them in the .o.cmd files ("gcc", "ccache gcc"), one
# per line, each once.  What ran, whatever the published "compiler" says.
kbuild_compilers() {
	find -H "$1" -name '*.o.cmd' -exec sed -n 's/^savedcmd_[^ ]* := \(.*\) -Wp,-MMD,.*/\1/p' {} + 2>/dev/null |
		LC_ALL=C sort -u
}

# plan_of VARIANT: how many tests the loop below gives for it, whatever
# happens, so that the plan can come first.
plan_of() {
	case $1 in
	sig) echo 4 ;;
	*) echo $((5 + $(guest_checks "$1" | wc -l))) ;;
	esac
}

plan=0
for v in $variants; do
	plan=$((plan + $(plan_of "$v")))
done
tap_plan "$plan"

# not_run VARIANT FIRST_TEST REASON: fail the tests of VARIANT that did not
# run, from its FIRST_TEST (tap_n when the variant started) on.
not_run() {
	while (( tap_n - $2 < $(plan_of "$1") )); do
		tap 1 "$1: test $((tap_n - $2 + 1)) of $(plan_of "$1") not run: $3"
	done
}

for v in $variants; do
	first=$build/out/$v
	second=$build/repro/$v/out
	report=$results/$v.report
	start=$SECONDS
	begin=$tap_n
	# step.sh speaks once a minute while the build runs, so that the
	# suite is never silent for long; its lines are made TAP comments.
	"$top/kernel/build/step.sh" "# $v: second build" "6 min on 2 cores" \
		"$results/$v.build.log" second_build "$v" | sed 's/^[^#]/# &/'
	rc=${PIPESTATUS[0]}
	tap $rc "$v: second build from scratch in $build/repro/$v ($(cat "$first/compiler" 2>/dev/null))"
	if [[ $rc != 0 ]]; then
		not_run "$v" "$begin" "no second build"
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
		# What each build was told to use (published with it), and what
		# kbuild recorded it ran: a ccache build cannot pass either.
		cc_first=$(cat "$first/compiler" 2>/dev/null)
		cc_second=$(cat "$second/compiler" 2>/dev/null)
		[[ $cc_first == gcc && $cc_second == gcc ]]
		tap $? "$v: both builds compiled with plain gcc, no ccache (first: ${cc_first:-?}, second: ${cc_second:-?})"
		kbuild_first=$(kbuild_compilers "$build/src/patched/obj-$v" | paste -sd,)
		kbuild_second=$(kbuild_compilers "$build/repro/$v/linux/obj-$v" | paste -sd,)
		[[ $kbuild_first == gcc && $kbuild_second == gcc ]]
		tap $? "$v: kbuild recorded plain gcc for every C file of both builds (first: ${kbuild_first:-none}, second: ${kbuild_second:-none})"
		[[ $rc == 0 ]]
		tap $? "$v: bzImage, vmlinux and every installed module are identical ($(tail -n 1 "$report"))"
		boot_check "$v" "$second"
		;;
	esac
	not_run "$v" "$begin" "see above"
done
