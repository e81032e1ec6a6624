#!/bin/bash
# Usage: run-mutations.sh BUILD_DIR [ROW...]
# Mutation checks of NOTES.md's security review: for each row with a
# tests/mutations/ROW.diff (all rows unless named), undo that row's fix in
# a copy of the final tree, rebuild what the row needs, run the row's
# tests and require them to fail.  TAP, one result per row, after one per
# baseline: the same tests must pass on the copy before any diff is
# applied, so that a test failing for another reason (a kernel not built,
# a guest that did not boot) is never taken for a caught mutation.
#
# A ROW.diff is a unified diff (patch -p1) whose paths start with
# linux/ (the patched kernel source, the tree the series makes) or
# project/ (this repository: policies, config fragments, the patches
# themselves), after a header of "key: value" lines:
#   row:    the row's id in the table
#   build:  the kernels (variants) to rebuild with the diff applied, or
#           "none" when the tests read only sources or the initramfs
#   suite:  the tests/run-all.sh suite that holds the row's tests
#   only:   (optional) VM_ONLY for the suite: the verdict rows it runs
#   fails:  (one or more) a TAP description, or a fixed part of one, that
#           must be "ok" before and "not ok" with the diff
# A diff that does not apply exactly (no fuzz) is a failure.
#
# The copy lives in BUILD_DIR/mutations: project/ holds this
# repository's files and project/build its own build directory, whose
# kernel trees and kbuild output directories are kept from one run to the
# next, so that a row rebuilds only what its diff and the previous
# row's revert touched (the first run builds hashes, hashes+sig and btf from
# scratch: about 25 minutes on 2 cores).  Each row's suite output goes to
# BUILD_DIR/log/mutations/ROW.*.log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
shift
. "$top/tests/lib/tap.sh"
. "$top/tests/lib/mutation-diff.sh"
root=$build/mutations
proj=$root/project
mbuild=$proj/build
logs=$build/log/mutations
mkdir -p "$root" "$logs"
say() { echo "# $*"; }

if [[ $# -gt 0 ]]; then
	rows=("$@")
else
	rows=()
	for diff in "$here"/*.diff; do
		rows+=("$(basename "$diff" .diff)")
	done
fi

# --- the copy of the final tree -------------------------------------------
# A run that stopped with a diff applied left a marker: start that copy
# afresh rather than trust a revert that never ran.
if [[ -f $root/applied ]]; then
	say "an earlier run stopped with $(cat "$root/applied") applied: the copy is made again"
	rm -rf "$proj/build/src/patched.stamp"
	find "$proj" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
	rm -f "$root/applied"
fi
# The repository's files, copied when they differ, so that make and
# kbuild see unchanged files as unchanged; files gone from the
# repository go from the copy too.
sync_project() {
	local f
	(cd "$top" && git ls-files -co --exclude-standard) | grep -v '^build/' | sort > "$root/files"
	while read -r f; do
		[[ -f $top/$f ]] || continue
		cmp -s "$top/$f" "$proj/$f" 2>/dev/null && continue
		mkdir -p "$proj/$(dirname "$f")"
		cp -p "$top/$f" "$proj/$f"
	done < "$root/files"
	(cd "$proj" && find . -path ./build -prune -o -type f -print) | sed 's#^\./##' | sort |
		comm -23 - "$root/files" | while read -r f; do rm -f "$proj/$f"; done
}
mkdir -p "$proj"
sync_project
# The pristine tree: hard links to the one of BUILD_DIR (patch(1) writes
# a new file, so a diff never changes the original); the packages are
# there already.
mkdir -p "$mbuild/src"
if [[ ! -f $mbuild/src/pristine.stamp ]]; then
	rm -rf "$mbuild/src/pristine"
	mkdir -p "$mbuild/src/pristine"
	(cd "$build/src/pristine" &&
		find . -mindepth 1 -maxdepth 1 ! -name 'obj-*' -exec cp -al {} "$mbuild/src/pristine/" \;)
	touch "$mbuild/src/pristine.stamp"
fi
touch "$mbuild/deps.stamp"

# mmake TARGET...: make in the copy; its progress lines (one a minute
# for a kernel build) as TAP comments, all of it in the log
mmake() {
	make -s -C "$proj" "$@" 2>&1 | tee "$logs/make.log" | grep --line-buffered '^\[' | sed -u 's/^/#   /'
	[[ ${PIPESTATUS[0]} == 0 ]] || { tail -n 20 "$logs/make.log" | sed 's/^/#   /'; return 1; }
}
# kernel_targets VARIANT...: the make targets that build and publish them
kernel_targets() {
	local v
	for v in "$@"; do
		echo "$mbuild/out/$v/modules.cpio.gz"
	done
}

# --- rows ---------------------------------------------------------------
declare -A row_build row_suite row_only row_fails
variants=()
problems=()
for row in "${rows[@]}"; do
	diff=$here/$row.diff
	if [[ ! -f $diff ]]; then
		problems+=("$row: no $diff")
		continue
	fi
	row_build[$row]=$(mutation_header "$diff" build)
	row_suite[$row]=$(mutation_header "$diff" suite)
	row_only[$row]=$(mutation_header "$diff" only)
	row_fails[$row]=$(mutation_header "$diff" fails)
	[[ $(mutation_header "$diff" row) == "$row" && -n ${row_build[$row]} && -n ${row_suite[$row]} &&
		-n ${row_fails[$row]} ]] || problems+=("$row: the header needs row: $row, build:, suite: and fails:")
	for v in ${row_build[$row]}; do
		[[ $v == none || " ${variants[*]} " == *" $v "* ]] || variants+=("$v")
	done
done

# run_suite ROW WHERE: run ROW's suite in the copy; its TAP is then in
# $logs/ROW.WHERE.tap
run_suite() {
	local suite=${row_suite[$1]} only=${row_only[$1]}
	env ${only:+"VM_ONLY=$only"} "$proj/tests/run-all.sh" "$mbuild" "$suite" 2>&1 | tee "$logs/$1.$2.log" | sed -u 's/^/#   /'
	cp "$mbuild/test-results/$suite.tap" "$logs/$1.$2.tap" 2>/dev/null || : > "$logs/$1.$2.tap"
}
# verdicts ROW WHERE WANT: each "fails:" test of ROW is WANT (ok or not ok)
# in its run WHERE, and there is one at least; prints what is not
verdicts() {
	local want=$3 line
	while IFS= read -r line; do
		awk -v want="$want" -v text="$line" '
			index($0, text) && /^(not )?ok [0-9]+ / {
				seen++
				got = /^not ok/ ? "not ok" : "ok"
				if (got != want) bad = bad "  " $0 "\n"
			}
			END {
				if (!seen) print "  no result names \"" text "\""
				printf "%s", bad
			}
		' "$logs/$1.$2.tap"
	done <<< "${row_fails[$1]}"
}

plan=$(( ${#rows[@]} * 2 ))
tap_plan "$plan"
if [[ ${#problems[@]} -gt 0 ]]; then
	for p in "${problems[@]}"; do
		echo "# $p"
	done
fi

say "the final tree, copied to $proj: building ${variants[*]:-no kernel} and the initramfs (a first run takes about 25 min; later runs rebuild what changed)"
built=yes
if ! mmake $(kernel_targets "${variants[@]}") "$mbuild/initramfs/base.cpio.gz" tools "$mbuild/tools/test_modload"; then
	built=no
fi

# --- baselines: each row's tests pass on the final tree --------------------
declare -A baseline_of
for row in "${rows[@]}"; do
	if [[ -z ${row_suite[$row]-} ]]; then
		tap 1 "row $row: baseline (no usable diff)"
		continue
	fi
	if [[ $built == no ]]; then
		tap 1 "row $row: baseline, the final tree did not build"
		continue
	fi
	# one run per suite and VM_ONLY
	key="${row_suite[$row]} ${row_only[$row]}"
	if [[ -n ${baseline_of[$key]-} ]]; then
		cp "$logs/${baseline_of[$key]}.final.tap" "$logs/$row.final.tap"
	else
		say "baseline: suite ${row_suite[$row]}${row_only[$row]:+ (VM_ONLY=${row_only[$row]})}"
		run_suite "$row" final
		baseline_of[$key]=$row
	fi
	wrong=$(verdicts "$row" final ok)
	[[ -z $wrong ]]
	tap $? "row $row: its tests pass on the final tree (suite ${row_suite[$row]})"
	[[ -z $wrong ]] || printf '%s' "$wrong" | sed 's/^/# /'
done

# --- each row's diff --------------------------------------------------------
# apply_part DIFF TREE DIR [-R]: apply (or revert) the TREE part of DIFF
# in DIR, exactly; a dry run first, so that a part that does not apply
# changes nothing
apply_part() {
	local p=$root/part.$2
	mutation_part "$1" "$2" > "$p"
	[[ -s $p ]] || return 0
	# shellcheck disable=SC2086 # ${4-} is -R or nothing
	patch -s -p2 -F0 -N ${4-} --dry-run -d "$3" < "$p" > "$root/patch.log" 2>&1 &&
		patch -s -p2 -F0 -N ${4-} -d "$3" < "$p" >> "$root/patch.log" 2>&1
}
# touched DIFF: the files DIFF changes, as paths in the copy
touched() {
	sed -n 's#^+++ b/linux/#'"$mbuild/src/patched/"'#p; s#^+++ b/project/#'"$proj/"'#p' "$1" | sed 's/\t.*//'
}
for row in "${rows[@]}"; do
	diff=$here/$row.diff
	name="row $row: tests/mutations/$row.diff applies and the row's tests fail"
	[[ -n ${row_suite[$row]-} ]] || { tap 1 "$name (no usable diff)"; continue; }
	kernels=${row_build[$row]}
	[[ $kernels == none ]] && kernels=
	# The kernels this row does not rebuild, as the final tree makes them
	# (an earlier row's mutant was removed after its revert).
	others=()
	for v in "${variants[@]}"; do
		[[ " $kernels " == *" $v "* ]] || others+=("$v")
	done
	if [[ ${#others[@]} -gt 0 ]] && ! mmake $(kernel_targets "${others[@]}"); then
		tap 1 "$name (the final tree did not build)"
		continue
	fi
	# the files as they are, to check the revert and, for rows that build
	# no kernel, to give them their mtimes back
	before=$(touched "$diff" | while read -r f; do
		echo "$(sha256sum < "$f" | cut -c1-64) $(stat -c %Y "$f") $f"; done)
	started=$(date +%s)
	echo "$row" > "$root/applied"
	if ! apply_part "$diff" linux "$mbuild/src/patched" || ! apply_part "$diff" project "$proj"; then
		tap 1 "$name (it does not apply)"
		sed 's/^/# /' "$root/patch.log"
		continue	# the marker stays: the copy is made again next run
	fi
	ok=yes why= wrong=
	if [[ -n $kernels ]]; then
		say "row $row: rebuilding $kernels with the diff applied (about 2 min each)"
		for v in $kernels; do rm -rf "$mbuild/out/$v"; done
	fi
	# shellcheck disable=SC2086 # variant names have no spaces
	if ! mmake $(kernel_targets $kernels) "$mbuild/initramfs/base.cpio.gz"; then
		ok=no why="the mutant did not build"
	else
		say "row $row: suite ${row_suite[$row]}"
		run_suite "$row" mutant
		wrong=$(verdicts "$row" mutant "not ok")
		[[ -z $wrong ]] || { ok=no; why="not every test of the row failed"; }
	fi
	if ! apply_part "$diff" project "$proj" -R || ! apply_part "$diff" linux "$mbuild/src/patched" -R; then
		tap 1 "$name (the revert failed; the copy is made again next run)"
		sed 's/^/# /' "$root/patch.log"
		continue
	fi
	while read -r sum mtime f; do
		[[ -n $f ]] || continue
		[[ $(sha256sum < "$f" | cut -c1-64) == "$sum" ]] || { ok=no; why="$f differs after the revert"; }
		# Without a kernel built from the diff the old mtime is right;
		# with one, the new mtime makes kbuild rebuild what it made.
		[[ -n $kernels ]] || touch -d "@$mtime" "$f"
	done <<< "$before"
	# what was built from the diff goes
	for v in "${variants[@]}"; do
		[[ -d $mbuild/out/$v && $(stat -c %Y "$mbuild/out/$v") -lt $started ]] || rm -rf "$mbuild/out/$v"
	done
	base=$mbuild/initramfs/base.cpio.gz
	[[ -f $base && $(stat -c %Y "$base") -lt $started ]] || rm -f "$base"
	rm -f "$root/applied"
	[[ $ok == yes ]]
	tap $? "$name"
	if [[ $ok == no ]]; then
		echo "# $why; suite output: $logs/$row.mutant.log"
		[[ -z $wrong ]] || printf '%s' "$wrong" | sed 's/^/# /'
	fi
done
