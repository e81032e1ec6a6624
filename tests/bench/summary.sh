#!/bin/bash
# Usage: summary.sh BENCH_DIR [HASH_COUNT_TAP KERNEL]
# The figures a kernel maintainer asks for before trading module signing
# for the allowlist, read from the tables "make bench" wrote to BENCH_DIR
# (build-step.md, build-cost.md, load-cost.md, list-lookup.md), each next
# to its goal and judged by the goal's noise rule, both from
# tests/bench/goals.tsv: met, missed or inconclusive.  One short markdown
# table for a mailing-list reply.
# Where the figures come from is taken from the inputs' provenance blocks
# (tests/bench/provenance.sh): a table without one, or tables of different
# commits or machines, are an error, never mixed.
# HASH_COUNT_TAP, the result of the hash-count suite (make check-debug),
# adds how often a load hashes the module, but only when it names the same
# commit on a "# commit" line and is newer than KERNEL, the kernel it
# booted; otherwise the row says the figure was not measured for this run.
# A figure missing from its table is an error, never a blank.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$1" && pwd)
hash_count_tap=${2:-}
hash_count_kernel=${3:-}
goals=$here/goals.tsv
die() { echo "summary.sh: $*" >&2; exit 1; }

# cell FILE ROW COLUMN: the COLUMN-th cell (from 1) of the table row of
# FILE whose first cell starts with ROW
cell() {
	local value
	value=$(awk -F'|' -v row="$2" -v col="$(($3 + 1))" '
		{ first = $2; gsub(/^ +| +$/, "", first) }
		index(first, row) == 1 { v = $col; gsub(/^ +| +$/, "", v); print v; exit }
	' "$bench/$1")
	[[ -n $value ]] || die "$1: no row \"$2\" with a column $3"
	echo "$value"
}
# provenance FILE KEY: the value of "- KEY: " in FILE's provenance block
provenance() {
	local value
	value=$(awk -v key="- $2: " '
		NR == 1 && $0 != "Provenance of this file:" { exit }
		/^$/ { exit }
		index($0, key) == 1 { print substr($0, length(key) + 1); exit }
	' "$bench/$1")
	[[ -n $value ]] || die "$1: no provenance block with a $2 line (tests/bench/provenance.sh)"
	echo "$value"
}
# goal ID FIELD: a field of goal ID in goals.tsv (2 what, 3 goal, 4 noise)
goal() {
	local value
	value=$(awk -F'\t' -v id="$1" -v f="$2" '$1 == id { print $f; exit }' "$goals")
	[[ -n $value ]] || die "$goals: no goal $1"
	echo "$value"
}
# verdict ID LOW HIGH: met, missed or inconclusive for the interval from
# LOW to HIGH against goal ID ("-" for no interval: inconclusive); a goal
# whose noise kind is "single" is judged on one figure, and says so
verdict() {
	local op limit result note=
	read -r op limit _ <<< "$(goal "$1" 3)"
	if [[ $2 == - || $3 == - ]]; then
		echo "inconclusive (no interval)"
		return
	fi
	case $op in
	"<=") result=$(echo "if ($3 <= $limit) 1 else if ($2 > $limit) 2 else 0" | bc -l) ;;
	">=") result=$(echo "if ($2 >= $limit) 1 else if ($3 < $limit) 2 else 0" | bc -l) ;;
	*) die "$goals: goal $1: no \"<=\" or \">=\" in \"$(goal "$1" 3)\"" ;;
	esac
	[[ $(goal "$1" 4) == single ]] && note=" (one figure, no interval)"
	case $result in
	1) echo "met$note" ;;
	2) echo "missed$note" ;;
	*) echo "inconclusive" ;;
	esac
}
# row ID MEASURED LOW HIGH: a summary line for goal ID
row() {
	local shown
	shown=$(goal "$1" 3 | sed 's/^<=/≤/; s/^>=/≥/')
	echo "| $(goal "$1" 2) | $2 | $shown | $(verdict "$1" "$3" "$4") |"
}

inputs=(build-step build-cost load-cost list-lookup)
for table in "${inputs[@]}"; do
	[[ -f $bench/$table.md ]] || die "$bench/$table.md is missing (make bench)"
done
commit=$(provenance build-step.md commit)
machine=$(provenance build-step.md machine)
dates=()
for table in "${inputs[@]}"; do
	table_commit=$(provenance "$table.md" commit)
	table_machine=$(provenance "$table.md" machine)
	table_date=$(provenance "$table.md" date)
	[[ $table_commit == "$commit" ]] ||
		die "$table.md is of commit $table_commit, build-step.md of $commit: run make bench again"
	[[ $table_machine == "$machine" ]] ||
		die "$table.md was measured on $table_machine, build-step.md on $machine"
	dates+=("$(cut -d' ' -f1,2 <<< "$table_date")")
done
first_date=$(printf '%s\n' "${dates[@]}" | sort | head -n 1)
last_date=$(printf '%s\n' "${dates[@]}" | sort | tail -n 1)

modules=$(sed -n 's/^Modules: \([0-9]*\),.*/\1/p' "$bench/build-step.md")
read -r one two < <(sed -n 's/^List bytes per module at SHA-256: \([0-9]*\) .* \([0-9]*\) with two.*/\1 \2/p' \
	"$bench/build-step.md")
[[ -n $modules && -n $one && -n $two ]] || die "build-step.md: no module count or list sizes"

step_limit=$(cell build-step.md "allowlist step, -f built (" 3)
step_range=$(cell build-step.md "allowlist step, -f built (" 4)
both_limit=$(cell build-step.md "allowlist step, -f built,stripped" 3)
both_range=$(cell build-step.md "allowlist step, -f built,stripped" 4)
sign_limit=$(cell build-step.md "sign-file" 3)
[[ $step_range == *-* && $both_range == *-* ]] || die "build-step.md: no range of runs for the allowlist steps"
full=$(cell build-cost.md "full" 4)
full_interval=$(cell build-cost.md "full" 5)
full_rounds=$(cell build-cost.md "full" 6)
full_cpu=$(cell build-cost.md "full" 7)
incremental=$(cell build-cost.md "incremental" 4)
with_incr=$(cell build-cost.md "incremental" 2)
without_incr=$(cell build-cost.md "incremental" 3)
added=$(cell build-cost.md "rebuilt alone" 4)
compile_added=$(cell build-cost.md "compile phase of the full builds" 4)
compile_rounds=$(cell build-cost.md "compile phase of the full builds" 5)
estimate=$(cell build-cost.md "compile phase included" 5)
estimate_range=$(cell build-cost.md "compile phase included" 6)
same_config=$(sed -n 's/.* were up to \(.*\) apart without the allowlist and \(.*\) with it\. .*/\1 and \2/p' \
	"$bench/build-cost.md")
[[ -n $same_config ]] || die "build-cost.md: no spread of the full builds of one config"
validate=$(cell list-lookup.md "validate" 2)
lookup100k=$(cell list-lookup.md "lookup in 100000" 3)
allow_first=$(cell load-cost.md "allowlist (module" 3)
sig_first=$(cell load-cost.md "signature (module" 3)
ima_allow_first=$(cell load-cost.md "allowlist in IMA" 3)
ima_sig_first=$(cell load-cost.md "signature in IMA" 3)
validate_us=${validate% µs}

# the interval of the whole-build ratio: "LOW-HIGH", or "- (one round)"
full_low=- full_high=-
if [[ $full_interval =~ ^([0-9.]+)-([0-9.]+)$ ]]; then
	full_low=${BASH_REMATCH[1]} full_high=${BASH_REMATCH[2]}
fi
step_low=${step_range%-*} step_high=${step_range#*-}
both_low=${both_range%-*} both_high=${both_range#*-}
# signing over the step (both as ratios to the hashing limit), and the
# same at the step's slowest and fastest runs
sign=$(echo "$sign_limit / $step_limit" | bc -l)
sign_low=$(echo "$sign_limit / $step_high" | bc -l)
sign_high=$(echo "$sign_limit / $step_low" | bc -l)
first=$(echo "$allow_first / $sig_first" | bc -l)
first_ima=$(echo "$ima_allow_first / $ima_sig_first" | bc -l)

echo "Module allowlist against module signing: make bench at commit $commit, measured $first_date to $last_date on $machine; Debian's $modules modules for the build step. Goals and noise rules: tests/bench/goals.tsv."
echo
echo "| what | measured | goal | verdict |"
echo "| --- | --- | --- | --- |"
row sign-vs-step "$(printf '%.0f' "$sign")× cheaper ($(printf '%.0f-%.0f' "$sign_low" "$sign_high")× over the step's runs)" \
	"$sign_low" "$sign_high"
row step-one "${step_limit}× (runs $step_range)" "$step_low" "$step_high"
row step-both "${both_limit}× (runs $both_range)" "$both_low" "$both_high"
row bytes-per-module "$two (one digest, -f built, would be $one)" "$two" "$two"
row full-build "$full, 95% interval $full_interval (rounds $full_rounds; CPU time $full_cpu; two builds of one config $same_config apart)" \
	"$full_low" "$full_high"
echo "| explanatory: paired estimate of the full build, the build without the allowlist plus the $added s its own steps add (rebuilt alone) and the $compile_added s its compile phase took longer (rounds $compile_rounds) | $estimate (with the compile phase of its lowest and highest round: $estimate_range) | - | - |"
echo "| one module changed (touch lib/crc7.c), with / without | $incremental ($with_incr s / $without_incr s) | written down | - |"
row validate "$validate" "$validate_us" "$validate_us"
echo "| lookup in 100 000 vs 1 000 digests | ${lookup100k}× | O(log n) | - |"
row first-load "$(printf '%.2f' "$first") ($allow_first vs $sig_first)" "$first" "$first"
row first-load-ima "$(printf '%.2f' "$first_ima") ($ima_allow_first vs $ima_sig_first)" "$first_ima" "$first_ima"

# The hash-count row: from the same commit, after its kernel was built.
not_measured=
if [[ -z $hash_count_tap ]]; then
	not_measured="no hash-count result given (make check-debug runs the suite)"
elif [[ ! -f $hash_count_tap ]]; then
	not_measured="$hash_count_tap does not exist (make check-debug runs the suite)"
elif [[ $(sed -n 's/^# commit //p' "$hash_count_tap" | head -n 1) != "$commit" ]]; then
	not_measured="$(basename "$hash_count_tap") is of another commit or names none"
elif [[ -z $hash_count_kernel || ! $hash_count_tap -nt $hash_count_kernel ]]; then
	not_measured="$(basename "$hash_count_tap") is not newer than the kernel it tests (${hash_count_kernel:-none given})"
fi
if [[ -n $not_measured ]]; then
	echo "| $(goal hash-count 2) | not measured for this run: $not_measured | $(goal hash-count 3 | sed 's/^<=/≤/') | - |"
else
	passed=$(grep -c '^ok ' "$hash_count_tap" || true)
	failed=$(grep -c '^not ok ' "$hash_count_tap" || true)
	if ((passed + failed == 0)); then
		echo "| $(goal hash-count 2) | not measured for this run: no results in $(basename "$hash_count_tap") | $(goal hash-count 3 | sed 's/^<=/≤/') | - |"
	else
		row hash-count "$failed of $((passed + failed)) checks fail" "$failed" "$failed"
	fi
fi
