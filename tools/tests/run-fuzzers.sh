#!/bin/bash
# Usage: run-fuzzers.sh SECONDS|replay FUZZER:MAX_LEN...
# Run each libFuzzer target from its seed corpus,
# tools/fuzz/corpus/<target>/ (fuzz-<target> or selftest-<target> is the
# program), with inputs of at most MAX_LEN bytes (-max_len; a seed
# longer than that would be cut, so it is an error), and print TAP: the
# plan, then one result per program.
#   SECONDS  fuzz for that long (-max_total_time), growing a corpus in
#            <fuzzer's dir>/corpus/<target>/ (make fuzz, make check-full);
#   replay   run every input of the committed corpus once (-runs=0), in
#            seconds (make check).
# A crash, a sanitizer report (every one is fatal: the targets are built
# with -fno-sanitize-recover=all, and halt_on_error is set here), a leak or
# a timeout is "not ok" for a fuzz-* target, and the input that caused it
# is kept in <fuzzer's dir>/artifacts/<target>/ (named in the output).
# A selftest-* target has a planted bug that its corpus reaches: its run
# must fail with a sanitizer report and leave an artifact, or the results
# of the others could not be trusted.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1
shift
[[ $mode == replay || $mode =~ ^[0-9]+$ ]] ||
	{ echo "usage: run-fuzzers.sh SECONDS|replay FUZZER:MAX_LEN..." >&2; exit 2; }
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
status=0
echo "1..$#"
n=0
for arg in "$@"; do
	n=$((n + 1))
	fuzzer=${arg%:*}
	max_len=${arg##*:}
	name=$(basename "$fuzzer")
	target=${name#fuzz-}
	selftest=
	[[ $name == selftest-* ]] && selftest=yes
	dir=$(cd "$(dirname "$fuzzer")" && pwd)
	seeds=$here/../fuzz/corpus/$target
	grown=$dir/corpus/$target
	artifacts=$dir/artifacts/$target
	log=$dir/$name.log
	mkdir -p "$grown" "$artifacts"
	if [[ ! -x $fuzzer || ! -d $seeds || ! $max_len =~ ^[0-9]+$ ]]; then
		echo "not ok $n - $name: program, seed corpus $seeds or MAX_LEN missing"
		status=1
		continue
	fi
	longest=$(find "$seeds" -type f -size +"$max_len"c | head -n 1)
	if [[ -n $longest ]]; then
		echo "not ok $n - $name: seed $longest is longer than -max_len=$max_len"
		status=1
		continue
	fi
	if [[ $mode == replay ]]; then
		run=(-runs=0 "$seeds")
	else
		run=(-max_total_time="$mode" "$grown" "$seeds")
	fi
	run=(-max_len="$max_len" "${run[@]}")
	"$fuzzer" -print_final_stats=1 -artifact_prefix="$artifacts/" "${run[@]}" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	what="${runs:-?} inputs of at most $max_len bytes in $mode s"
	[[ $mode == replay ]] && what="the $(ls "$seeds" | wc -l) inputs of the committed corpus replayed (-max_len=$max_len)"
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	# artifacts this run wrote (libFuzzer names each; those of earlier
	# runs are kept, and one input that fails again rewrites its file)
	crashes=$(grep -c 'Test unit written to ' "$log")
	reported=
	grep -qE '^==[0-9]+==ERROR|runtime error:' "$log" && reported=yes
	if [[ -n $selftest ]]; then
		if [[ $rc -ne 0 && $crashes -gt 0 && -n $reported ]]; then
			echo "ok $n - $name: the planted bug stops the run (exit status $rc, sanitizer report, artifact kept)"
		else
			echo "not ok $n - $name: the planted bug did not fail the run (exit status $rc, artifacts $crashes, report ${reported:-none})"
			status=1
		fi
		grep -m 1 'runtime error:' "$log" | sed 's/^/# /'
		continue
	fi
	if [[ $rc -eq 0 && $crashes -eq 0 && -z $reported && -n $runs ]]; then
		echo "ok $n - $name: $what, no crash, no sanitizer report"
	else
		echo "not ok $n - $name: exit status $rc"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)|runtime error' "$log" | head -n 8 | sed 's/^/# /'
		ls -t "$artifacts" | head -n 3 | sed "s|^|# kept: $artifacts/|"
		status=1
	fi
	echo "# $name: ${speed:-?} executions/s, ${runs:-?} in all, corpus $(ls "$grown" | wc -l) grown + $(ls "$seeds" | wc -l) seeds"
done
exit $status
