#!/bin/bash
# Usage: check-notes.sh [NOTES]   (default: NOTES.md of the repository)
# NOTES.md must show the verdict table the VM tests actually check: the
# "## Verdict table" section, from its first table row on, must hold
# exactly what tests/vm/verdict-table.sh prints (the modes table, the
# verdict table and what follows them): same lines, same order, nothing
# added, nothing missing.  A difference is shown as a diff in TAP
# comments.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
notes=${1:-$top/NOTES.md}
. "$top/tests/lib/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shown NOTES COUNT: the lines of its "## Verdict table" section from the
# first table row on: COUNT lines (as many as the generated text has), and
# then any table rows that go on right after them, so that a row added at
# the end of a table is a difference too.
shown() {
	awk -v count="$2" '
		/^## / { in_section = ($0 == "## Verdict table"); next }
		!in_section || done { next }
		!started && /^\|/ { started = 1 }
		!started { next }
		n < count || /^\|/ { print; n++; next }
		{ done = 1 }
	' "$1"
}

tap_plan 1
desc="NOTES.md shows exactly the tables of tests/vm/modes.tsv and verdicts.tsv"
if ! "$top/tests/vm/verdict-table.sh" > "$work/generated"; then
	tap 1 "$desc"
	echo "# tests/vm/verdict-table.sh failed"
	exit 0
fi
if ! shown "$notes" "$(wc -l < "$work/generated")" > "$work/shown" || [[ ! -s $work/shown ]]; then
	tap 1 "$desc"
	echo "# $notes has no table in a \"## Verdict table\" section"
	exit 0
fi
diff -u --label generated --label "$notes" "$work/generated" "$work/shown" > "$work/diff"
rc=$?
tap $rc "$desc"
if [[ $rc != 0 ]]; then
	echo "# run tests/vm/verdict-table.sh and paste its output into the section:"
	sed 's/^/# /' "$work/diff"
fi
