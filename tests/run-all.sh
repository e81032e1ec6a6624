#!/bin/bash
# Usage: run-all.sh BUILD_DIR
# Run every test suite against the builds in BUILD_DIR, show their TAP,
# keep it in BUILD_DIR/test-results/SUITE.tap, and end with the line
# "N passed, N failed".  Exits non-zero if anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
results=$build/test-results
mkdir -p "$results"

suite() {	# suite NAME COMMAND...
	local name=$1
	shift
	echo "# suite $name"
	local start=$SECONDS
	"$@" > "$results/$name.tap" 2>&1
	local rc=$?
	cat "$results/$name.tap"
	if [[ $rc -ne 0 ]] && ! grep -q '^not ok' "$results/$name.tap"; then
		echo "not ok - suite $name exited with status $rc" | tee -a "$results/$name.tap"
	fi
	echo "# suite $name took $((SECONDS - start)) s"
}

suite docs "$here/docs/check-notes.sh"
suite unit env CMOCKA_MESSAGE_OUTPUT=TAP "$build/tools/test_modload"
suite kconfig "$here/kconfig/check-kconfig.sh" "$build"
suite generator "$here/generator/check-generator.sh" "$build"
suite series "$here/series/check-series.sh" "$build"
suite vm "$here/vm/run-verdicts.sh" "$build"
suite allowlist "$here/vm/run-allowlist.sh" "$build"

passed=$(cat "$results"/*.tap | grep -c '^ok')
failed=$(cat "$results"/*.tap | grep -c '^not ok')
echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
