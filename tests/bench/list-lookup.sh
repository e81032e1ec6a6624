#!/bin/bash
# Usage: list-lookup.sh BUILD_DIR
# What the kernel spends on the list itself, as a markdown table: the
# series' KUnit test (patch 11), loaded in a boot of the hashes kernel by
# tests/vm/run-kunit.sh, validates a list of 100 000 synthetic sha256
# digests and makes 1 000 lookups in lists of 1 000, 10 000 and 100 000
# digests, and prints the times it measured with ktime_get_ns() (under
# qemu TCG).  The lookup rows are ratios to the 1 000-digest list in the
# same boot, next to what O(log n) and O(n) would give.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
say() { echo "list-lookup.sh: $*" >&2; }

say "booting hashes, loading the KUnit test (about 30 s)"
"$here/../vm/run-kunit.sh" "$build" hashes > "$build/test-results/list-lookup.tap" 2>&1 ||
	{ say "the KUnit run failed:"; grep -v '^ok ' "$build/test-results/list-lookup.tap" >&2; exit 1; }
times=$build/test-results/kunit/hashes.times
validate=$(sed -n 's/.*validate \([0-9]*\) digests: \([0-9]*\) ns.*/\1 \2/p' "$times")
[[ -n $validate ]] || { say "no validation time in $times"; exit 1; }
read -r count ns <<< "$validate"

echo "Boot-time validation of the list and lookups in it, measured by the KUnit test in a qemu TCG guest of the hashes kernel."
echo
printf '| list | time | × 1 000 digests | log n ratio | n ratio |\n| --- | --- | --- | --- | --- |\n'
printf '| validate %s digests | %.0f µs | | | |\n' "$count" "$(echo "$ns / 1000" | bc -l)"
base=
while read -r n total lookups; do
	per=$(echo "$total / $lookups" | bc -l)
	[[ -n $base ]] || base=$per
	printf '| lookup in %s digests | %.0f ns | %.2f | %.2f | %.0f |\n' "$n" "$per" \
		"$(echo "$per / $base" | bc -l)" "$(echo "l($n) / l(1000)" | bc -l)" "$(echo "$n / 1000" | bc -l)"
done < <(sed -n 's/.*lookup in \([0-9]*\) digests: \([0-9]*\) ns for \([0-9]*\) lookups.*/\1 \2 \3/p' "$times")
