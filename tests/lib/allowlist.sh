# Allowlist files (include/uapi/linux/module_hashes.h), the kbuild step
# that writes them, kernels relinked around another list, and the boots
# of the allowlist VM tests; sourced by the host-side tests and benchmarks
# that need them.
allowlist_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Size of struct module_hashes_header, which the digests follow.
allowlist_header_bytes=20

# list_digest_bytes LIST: the bytes of LIST's digests, without the header
list_digest_bytes() {
	echo $(($(stat -c %s "$1") - allowlist_header_bytes))
}

# list_digests LIST [HEXCHARS]: its digests in hex, one a line, nothing for
# an empty list; HEXCHARS is twice the digest size (default 64, SHA-256).
list_digests() {
	local hex i width=${2:-64}
	hex=$(tail -c +$((allowlist_header_bytes + 1)) "$1" | od -An -v -tx1 | tr -d ' \n')
	for ((i = 0; i < ${#hex}; i += width)); do
		echo "${hex:i:width}"
	done
}

# list_securityfs LIST: what securityfs ima/module_hashes shows for the
# valid list LIST: the header line, then "algo:hex" per digest.  The
# algorithm and digest size come from LIST's own header.
list_securityfs() {
	local algo size count
	read -r algo size < <(od -An -tu2 -j10 -N4 "$1")
	count=$(od -An -tu4 -j16 -N4 "$1" | tr -d ' ')
	case $algo in
	4) algo=sha256 ;;
	5) algo=sha384 ;;
	6) algo=sha512 ;;
	*) echo "list_securityfs: $1: hash_algo $algo is not one the kernel takes" >&2; return 1 ;;
	esac
	echo "# module allowlist version 1, $algo, $count digests"
	list_digests "$1" $((2 * size)) | sed "s/^/$algo:/"
}

# list_offset VMLINUX: the file offset of the allowlist in VMLINUX, where
# its symbol __module_hashes_start points (tests/lib/elf.sh must be
# sourced); fails unless the magic is there.  Searching the file for the
# magic could find the string elsewhere first.
list_offset() {
	local addr offset
	addr=$(nm "$1" 2>/dev/null | awk '$3 == "__module_hashes_start" { print $1; exit }')
	[[ -n $addr ]] || return 1
	offset=$(elf_sections "$1" | awk -v a="$((16#$addr))" '
		$3 != 0 && a >= $3 && a < $3 + $5 { print a - $3 + $4; exit }')
	[[ -n $offset && $(tail -c +$((offset + 1)) "$1" | head -c 8) == KMODHASH ]] || return 1
	echo "$offset"
}

# allowlist_step OBJ: the allowlist step as kbuild ran it in the build
# directory OBJ (from its .cmd file), without its output and input and
# with the generator's absolute path; append "-o OUTPUT MODULES_ORDER" to
# run it from any directory.
allowlist_step() {
	local cmd
	cmd=$(sed -n 's/^savedcmd_.module-hashes.bin := //p' "$1/..module-hashes.bin.cmd")
	# without the jobserver-exec wrapper in front of the generator
	cmd=scripts/module-hashes${cmd#*scripts/module-hashes}
	if [[ $cmd != "scripts/module-hashes "*" -o .module-hashes.bin modules.order" ]]; then
		echo "allowlist_step: $1: unexpected allowlist command: $cmd" >&2
		return 1
	fi
	echo "$1/${cmd% -o .module-hashes.bin modules.order}"
}

# A kernel of the build relinked around another list, as every build
# relinks after its allowlist step: the list is an ordinary input of the
# vmlinux link, and kbuild keeps a list newer than the modules when its
# command has not changed.  BUILD is the build directory (build/), the
# kernel is VARIANT's in BUILD/src/patched/obj-VARIANT; kbuild's output
# goes to stderr.

# relink_with_list BUILD VARIANT LIST: make bzImage again with a copy of
# LIST as the build's list; fails if kbuild made a list of its own instead.
relink_with_list() {
	local tree=$1/src/patched compiler
	local list=$tree/obj-$2/.module-hashes.bin
	# The build's own compiler command, or kbuild would recompile all.
	compiler=$(cat "$1/out/$2/compiler") || return 1
	# copied, not moved: a fresh mtime makes kbuild link it in
	cp "$3" "$list" &&
		KERNEL_CC=$compiler "$allowlist_top/kernel/build/kmake.sh" "$tree" "$2" bzImage >&2 ||
		return 1
	if ! cmp -s "$list" "$3"; then
		echo "relink_with_list: kbuild made its own list instead of linking $3" >&2
		return 1
	fi
}

# relink_restore BUILD VARIANT SAVED: relink with the build's own list,
# SAVED (a copy taken before the first relink_with_list), and fail unless
# vmlinux and bzImage are then byte for byte the published ones
# (BUILD/out/VARIANT).
relink_restore() {
	local obj=$1/src/patched/obj-$2 out=$1/out/$2
	relink_with_list "$@" || return 1
	if ! cmp -s "$obj/vmlinux" "$out/vmlinux" || ! cmp -s "$obj/arch/x86/boot/bzImage" "$out/bzImage"; then
		echo "relink_restore: relinked with its own list again, the kernel in $obj differs from $out" >&2
		return 1
	fi
}

# Boots of the allowlist VM tests (tests/vm/run-allowlist.sh,
# run-relinked-lists.sh).  The caller sets work, the directory of the
# boots' files, and base, the base initramfs.

# guest KOUT NAME [KERNEL_ARG...]: boot the kernel published in KOUT, or
# the image $VM_KERNEL with KOUT's modules, with $work/NAME.sh as the
# guest script, and print what it printed.  Whether the boot ended
# cleanly is kept for "clean NAME", which every test made from this
# output must call; a kernel or initramfs that is not there is a boot
# that did not.
guest() {
	local kout=$1 name=$2 f
	shift 2
	for f in "${VM_KERNEL:-$kout/bzImage}" "$kout/modules.cpio.gz" "$base"; do
		if [[ ! -f $f ]]; then
			echo "# $f is missing (kernel not built)" > "$work/$name.out"
			echo 1 > "$work/$name.rc"
			return 1
		fi
	done
	"$allowlist_top/tests/vm/run-vm.sh" "$kout" "$base" "$work/$name.sh" "$work/$name.console" "$@" \
		> "$work/$name.out" 2>&1
	echo $? > "$work/$name.rc"
	cat "$work/$name.out"
}

# clean NAME: true if the boot of guest NAME ended cleanly; otherwise false
# after saying why in TAP comments (the first time it is asked), so that
# a test that reads the output of a bad boot fails.
clean() {
	[[ $(cat "$work/$1.rc" 2>/dev/null) == 0 ]] && return 0
	if [[ ! -f $work/$1.told ]]; then
		grep -E '^# (run-vm: |.*kernel not built)' "$work/$1.out" | head -n 25
		touch "$work/$1.told"
	fi
	return 1
}

# Guest script pieces (/bin/sh in the guest) and the checks of what they
# print.

# guest_boot_report: print the allowlist lines of the boot log
# ("BOOTLOG ...") and the header of securityfs ima/module_hashes
# ("HEADER ...").
guest_boot_report() {
	cat <<'GUEST'
dmesg | grep 'module allowlist' | sed 's/^/BOOTLOG /'
grep ' module-allowlist' /sys/kernel/security/ima/ascii_runtime_measurements | sed 's/^/MEASURED /'
head -n 1 /sys/kernel/security/ima/module_hashes | sed 's/^/HEADER /'
GUEST
}

# guest_list_compare EXPECTED: print "LIST-SAME" when securityfs
# ima/module_hashes shows exactly the file EXPECTED (of the host), else
# "LIST-DIFFERENT" and the start of the difference.
guest_list_compare() {
	echo 'cat > /tmp/expected <<"LIST"'
	cat "$1"
	echo 'LIST'
	cat <<'GUEST'
f=/sys/kernel/security/ima/module_hashes
if cmp -s /tmp/expected "$f"; then echo "LIST-SAME"; else echo "LIST-DIFFERENT"; diff /tmp/expected "$f" | head; fi
GUEST
}

# guest_loads PATH:FILE...: load each module in turn as load_module of
# /bin/vmtest.sh does (PATH insmod, modprobe, finit, ...), printing
# "LOAD FILE errno=E taint=T loaded=L modtaint=M" and each kernel log
# line of the load as "LOG FILE LINE".
guest_loads() {
	local load
	echo '. /bin/vmtest.sh'
	for load; do
		echo "load_module ${load%%:*} ${load#*:}"
		echo "echo \"LOAD ${load#*:} errno=\$errno taint=\$taint loaded=\$loaded modtaint=\$modtaint\""
		echo "sed 's|^|LOG ${load#*:} |' /tmp/load.log"
	done
}

# boot_script NAME PATH:FILE...: $work/NAME.sh, a guest script that
# reports on the list (guest_boot_report) and loads each module
# (guest_loads).
boot_script() {
	local name=$1
	shift
	{
		echo '#!/bin/sh'
		guest_boot_report
		guest_loads "$@"
	} > "$work/$name.sh"
}

# refused_at_boot NAME REASON: guest NAME's boot log and securityfs say the
# list was refused for REASON.
refused_at_boot() {
	grep -q "^BOOTLOG .*module allowlist refused: $2; no module is accepted by digest\$" "$work/$1.out" &&
		grep -qx "HEADER # module allowlist refused: $2" "$work/$1.out"
}

# refusal_measured NAME REASON: guest NAME, booted with
# ima_policy=critical_data, measured the refused list as the event
# "module-allowlist-refused" whose data is REASON (in hex in the ascii
# list): a verifier can tell that the kernel runs without its list.
refusal_measured() {
	local hex
	hex=$(printf '%s' "$2" | od -An -tx1 | tr -d ' \n')
	grep -Eqx "MEASURED 10 [0-9a-f]{40} ima-buf sha256:[0-9a-f]{64} module-allowlist-refused $hex" "$work/$1.out"
}

# accepted_at_boot NAME COUNT ALGO: guest NAME's boot log and securityfs
# say the list of COUNT ALGO digests is in use.
accepted_at_boot() {
	grep -q "^BOOTLOG .*module allowlist: $2 $3 digests\$" "$work/$1.out" &&
		grep -qx "HEADER # module allowlist version 1, $3, $2 digests" "$work/$1.out"
}

# load_was NAME FILE ERRNO TAINT MODTAINT [LOG]: in guest NAME, loading
# FILE ended with ERRNO (OK: the module is then loaded, else not), left
# /proc/sys/kernel/tainted at TAINT and the module's own taint at MODTAINT
# ("-": none), and logged a line matching the ERE LOG when given.  Says
# what was observed, in a TAP comment, when it was not that.
load_was() {
	local loaded=no
	[[ $3 == OK ]] && loaded=yes
	if grep -qxF "LOAD $2 errno=$3 taint=$4 loaded=$loaded modtaint=$5" "$work/$1.out" &&
		{ [[ -z ${6:-} ]] || grep -F "LOG $2 " "$work/$1.out" | grep -Eq -- "$6"; }; then
		return 0
	fi
	grep -F -e "LOAD $2 " -e "LOG $2 " "$work/$1.out" | sed 's/^/# observed: /'
	return 1
}
