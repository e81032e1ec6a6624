#!/bin/bash
# Usage: check-rows.sh BUILD_DIR
# The mutation checks cover NOTES.md's security review, in TAP (seconds;
# make check runs it, make check-mutations runs the diffs themselves):
#  - every row of the table is in exactly one place: tests/mutations/ROW.diff,
#    or tests/mutations/untested.tsv with the reason it has no diff, and
#    neither names a row the table does not have;
#  - each diff's header says row, build, suite and fails, and the diff
#    applies exactly (patch --dry-run, no fuzz) to the tree as it is:
#    BUILD_DIR/src/patched for linux/ paths, this repository for project/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
. "$top/tests/lib/tap.sh"
. "$top/tests/lib/mutation-diff.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the first cells of the table rows of the "## Security review" section
awk '/^## Security review/ { in_it = 1; next } /^## / { in_it = 0 }
	in_it && /^\| [0-9]/ { split($0, cell, "|"); gsub(/ /, "", cell[2]); print cell[2] }' \
	"$top/NOTES.md" > "$work/rows"
grep -v '^#' "$here/untested.tsv" | cut -f1 > "$work/untested"
for diff in "$here"/*.diff; do
	basename "$diff" .diff
done > "$work/diffs"

tap_plan $(($(wc -l < "$work/rows") + 1))
dups=$(sort "$work/rows" | uniq -d | tr '\n' ' ')
orphans=$(sort -u "$work/untested" "$work/diffs" | comm -23 - <(sort -u "$work/rows") | tr '\n' ' ')
[[ -s $work/rows && -z $dups && -z $orphans ]]
tap $? "the security review table has rows with distinct ids, and every diff and untested.tsv entry names one of them"
[[ -z $dups ]] || echo "# ids used twice: $dups"
[[ -z $orphans ]] || echo "# no such row in NOTES.md: $orphans"

applies() {	# applies DIFF TREE DIR: its TREE part applies exactly in DIR
	mutation_part "$1" "$2" > "$work/part"
	[[ -s $work/part ]] || return 0
	patch -s -p2 -F0 -N --dry-run -d "$3" < "$work/part" > "$work/patch.log" 2>&1
}

while read -r row; do
	diff=$here/$row.diff
	in_diffs=$(grep -cx "$row" "$work/diffs")
	in_untested=$(grep -cx "$row" "$work/untested")
	if [[ $in_untested == 1 && $in_diffs == 0 ]]; then
		tap 0 "row $row: no diff, $(grep "^$row	" "$here/untested.tsv" | cut -f2) (untested.tsv)"
		continue
	fi
	desc="row $row: tests/mutations/$row.diff names its build, suite and tests and applies to the tree as it is"
	if [[ $in_diffs != 1 || $in_untested != 0 ]]; then
		tap 1 "$desc"
		echo "# row $row: $in_diffs diff(s), $in_untested untested.tsv line(s); one of the two is needed"
		continue
	fi
	problem=
	[[ $(mutation_header "$diff" row) == "$row" && -n $(mutation_header "$diff" build) && -n $(mutation_header "$diff" suite) &&
		-n $(mutation_header "$diff" fails) ]] || problem="its header lacks row: $row, build:, suite: or fails:"
	grep -qE "^	$(mutation_header "$diff" suite)\) echo " "$top/tests/run-all.sh" ||
		problem="${problem:+$problem; }no suite \"$(mutation_header "$diff" suite)\" in tests/run-all.sh"
	if [[ ! -d $build/src/patched ]]; then
		problem="${problem:+$problem; }$build/src/patched is not there (make check builds it)"
	elif ! applies "$diff" linux "$build/src/patched" || ! applies "$diff" project "$top"; then
		problem="${problem:+$problem; }it does not apply: $(head -n 3 "$work/patch.log" | tr '\n' ' ')"
	fi
	[[ -z $problem ]]
	tap $? "$desc"
	[[ -z $problem ]] || echo "# $problem"
done < "$work/rows"
