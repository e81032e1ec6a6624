#!/bin/bash
# Usage: check-packages.sh BUILD_DIR
# The distro kernel's Debian packages (BUILD_DIR/out/distro, made by
# kernel/build/build-distro.sh), read as a machine that installs them
# would get them, in TAP:
#  - the packages make bindeb-pkg makes, no debug package;
#  - Debian's choices kept in the configuration, the deviations there;
#  - every installed module file (stripped, xz-compressed by the
#    packaging) is on the kernel's list, read with modhash from the
#    packaged bzImage, and the list holds nothing else; a module changed
#    by one byte is not;
#  - at least 300 modules, with BTF, without debug information;
#  - the changelog is dated from SOURCE_DATE_EPOCH and no file in the
#    packages is newer than it.
# Nothing here boots: tests/distro/run-distro.sh does.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
out=$build/out/distro
modhash=$build/tools/modhash/modhash
. "$here/../lib/tap.sh"

tap_plan 12
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

release=$(cat "$out/kernelrelease" 2>/dev/null)
epoch=$(cat "$build/src/patched/.source-date-epoch" 2>/dev/null)
image=$(ls "$out"/linux-image-"$release"_*.deb 2>/dev/null)
headers=$(ls "$out"/linux-headers-"$release"_*.deb 2>/dev/null)

# 1. The packages: image, headers, libc headers; no -dbg package.
debs=$(cd "$out" 2>/dev/null && ls -- *.deb | sed 's/_.*//' | sort | tr '\n' ' ')
[[ $debs == "linux-headers-$release linux-image-$release linux-libc-dev " ]]
tap $? "packages: linux-image, linux-headers and linux-libc-dev of $release, no debug package (got: $debs)"

dpkg-deb -x "$image" "$work/root" 2>"$work/x.err"
mods=$work/root/lib/modules/$release
config=$work/root/boot/config-$release

# 2. Debian's choices stay: SMP, the preemption model chosen at boot, BTF
# for vmlinux and modules, xz-compressed module installs, lockdown, IMA.
kept=0
for opt in SMP PREEMPT_DYNAMIC DEBUG_INFO_BTF DEBUG_INFO_BTF_MODULES \
	MODULE_COMPRESS_XZ MODULE_COMPRESS_ALL SECURITY_LOCKDOWN_LSM IMA \
	IMA_APPRAISE IMA_ARCH_POLICY SECURITY_IPE; do
	grep -qx "CONFIG_$opt=y" "$config" 2>/dev/null || { echo "# CONFIG_$opt is not y"; kept=1; }
done
tap $kept "config: Debian's SMP, PREEMPT_DYNAMIC, BTF, xz modules, lockdown, IMA and IPE are kept"

# 3. The deviations: the allowlist of stripped modules, no build-time
# signing key, IMA's trusted keyring, modsig.
dev=0
for want in CONFIG_MODULE_HASHES=y 'CONFIG_MODULE_HASHES_FORMS="stripped"' \
	CONFIG_MODULE_SIG=y '# CONFIG_MODULE_SIG_ALL is not set' 'CONFIG_MODULE_SIG_KEY=""' \
	CONFIG_INTEGRITY_TRUSTED_KEYRING=y CONFIG_IMA_APPRAISE_MODSIG=y; do
	grep -qxF "$want" "$config" 2>/dev/null || { echo "# missing: $want"; dev=1; }
done
tap $dev "config: the allowlist (stripped form), no signing key, .ima keyring, modsig"

# 4. Modules installed compressed, as Debian installs them.
n_xz=$(find "$mods" -name '*.ko.xz' 2>/dev/null | wc -l)
n_plain=$(find "$mods" -name '*.ko' 2>/dev/null | wc -l)
[[ $n_xz -ge 300 && $n_plain == 0 ]]
tap $? "modules: $n_xz installed as .ko.xz (at least 300), $n_plain uncompressed"

# 5. Every installed module is on the list of the packaged kernel.
"$modhash" check -k "$work/root/boot/vmlinuz-$release" \
	-s "$work/root/boot/System.map-$release" "$mods" > "$work/check.out" 2>"$work/check.err"
rc=$?
n_listed=$(grep -c $'\tlisted\t' "$work/check.out")
[[ $rc == 0 && $n_listed == "$n_xz" ]]
tap $? "modhash check: all $n_xz installed modules are listed by vmlinuz-$release (got $n_listed, exit $rc)"
sed -n '$p' "$work/check.out" | sed 's/^/# /'

# 6. The list holds exactly the modules of the package: one digest each.
"$modhash" list -s "$work/root/boot/System.map-$release" \
	"$work/root/boot/vmlinuz-$release" > "$work/list.out" 2>"$work/list.err"
n_list=$(grep -c '^sha256:' "$work/list.out")
[[ $n_list == "$n_xz" ]]
tap $? "modhash list: $n_list digests for $n_xz modules"

# 7. A listed module changed by one byte (decompressed, flipped, compressed
# again) is not listed any more.
victim=$(find "$mods" -name 'crc7.ko.xz' -o -name 'nls_cp437.ko.xz' | head -n 1)
if [[ -n $victim ]]; then
	xz -dc "$victim" > "$work/victim.ko"
	printf '\x01' | dd of="$work/victim.ko" bs=1 seek=200 conv=notrunc status=none
	xz -c "$work/victim.ko" > "$work/victim.ko.xz"
	"$modhash" check -k "$work/root/boot/vmlinuz-$release" \
		-s "$work/root/boot/System.map-$release" "$work/victim.ko.xz" > "$work/victim.out" 2>&1
	rc=$?
	[[ $rc == 1 ]] && grep -q $'\tnot-listed\t' "$work/victim.out"
	tap $? "a changed $(basename "$victim") is not-listed (exit $rc)"
else
	tap 1 "a changed module is not-listed: no crc7 or nls_cp437 in the package"
fi

# 8. Modules carry BTF and no DWARF (INSTALL_MOD_STRIP=1).
sample=$(find "$mods" -name 'ext4.ko.xz' | head -n 1)
xz -dc "$sample" > "$work/sample.ko" 2>/dev/null
sections=$(readelf -S -W "$work/sample.ko" 2>/dev/null)
grep -q ' \.BTF ' <<<"$sections" && ! grep -q ' \.debug_info ' <<<"$sections"
tap $? "ext4.ko: a .BTF section and no .debug_info"

# 9. The headers package holds what DKMS builds against.
dpkg-deb -x "$headers" "$work/hdr" 2>/dev/null
hdir=$work/hdr/usr/src/linux-headers-$release
[[ -f $hdir/Module.symvers && -x $hdir/scripts/mod/modpost && -x $hdir/scripts/sign-file && -f $hdir/include/config/auto.conf ]]
tap $? "linux-headers: Module.symvers, modpost, sign-file and the configuration for out-of-tree builds"

# 10. The changelog is dated from SOURCE_DATE_EPOCH, not the build time.
want_date=$(LC_ALL=C date -u -R -d "@$epoch")
trailer=$(zcat "$work/root/usr/share/doc/linux-image-$release/changelog.Debian.gz" 2>/dev/null | grep '^ -- ')
[[ $trailer == *">  $want_date" ]]
tap $? "changelog dated $want_date (SOURCE_DATE_EPOCH): '$trailer'"

# 11. No file in the packages is newer than SOURCE_DATE_EPOCH.
newer=0
limit=$(date -u -d "@$epoch" '+%Y-%m-%d %H:%M:%S')
for deb in "$out"/*.deb; do
	n=$(dpkg-deb --fsys-tarfile "$deb" | TZ=UTC tar -tv --full-time -f - |
		awk -v limit="$limit" '$4 " " $5 > limit { n++ } END { print n + 0 }')
	[[ $n == 0 ]] || { echo "# $(basename "$deb"): $n members newer than $limit"; newer=1; }
done
tap $newer "no member of the packages is newer than SOURCE_DATE_EPOCH ($epoch)"

# 12. The list's size in vmlinux: 32 bytes a module plus a fixed header.
"$modhash" list -f raw -s "$work/root/boot/System.map-$release" \
	"$work/root/boot/vmlinuz-$release" > "$work/list.raw" 2>/dev/null
bytes=$(stat -c %s "$work/list.raw" 2>/dev/null || echo 0)
per=$(( n_xz ? bytes / n_xz : 0 ))
echo "# the list: $bytes bytes in vmlinux for $n_xz modules ($per bytes a module, header included)"
[[ $bytes -gt $((32 * n_xz)) && $bytes -le $((32 * n_xz + 4096)) ]]
tap $? "the list takes 32 bytes a module and a header of at most 4 KiB ($bytes bytes)"
