#!/bin/bash
# Usage: run-unit-tests.sh TEST_PROGRAM...
# Run the cmocka test programs and merge their TAP into one stream whose
# plan, printed first, is the sum of the plans ("1..N") the programs
# declared.  Results are numbered in order.  A program that declares no
# plan counts as one test and fails; one that gives fewer results than
# it planned (it crashed half way) gets a "not ok" for each result
# missing, and one that gives more fails once more: the merged stream
# always has exactly the plan's results.  Exits non-zero if a program
# failed, exited non-zero or did not give its plan's results.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
planned=0
i=0
for prog in "$@"; do
	i=$((i + 1))
	CMOCKA_MESSAGE_OUTPUT=TAP "$prog" > "$work/$i.out" 2>&1
	echo $? > "$work/$i.rc"
	plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$work/$i.out" | head -n 1)
	echo "${plan:-}" > "$work/$i.plan"
	planned=$((planned + ${plan:-1}))
	# one more line of failure when a program gives more than it planned
	results=$(grep -cE '^(not )?ok ' "$work/$i.out")
	echo "$results" > "$work/$i.results"
	[[ -z $plan || $results -le $plan ]] || planned=$((planned + 1))
done
echo "1..$planned"
n=0
status=0
i=0
for prog in "$@"; do
	i=$((i + 1))
	name=$(basename "$prog")
	plan=$(cat "$work/$i.plan")
	rc=$(cat "$work/$i.rc")
	results=0
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			[[ -n $plan && $results -ge $plan ]] && continue
			n=$((n + 1)); results=$((results + 1))
			echo "${line%% [0-9]*} $n - $name: ${line#* - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < "$work/$i.out"
	if [[ -z $plan ]]; then
		n=$((n + 1)); status=1
		echo "not ok $n - $name declared no plan (status $rc)"
		continue
	fi
	while [[ $results -lt $plan ]]; do
		n=$((n + 1)); results=$((results + 1)); status=1
		echo "not ok $n - $name: result $results of $plan missing (status $rc)"
	done
	extra=$(($(cat "$work/$i.results") - plan))
	if [[ $extra -gt 0 ]]; then
		n=$((n + 1)); status=1
		echo "not ok $n - $name gave $extra results more than its plan of $plan"
	fi
	[[ $rc == 0 ]] || status=1
	grep -q '^not ok' "$work/$i.out" && status=1
done
exit $status
