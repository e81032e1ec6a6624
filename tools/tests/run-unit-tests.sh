#!/bin/bash
# Usage: run-unit-tests.sh TEST_PROGRAM...
# Run the cmocka test programs and merge their TAP into one stream with a
# single plan, numbering the results in order; exits non-zero if a program
# failed or printed no result.
set -uo pipefail
n=0
status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for prog in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP "$prog" > "$out" 2>&1
	rc=$?
	results=0
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1)); results=$((results + 1))
			state=${line%% [0-9]*}
			echo "$state $n - $(basename "$prog"): ${line#* - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < "$out"
	if [[ $rc -ne 0 || $results -eq 0 ]]; then
		status=1
		[[ $results -gt 0 ]] || { n=$((n + 1)); echo "not ok $n - $(basename "$prog") gave no result (status $rc)"; }
	fi
done
echo "1..$n"
exit $status
