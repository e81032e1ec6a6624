#!/bin/bash
# Usage: run-distro.sh BUILD_DIR
# The distro kernel on a real Debian 12 system, in TAP: the packages of
# BUILD_DIR/out/distro installed with dpkg into a Debian 12 root file
# system (make-rootfs.sh, make-disk.sh: initramfs-tools builds the initrd
# there), booted under qemu with 2 CPUs, once per mode:
#   none         no enforcement: the reference set of modules
#   enforce      module.sig_enforce=1
#   lockdown     lockdown=integrity
#   ima          the shipped IMA policy (ima-policy/attest-modules.policy),
#                written by the initrd's init-top script before any module
#   ima+enforce  the same with module.sig_enforce=1 (DKMS under the policy)
#   ima-log      the same policy with ima_appraise=log: the changed module
#                loads, and the IMA log shows it (the dirty boot)
# The ima and ima-log boots have a TPM (swtpm): the guest quotes PCRs 0-10
# with a fresh AK and the host's nonce and sends IMA's lists (ima: before
# its loads, a clean boot; ima-log: after loading the changed module).
# modhash verify-log must accept the clean boot against the distro kernel
# and name exactly the changed module in the dirty one, and the Keylime
# policy modhash export makes from the .deb alone (no running system)
# must hold every entry of the clean boot's log (Keylime's rules,
# tests/tools/keylime-rules.py).
# Each boot must reach the end of systemd's boot (running, or degraded
# with only units of allowed-failures.txt failed, never
# systemd-modules-load), see both CPUs, load exactly the modules the
# reference boot loads (from the initrd and from udev), and then give
# each load of guest/loads.sh the verdict of expected-loads.tsv.  The IMA
# boots also show that the initrd's loads were appraised under the
# policy.  Everything the guests sent is kept in
# BUILD_DIR/test-results/distro/MODE/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
out=$build/out/distro
work=$build/distro
results=$build/test-results/distro
. "$here/../lib/tap.sh"
. "$here/../lib/console.sh"
. "$here/../lib/elf.sh"
. "$here/../lib/module-file.sh"

# mode  disk  kernel command line  loads  TPM (-, before or after the loads)
boots="none plain - all -
enforce plain module.sig_enforce=1 all -
lockdown plain lockdown=integrity all -
ima ima integrity_audit=1 all before
ima+enforce ima module.sig_enforce=1,integrity_audit=1 all -
ima-log ima ima_appraise=log changed after"
all_loads="unlisted changed own-ima-key dkms dkms-unsigned"
# per boot: ended, state, CPUs, module set and its loads (5, or 1 in
# ima-log); ima: the policy first, the initrd's loads appraised, their
# merged-/usr paths; then verify-log clean and dirty, Keylime; the hook's
# three cases
tap_plan $((6 * 4 + 5 * 5 + 1 + 3 + 3 + 3))
modhash=$build/tools/modhash/modhash
. "$here/../lib/swtpm.sh"

mkdir -p "$work" "$results"
release=$(cat "$out/kernelrelease" 2>/dev/null)
debs=("$out"/linux-image-"$release"_*.deb "$out"/linux-headers-"$release"_*.deb)

# --- what the guest needs, in /usr/local/share/distro-test -----------
prepare_share() {
	local share=$work/share obj=$build/src/patched/obj-distro root=$work/deb-root victim
	rm -rf "$share" "$root"
	mkdir -p "$share" "$work/hello"
	# hello.ko: out of tree, built on the host against the kernel's build
	# directory, never signed, installed compressed like Debian's modules.
	cp "$top/tests/modules/hello/hello.c" "$work/hello/"
	echo 'obj-m := hello.o' > "$work/hello/Kbuild"
	"$top/kernel/build/kmake.sh" "$build/src/patched" distro M="$work/hello" modules &&
		xz --check=crc32 -c "$work/hello/hello.ko" > "$share/hello.ko.xz" || return 1
	# A listed module of the package with one byte of .comment inverted.
	dpkg-deb -x "${debs[0]}" "$root" || return 1
	victim=$(cd "$root/lib/modules/$release" && find kernel -name 'nls_koi8[-_]r.ko.xz')
	[[ -n $victim ]] || { echo "# no nls_koi8_r.ko.xz in the package"; return 1; }
	echo "$victim" > "$share/changed.path"
	xz -dc "$root/lib/modules/$release/$victim" > "$work/victim.ko" &&
		flip_comment "$work/victim.ko" "$work/changed.ko" &&
		xz --check=crc32 -c "$work/changed.ko" > "$share/changed.ko.xz" || return 1
	# DKMS: the package source and the test key dkms signs with.
	cp -r "$here/dkms/hello_dkms-1.0" "$share/"
	cp "$top/tests/modules/hello/hello.c" "$share/hello_dkms-1.0/"
	cp "$top/tests/keys/dkms-test-key.pem" "$share/"
	openssl x509 -in "$top/tests/keys/dkms-test-cert.pem" -outform DER -out "$share/dkms-test-cert.der"
}

prepared=0
swtpm_ca "$work/swtpm-ca" > "$work/swtpm-ca.log" 2>&1 || echo "# swtpm's local CA could not be set up: $work/swtpm-ca.log"
{
	"$here/make-rootfs.sh" "$work/rootfs.tar" &&
	prepare_share &&
	"$here/make-disk.sh" --share "$work/share" "$work/rootfs.tar" "$work/plain.img" "${debs[@]}" &&
	"$here/make-disk.sh" --share "$work/share" --policy "$top/ima-policy/attest-modules.policy" \
		"$work/rootfs.tar" "$work/ima.img" "${debs[@]}"
} > "$work/prepare.log" 2>&1 || prepared=1
if [[ $prepared != 0 ]]; then
	echo "# preparing the disks failed: $work/prepare.log"
	tail -n 20 "$work/prepare.log" | sed 's/^/#   /'
fi

# The modules a boot loaded (from proc-modules, the guest's
# /proc/modules), one name a line, sorted.
module_set() {
	cut -d' ' -f1 "$results/$1/proc-modules" 2>/dev/null | sort
}

fact() {	# fact MODE KEY: the value of "distro-test: KEY: VALUE"
	tr -d '\r' < "$results/$1/console.log" 2>/dev/null |
		sed -n "s/^distro-test: $2: //p" | head -n 1
}

errno_text() {
	case $1 in
	EKEYREJECTED) echo "Key was rejected by service" ;;
	EPERM) echo "Operation not permitted" ;;
	EACCES) echo "Permission denied" ;;
	esac
}

allowed=$(grep -v -e '^#' -e '^$' "$here/allowed-failures.txt" | tr '\n' ' ')
while read -r mode disk cmdline loads tpm; do
	dir=$results/$mode
	[[ $cmdline == - ]] && cmdline=
	[[ $loads == all ]] && loads=$all_loads
	loads=$(tr , ' ' <<<"$loads")
	args="$(tr , ' ' <<<"$cmdline") distro.mode=$mode distro.loads=$(tr ' ' , <<<"$loads")"
	qemu=()
	if [[ $tpm != - ]]; then
		nonce=$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')
		echo "$nonce" > "$work/$mode.nonce"
		args="$args distro.nonce=$nonce distro.measure=$tpm"
	fi
	ended=1
	if [[ $prepared == 0 ]]; then
		if [[ $tpm != - ]]; then
			swtpm_start "$dir.swtpm" "$work/swtpm-ca" && read -ra qemu <<<"$swtpm_qemu_args"
		fi
		"$here/run-boot.sh" "$work/$disk.img" "$args" 900 "$dir" -- "${qemu[@]}" && ended=0
		swtpm_stop
		console_files "$dir/console.log" "$dir"
	fi
	tap $ended "$mode: the guest booted and its test ran to the end (console: $dir/console.log)"

	state=$(fact "$mode" state)
	failed=$(fact "$mode" failed-units)
	bad=
	for unit in $failed; do
		[[ " $allowed " == *" $unit "* && $unit != systemd-modules-load.service ]] || bad="$bad $unit"
	done
	[[ ($state == running || $state == degraded) && -z $bad ]]
	tap $? "$mode: systemd: $state, failed units: ${failed:-none}${bad:+ (not allowed:$bad)}"

	[[ $(fact "$mode" nproc) == 2 ]]
	tap $? "$mode: 2 CPUs online (nproc: $(fact "$mode" nproc))"

	if [[ $mode == none ]]; then
		n=$(module_set none | wc -l)
		set_none=$(module_set none)
		# Each with its installed file (kept in none/module-paths).
		paths=$(awk -v r="/lib/modules/$release/" 'index($2, r) && $2 ~ /\.ko\.xz$/' "$results/none/module-paths" 2>/dev/null | wc -l)
		grep -qx ext4 <<<"$set_none" && grep -qx virtio_blk <<<"$set_none" && [[ $n -ge 10 && $paths == "$n" ]]
		tap $? "none: $n modules loaded at boot, ext4 and virtio_blk among them, each an installed .ko.xz of $release ($paths; the reference set)"
	else
		diff <(module_set none) <(module_set "$mode") > "$dir/module-set.diff"
		rc=$?
		[[ $rc == 0 && -s $results/none/proc-modules ]]
		tap $? "$mode: the same $(module_set "$mode" | wc -l) modules as the boot without enforcement$( ((rc)) && echo ": $(tr '\n' ' ' < "$dir/module-set.diff")")"
	fi

	for load in $loads; do
		row=$(awk -F'\t' -v m="$mode" -v l="$load" '$1 == m && $2 == l' "$here/expected-loads.tsv")
		errno=$(cut -f3 <<<"$row")
		logre=$(cut -f4 <<<"$row")
		got=$(fact "$mode" "load $load")
		lines=$(tr -d '\r' < "$dir/console.log" 2>/dev/null | sed -n "s/^distro-test: load $load: //p")
		ok=1
		if [[ -z $row ]]; then
			echo "# no row for $mode $load in expected-loads.tsv"
		elif [[ $errno == OK ]]; then
			[[ $got == rc=0\ * ]] && ok=0
		else
			[[ $got == rc=[1-9]* ]] && grep -q "^out: .*$(errno_text "$errno")" <<<"$lines" && ok=0
		fi
		if [[ $ok == 0 && $logre != - ]]; then
			grep -qE "^log: .*$logre" <<<"$lines" || ok=1
		fi
		((ok)) && sed 's/^/#   /' <<<"$lines"
		tap $ok "$mode: $load: $errno${logre:+, log: $logre} (got $got)"
	done

	if [[ $mode == ima ]]; then
		# The policy came first: the init-top script loaded it and no module
		# was in before it.
		dmesg=$dir/dmesg
		grep -q 'ima-policy: loaded /etc/modhash/ima-policy' "$dmesg" 2>/dev/null &&
			! grep -q 'ima-policy: modules loaded before the policy' "$dmesg"
		tap $? "ima: the initrd loaded the IMA policy before any module"
		# The initrd's loads were under it: mkinitramfs decompresses the
		# modules it copies, so each of the initrd's loads is a .ko file
		# (the root file system has only .ko.xz, which kmod loads through
		# init_module()), measured by the policy's MODULE_CHECK rule, and
		# appraised by the same policy, or it would not have loaded.
		awk '$5 ~ /\/modules\/.*\.ko$/ { print $5 }' "$dir/ascii-sha256.log" 2>/dev/null > "$dir/initrd-loads"
		n=$(wc -l < "$dir/initrd-loads")
		grep -q '/ext4\.ko$' "$dir/initrd-loads" && grep -q '/virtio_blk\.ko$' "$dir/initrd-loads"
		tap $? "ima: the initrd's $n module loads (uncompressed .ko files, ext4 and virtio_blk among them) were measured and appraised under the policy"
		# Merged /usr: IMA logs the resolved path.
		bad=$(grep -v "^/usr/lib/modules/$release/" "$dir/initrd-loads")
		[[ $n -ge 2 && -z $bad ]]
		tap $? "ima: every module file in the IMA log is under /usr/lib/modules/$release/ (merged /usr)${bad:+; not: $bad}"
	fi
done <<<"$boots"

# --- measured boot: the guest's lists and quote against the distro kernel
# The kernel as the package installs it, read from the .deb alone.
root=$work/deb-root
kernel=$root/boot/vmlinuz-$release
map=$root/boot/System.map-$release

# verify MODE: verify-log on both banks of MODE's lists with its quote;
# output in $results/MODE/BANK.verify, status in BANK.vrc.
verify() {
	local d=$results/$1 bank
	for bank in sha1 sha256; do
		"$modhash" verify-log --kernel "$kernel" --system-map "$map" --bank "$bank" \
			--quote "$d/quote.msg" --quote-sig "$d/quote.sig" --pcr-values "$d/quote.pcrs" \
			--ak-pub "$d/ak.pub" --ak-name "$d/ak.name" --nonce "$(cat "$work/$1.nonce" 2>/dev/null)" \
			"$d/$bank.log" > "$d/$bank.verify" 2>&1
		echo $? > "$d/$bank.vrc"
	done
}
verify ima
verify ima-log

ok=0
for bank in sha1 sha256; do
	v=$results/ima/$bank.verify
	[[ $(cat "$results/ima/$bank.vrc" 2>/dev/null) == 0 ]] &&
		grep -q "^$bank PCR-10: .*: matches the quoted value" "$v" &&
		grep -qx 'boot_aggregate: entry 0 matches the quoted sha256 PCRs 0-9' "$v" &&
		! grep -q '^offending:' "$v" || { ok=1; sed 's/^/# /' "$v" 2>/dev/null | head -n 20; }
done
modules_line=$(grep '^modules:' "$results/ima/sha256.verify" 2>/dev/null)
tap $ok "clean boot (ima), both banks: verify-log verifies the quote, reaches the quoted PCR 10, no offending entry, exit 0 ($modules_line)"

# The dirty boot: one offending entry, the changed module's load through
# init_module(), whose digest is that of the changed module's image.
changed_digest=$(sha256sum "$work/changed.ko" 2>/dev/null | cut -d' ' -f1)
ok=0
for bank in sha1 sha256; do
	v=$results/ima-log/$bank.verify
	[[ $(cat "$results/ima-log/$bank.vrc" 2>/dev/null) == 1 && -n $changed_digest ]] &&
		grep -q "^$bank PCR-10: .*: matches the quoted value" "$v" &&
		[[ $(grep -c '^offending:' "$v") == 1 ]] &&
		[[ $(grep '^offending:' "$v") == *"$changed_digest"* ]] || { ok=1; sed 's/^/# /' "$v" 2>/dev/null | head -n 20; }
done
tap $ok "dirty boot (ima-log), both banks: verify-log reaches the quoted PCR 10 and reports exactly one offending entry, the changed $(basename "$(cat "$work/share/changed.path" 2>/dev/null)") (sha256:${changed_digest:0:16}...), exit 1"

# Reference values from the .deb alone: the Keylime policy of the
# package's modules, boot_aggregate from the clean boot's list, checked
# with Keylime's rules against what the agent reads by default (the sha1
# ASCII list) and the sha256 one: every entry, file entries by path (the
# initrd's, under /usr/lib), init_module() entries by digest.
rules=$top/tests/tools/keylime-rules.py
"$modhash" export --format=keylime --modules "$root/lib/modules/$release" \
	--system-map "$map" --ima-log "$results/ima/ascii.log" \
	-o "$work/keylime.json" "$kernel" > "$work/keylime.err" 2>&1
krc=$?
python3 "$rules" "$work/keylime.json" "$results/ima/ascii.log" > "$work/keylime.rules" 2>&1
rrc=$?
entries=$(grep -c . "$results/ima/ascii.log" 2>/dev/null)
[[ $krc == 0 && $rrc == 0 ]] && grep -qx "# $entries entries, 0 failures" "$work/keylime.rules"
ok=$?
((ok)) && sed 's/^/# /' "$work/keylime.err" "$work/keylime.rules" 2>/dev/null | head -n 20
tap $ok "Keylime: the policy modhash export makes from the .deb holds all $entries entries of the clean boot's IMA list (Keylime's rules, exit $krc/$rrc)"

# --- the initramfs-tools hook, run as mkinitramfs runs it ---------------
# In the Debian 12 root file system, for a kernel whose config has the
# allowlist and one whose config does not (the distro config without
# MODULE_HASHES, as Debian's own kernels are): a policy that appraises
# modules goes only into the first one's initrd, a measuring one into
# both.
hook_root=$work/hook-root
hook_ready=1
rm -rf "$hook_root"
mkdir -p "$hook_root" &&
	tar --numeric-owner -xpf "$work/rootfs.tar" -C "$hook_root" &&
	install -m 0755 "$top/initramfs/initramfs-tools/hooks/ima-policy" \
		"$hook_root/usr/share/initramfs-tools/hooks/ima-policy" &&
	cp "$out/config" "$hook_root/boot/config-$release" &&
	grep -v '^CONFIG_MODULE_HASHES' "$out/config" > "$hook_root/boot/config-no-allowlist" &&
	hook_ready=0
# hook VERSION POLICY: run the hook for kernel VERSION with POLICY as
# /etc/modhash/ima-policy; prints what it put into the initrd's tree,
# then its messages.
hook() {
	install -D -m 0644 "$2" "$hook_root/etc/modhash/ima-policy"
	rm -rf "$hook_root/tmp/initrd"
	mkdir -p "$hook_root/tmp/initrd"
	chroot "$hook_root" env version="$1" DESTDIR=/tmp/initrd verbose=n \
		/usr/share/initramfs-tools/hooks/ima-policy > "$work/hook.err" 2>&1
	(cd "$hook_root/tmp/initrd" && find . -type f)
	cat "$work/hook.err"
}
appraise=$top/ima-policy/attest-modules.policy
got=$( ((hook_ready)) || hook no-allowlist "$appraise")
[[ $hook_ready == 0 && $got != *./etc/modhash/ima-policy* && $got == *"no-allowlist has no module allowlist"* ]]
tap $? "hook: a policy that appraises modules is kept out of the initrd of a kernel without the allowlist, with a warning (${got//$'\n'/ })"
got=$( ((hook_ready)) || hook "$release" "$appraise")
[[ $hook_ready == 0 && $got == ./etc/modhash/ima-policy ]]
tap $? "hook: the same policy goes into the distro kernel's initrd ($got)"
got=$( ((hook_ready)) || hook no-allowlist "$top/ima-policy/measure-modules.policy")
[[ $hook_ready == 0 && $got == ./etc/modhash/ima-policy ]]
tap $? "hook: a policy that only measures goes into any kernel's initrd ($got)"
rm -rf "$hook_root"
