#!/bin/bash
# Usage: check-series.sh BUILD_DIR [--build]
# Apply kernel/patches/series one patch at a time to a fresh copy of the
# pristine tree (BUILD_DIR/src/step) and, after each patch, check in TAP:
#  - scripts/checkpatch.pl --strict reports nothing;
#  - the patch applies;
#  - with --build (make check-series; time in README.md), for
#    each variant, the configuration still resolves and the directories
#    the patch touches compile (the whole kernel and modules when the
#    patch changes the kbuild scripts).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
compile=no
[[ ${2-} == --build ]] && compile=yes
pristine=$build/src/pristine
step=$build/src/step
. "$here/../lib/tap.sh"
show() {	# show FILE: the tail of a failed step's output, as TAP comments
	tail -n 30 "$1" | sed 's/^/# /'
}

# Build targets that exercise what a patch changes.
targets_for() {
	local f dirs=()
	for f in $("$top/kernel/build/patch-files.sh" "$1"); do
		case $f in
		scripts/Makefile* | scripts/link-vmlinux.sh | scripts/module-hashes* | Makefile)
			echo "bzImage modules"
			return ;;
		include/* | Documentation/* | MAINTAINERS) ;;
		*) dirs+=("$(dirname "$f")/") ;;
		esac
	done
	printf '%s\n' "${dirs[@]}" | sort -u | tr '\n' ' '
}

log=$build/tmp/series
mkdir -p "$log"
patches=$(wc -l < "$top/kernel/patches/series")
# Per patch: checkpatch, apply and the knob check, then with --build one
# build for sig and nosig each and one for hashes from the patch that adds
# its option on.
if [[ $compile == yes ]]; then
	hashes_from=$(grep -n '' "$top/kernel/patches/series" | while IFS=: read -r n name; do
		grep -q '^+config MODULE_HASHES$' "$top/kernel/patches/$name" && { echo "$n"; break; }
	done)
	tap_plan $((patches * 3 + patches * 2 + patches - ${hashes_from:-$((patches + 1))} + 1))
else
	tap_plan $((patches * 3))
fi
"$top/kernel/build/make-tree.sh" "$pristine" "$step"
applied=yes
while read -r name; do
	patch=$top/kernel/patches/$name
	(cd "$pristine" && ./scripts/checkpatch.pl --strict --quiet "$patch") > "$log/checkpatch.out" 2>&1
	rc=$?
	tap $rc "$name: checkpatch --strict is clean"
	[[ $rc == 0 ]] || show "$log/checkpatch.out"

	if [[ $applied == yes ]] && "$top/kernel/build/apply-patch.sh" "$step" "$patch" > "$log/apply.out" 2>&1; then
		tap 0 "$name: applies on top of the patches before it"
	else
		tap 1 "$name: applies on top of the patches before it"
		show "$log/apply.out"
		applied=no
		tap 1 "$name: no knob without enforcement (not applied)"
		continue
	fi

	# A knob that exists is enforced: CONFIG_MODULE_HASHES brings
	# module.sig_enforce, MODULE_SIG_FORCE and the lockdown check
	# (MODULE_INTEGRITY_POLICY) only where the loader looks the list up.
	selects=no enforces=no
	awk '/^config MODULE_HASHES$/ { in_it = 1; next } /^(config|choice|endchoice|menu|endmenu|if|endif)/ { in_it = 0 }
		in_it && /select MODULE_INTEGRITY_POLICY/ { found = 1 } END { exit !found }' \
		"$step/kernel/module/Kconfig" && selects=yes
	grep -q 'ima_module_hash_check(info' "$step/kernel/module/main.c" && enforces=yes
	[[ $selects == no || $enforces == yes ]]
	tap $? "$name: no knob without enforcement (MODULE_HASHES gives sig_enforce/lockdown: $selects, the loader checks the list: $enforces)"

	[[ $compile == yes ]] || continue
	targets=$(targets_for "$patch")
	# The hashes variant exists from the patch that adds its option on.
	variants="sig nosig"
	grep -q '^config MODULE_HASHES$' "$step/kernel/module/Kconfig" && variants="$variants hashes"
	# Until the loader enforces the list, lockdown still selects
	# MODULE_SIG on a hashes kernel; that build leaves lockdown out.
	echo CONFIG_SECURITY_LOCKDOWN_LSM=n > "$log/no-lockdown.config"
	# Options a later patch adds (the KUnit test of patch 11) are not asked
	# for before they exist.
	find "$step" -path "$step/obj-*" -prune -o -name 'Kconfig*' -type f -print0 |
		xargs -0 sed -n 's/^\(menu\)\{0,1\}config \([A-Za-z0-9_]*\).*/CONFIG_\2/p' |
		LC_ALL=C sort -u > "$log/symbols"
	for variant in $variants; do
		extra=
		[[ $variant == hashes && $selects == no ]] && extra=$log/no-lockdown.config
		echo "# $name: building $variant ($targets)${extra:+ without lockdown}"
		# shellcheck disable=SC2046 # one path per line, no spaces
		cat $("$top/kernel/build/fragments.sh" "$variant") |
			awk -F= 'FNR == NR { known[$0] = 1; next }
				!/^CONFIG_/ || ($1 in known)' "$log/symbols" - > "$log/$variant.config"
		{
			"$top/kernel/build/configure.sh" "$step" "$step/obj-$variant" \
				"$log/$variant.config" $extra &&
			make -s -C "$step" O="$step/obj-$variant" CC="${KERNEL_CC:-gcc}" \
				-j"$(nproc)" $targets
		} > "$log/build.out" 2>&1
		rc=$?
		tap $rc "$name: builds on its own ($variant: $targets)"
		[[ $rc == 0 ]] || show "$log/build.out"
	done
done < "$top/kernel/patches/series"
