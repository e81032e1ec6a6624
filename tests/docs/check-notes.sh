#!/bin/bash
# Usage: check-notes.sh [NOTES [RESULTS]]
# (defaults: NOTES.md of the repository, tests/bench/results)
# 1. NOTES.md must show the verdict table the VM tests actually check: the
# "## Verdict table" section, from its first table row on, must hold
# exactly what tests/vm/verdict-table.sh prints (the modes table, the
# verdict table and what follows them): same lines, same order, nothing
# added, nothing missing.  A difference is shown as a diff in TAP
# comments.
# 2. Every committed benchmark result (RESULTS/*.md, make bench-record)
# starts with its provenance block (tests/bench/provenance.sh): commit,
# date, machine, gcc and command.
# 3. Every markdown table of NOTES' bench section ("### What the allowlist
# costs (`make bench`)") stands, all its lines in a row, in one of those
# files: a figure NOTES shows comes from a recorded run.
# 4. That section names the commit (its first 7 digits) and the date of
# the recorded results, or, with none recorded, says "none recorded yet".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
notes=${1:-$top/NOTES.md}
results=${2:-$top/tests/bench/results}
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

verdict_table() {
	local desc="NOTES.md shows exactly the tables of tests/vm/modes.tsv and verdicts.tsv" rc
	if ! "$top/tests/vm/verdict-table.sh" > "$work/generated"; then
		tap 1 "$desc"
		echo "# tests/vm/verdict-table.sh failed"
		return
	fi
	if ! shown "$notes" "$(wc -l < "$work/generated")" > "$work/shown" || [[ ! -s $work/shown ]]; then
		tap 1 "$desc"
		echo "# $notes has no table in a \"## Verdict table\" section"
		return
	fi
	diff -u --label generated --label "$notes" "$work/generated" "$work/shown" > "$work/diff"
	rc=$?
	tap $rc "$desc"
	if [[ $rc != 0 ]]; then
		echo "# run tests/vm/verdict-table.sh and paste its output into the section:"
		sed 's/^/# /' "$work/diff"
	fi
}

# bench_section NOTES: the lines of its bench section, without its heading
bench_section() {
	awk '/^##+ / { in_section = ($0 == "### What the allowlist costs (`make bench`)"); found += in_section; next }
		in_section { print }
		END { exit !found }' "$1"
}

# provenance_problem FILE: what is wrong with FILE's provenance block,
# nothing when it is right
provenance_problem() {
	awk 'function bad(what) { print what; done = 1; exit }
		NR == 1 && $0 != "Provenance of this file:" { bad("no \"Provenance of this file:\" line first") }
		NR == 2 && !(/^- commit: [0-9a-f]+$/ && length($0) == 50) {
			bad("line 2 is no \"- commit: \" of a whole commit (no uncommitted changes)") }
		NR == 3 && !/^- date: [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9:]+ UTC/ { bad("line 3 is no \"- date: \" in UTC") }
		NR == 4 && !/^- machine: .+, [0-9]+ cores, / { bad("line 4 is no \"- machine: \" with the cores") }
		NR == 5 && !/^- gcc: ./ { bad("line 5 is no \"- gcc: \"") }
		NR == 6 && !/^- command: ./ { bad("line 6 is no \"- command: \"") }
		NR == 6 { exit }
		END { if (!done && NR < 6) print "fewer than six lines" }' "$1"
}

results_provenance() {
	local file problem rc=0
	for file in "$results"/*.md; do
		[[ -e $file ]] || continue
		problem=$(provenance_problem "$file")
		[[ -z $problem ]] && continue
		echo "# $file: $problem" >> "$work/provenance"
		rc=1
	done
	tap $rc "every result in ${results#"$top/"} starts with its provenance block"
	if [[ -f $work/provenance ]]; then cat "$work/provenance"; fi
}

# found_in_results TABLE_FILE: the table's lines stand in a row in one of
# the results
found_in_results() {
	local file n
	for file in "$results"/*.md; do
		[[ -e $file ]] || continue
		while IFS=: read -r n _; do
			sed -n "$n,$((n + $(wc -l < "$1") - 1))p" "$file" | cmp -s - "$1" && return 0
		done < <(grep -Fxn -- "$(head -n 1 "$1")" "$file")
	done
	return 1
}

bench_tables() {
	local desc="every table of NOTES' bench section stands in a recorded result (${results#"$top/"})" table rc=0
	if ! bench_section "$notes" > "$work/section"; then
		tap 1 "$desc"
		echo "# $notes has no \"### What the allowlist costs (\`make bench\`)\" section"
		return
	fi
	# one file per table: its consecutive "|" lines
	awk -v dir="$work" '/^\|/ { if (!in_table) n++; in_table = 1; print > (dir "/table." n); next } { in_table = 0 }' \
		"$work/section"
	for table in "$work"/table.*; do
		[[ -e $table ]] || continue
		found_in_results "$table" && continue
		echo "# not in any result: the table starting \"$(head -n 1 "$table")\"" >> "$work/tables"
		rc=1
	done
	tap $rc "$desc"
	if [[ -f $work/tables ]]; then cat "$work/tables"; fi
}

bench_named() {
	local desc="NOTES' bench section names the commit and date of the recorded results" rc=0 commit day
	if ! bench_section "$notes" > "$work/section"; then
		tap 1 "$desc"
		return
	fi
	# the section as one line, so that a phrase may wrap
	tr -s '\n ' '  ' < "$work/section" > "$work/joined"
	if ! compgen -G "$results/*.md" > /dev/null; then
		grep -q "none recorded yet" "$work/joined" || { rc=1; echo "# no results recorded, and the section does not say \"none recorded yet\"" >> "$work/named"; }
	else
		# shellcheck disable=SC2013 # one word a line
		for commit in $(sed -n 's/^- commit: \([0-9a-f]\{7\}\).*/\1/p' "$results"/*.md | sort -u); do
			grep -q "$commit" "$work/joined" || { rc=1; echo "# the section does not name commit $commit" >> "$work/named"; }
		done
		# shellcheck disable=SC2013 # one word a line
		for day in $(sed -n 's/^- date: \([0-9-]\{10\}\) .*/\1/p' "$results"/*.md | sort -u); do
			grep -q "$day" "$work/joined" || { rc=1; echo "# the section does not name the date $day" >> "$work/named"; }
		done
	fi
	tap $rc "$desc"
	if [[ -f $work/named ]]; then cat "$work/named"; fi
}

tap_plan 4
verdict_table
results_provenance
bench_tables
bench_named
