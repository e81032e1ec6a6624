#!/bin/bash
# Usage: run-fuzzers.sh SECONDS FUZZER...
# Run each libFuzzer target for SECONDS (-max_total_time) from its seed
# corpus, tools/fuzz/corpus/<target>/ (fuzz-<target> is the program), and
# print TAP: the plan, then one result per fuzzer with its executions per
# second as a comment.  A crash, leak or timeout is "not ok" and the input
# that caused it is kept in <fuzzer's dir>/artifacts/<target>/ (named in
# the output); the corpus the run grew stays in <fuzzer's dir>/corpus/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=$1
shift
status=0
echo "1..$#"
n=0
for fuzzer in "$@"; do
	n=$((n + 1))
	name=$(basename "$fuzzer")
	target=${name#fuzz-}
	dir=$(cd "$(dirname "$fuzzer")" && pwd)
	seeds=$here/../fuzz/corpus/$target
	grown=$dir/corpus/$target
	artifacts=$dir/artifacts/$target
	log=$dir/$name.log
	mkdir -p "$grown" "$artifacts"
	if [[ ! -x $fuzzer || ! -d $seeds ]]; then
		echo "not ok $n - $name: program or seed corpus $seeds missing"
		status=1
		continue
	fi
	before=$(ls "$artifacts" | wc -l)
	"$fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$grown" "$seeds" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	crashes=$(ls "$artifacts" | wc -l)
	if [[ $rc -eq 0 && $crashes -eq $before && -n $runs ]]; then
		echo "ok $n - $name: ${runs} inputs in ${seconds} s, no crash"
	else
		echo "not ok $n - $name: exit status $rc"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)|runtime error' "$log" | head -n 8 | sed 's/^/# /'
		ls -t "$artifacts" | head -n 3 | sed "s|^|# kept: $artifacts/|"
		status=1
	fi
	echo "# $name: ${speed:-?} executions/s, ${runs:-?} in all, corpus $(ls "$grown" | wc -l) grown + $(ls "$seeds" | wc -l) seeds"
done
exit $status
