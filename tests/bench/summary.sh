#!/bin/bash
# Usage: summary.sh BENCH_DIR [HASH_COUNT_TAP]
# The figures a kernel maintainer asks for before trading module signing
# for the allowlist, read from the tables "make bench" wrote to BENCH_DIR
# (build-step.md, build-cost.md, load-cost.md, list-lookup.md), each next
# to the goal issue 14 set, as one short markdown table for a mailing-list
# reply.  HASH_COUNT_TAP, the result of the hash-count suite (make
# check-full), adds how often a load under IMA hashes the module.
# A figure missing from its table is an error, never a blank.
set -euo pipefail
bench=$(cd "$1" && pwd)
hash_count_tap=${2:-}
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
verdict() { [[ $(echo "$1" | bc -l) == 1 ]] && echo met || echo missed; }

for table in build-step build-cost load-cost list-lookup; do
	[[ -f $bench/$table.md ]] || die "$bench/$table.md is missing (make bench)"
done

modules=$(sed -n 's/^Modules: \([0-9]*\),.*/\1/p' "$bench/build-step.md")
read -r one two < <(sed -n 's/^List bytes per module at SHA-256: \([0-9]*\) .* \([0-9]*\) with two.*/\1 \2/p' \
	"$bench/build-step.md")
[[ -n $modules && -n $one && -n $two ]] || die "build-step.md: no module count or list sizes"

step=$(cell build-step.md "allowlist step, -f built (" 2)
step_limit=$(cell build-step.md "allowlist step, -f built (" 3)
both_limit=$(cell build-step.md "allowlist step, -f built,stripped" 3)
sign=$(cell build-step.md "sign-file" 2)
full=$(cell build-cost.md "full" 4)
full_rounds=$(cell build-cost.md "full" 5)
full_cpu=$(cell build-cost.md "full" 6)
added=$(cell build-cost.md "rebuilt alone" 4)
added_rounds=$(cell build-cost.md "rebuilt alone" 5)
full_estimate=$(cell build-cost.md "rebuilt alone" 7)
shared_sampled=$(cell build-cost.md "compiled again" 2)
shared_cpu=$(cell build-cost.md "compiled again" 5)
same_config=$(sed -n 's/.* were up to \(.*\) apart without the allowlist and \(.*\) with it\. .*/\1 and \2/p' \
	"$bench/build-cost.md")
[[ -n $same_config ]] || die "build-cost.md: no spread of the full builds of one config"
incremental=$(cell build-cost.md "incremental" 4)
with_incr=$(cell build-cost.md "incremental" 2)
without_incr=$(cell build-cost.md "incremental" 3)
validate=$(cell list-lookup.md "validate" 2)
lookup100k=$(cell list-lookup.md "lookup in 100000" 3)
allow_first=$(cell load-cost.md "allowlist (module" 3)
sig_first=$(cell load-cost.md "signature (module" 3)
ima_allow_first=$(cell load-cost.md "allowlist in IMA" 3)
ima_sig_first=$(cell load-cost.md "signature in IMA" 3)
validate_us=${validate% µs}

echo "Module allowlist against module signing (make bench, $(date -u +%Y-%m-%d), $(nproc) cores; Debian's $modules modules for the build step)."
echo
echo "| what | measured | goal | |"
echo "| --- | --- | --- | --- |"
echo "| allowlist step vs signing every module (RSA-4096, SHA-512) | $(printf '%.0f' "$(echo "$sign / $step" | bc -l)")× cheaper | ≥ 10× | $(verdict "$sign / $step >= 10") |"
echo "| allowlist step, one digest per module, vs the hashing limit | ${step_limit}× | ≤ 1.5× | $(verdict "$step_limit <= 1.5") |"
echo "| allowlist step, two digests per module, vs the hashing limit of both forms | ${both_limit}× | ≤ 1.5× | $(verdict "$both_limit <= 1.5") |"
echo "| list bytes per module, SHA-256 | $one (install form known), $two (both forms) | ≤ 32 | $(verdict "$one <= 32") |"
echo "| full build, with / without the allowlist: the build without it plus the $added s the allowlist adds (rebuilt alone in both, each pair $added_rounds s; the objects both compile cost the same, CPU $shared_cpu over $shared_sampled) | $full_estimate | ≤ 1.02 | $(verdict "$full_estimate <= 1.02") |"
echo "| full builds timed whole, with / without (rounds $full_rounds; CPU time $full_cpu), two builds of one config $same_config apart | $full | (for comparison) | - |"
echo "| one module changed (touch lib/crc7.c), with / without | $incremental ($with_incr s / $without_incr s) | written down | - |"
echo "| validating 100 000 digests at boot (qemu TCG) | $validate | ≤ 1 ms | $(verdict "$validate_us <= 1000") |"
echo "| lookup in 100 000 vs 1 000 digests | ${lookup100k}× | O(log n) | - |"
echo "| first load, allowlist vs signature (× no check) | $allow_first vs $sig_first | allowlist ≤ signature | $(verdict "$allow_first <= $sig_first") |"
echo "| first load under IMA, allowlist vs signature (× no check) | $ima_allow_first vs $ima_sig_first | allowlist ≤ signature | $(verdict "$ima_allow_first <= $ima_sig_first") |"
if [[ -n $hash_count_tap ]]; then
	[[ -f $hash_count_tap ]] || die "$hash_count_tap is missing (make check-full runs the hash-count suite)"
	passed=$(grep -c '^ok ' "$hash_count_tap" || true)
	failed=$(grep -c '^not ok ' "$hash_count_tap" || true)
	echo "| hashes of the module per load, with and without IMA (suite hash-count) | once per load: $passed of $((passed + failed)) checks pass | once, not twice | $( ((failed == 0 && passed > 0)) && echo met || echo missed) |"
fi
