#!/bin/bash
# Usage: run-all.sh BUILD_DIR [SUITE...]
# Run the test suites (those of "make check", or the ones named) against
# the builds in BUILD_DIR, show their TAP, keep it in
# BUILD_DIR/test-results/SUITE.tap, and end with the line "N passed,
# N failed".  Exits non-zero if anything failed.  repro-btf, a second
# build with debug information, only runs when named ("make repro").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
shift
results=$build/test-results
mkdir -p "$results"
all="docs unit kconfig generator series vm allowlist repro"
selected=${*:-$all}
known="$all repro-btf"

command_of() {	# command_of SUITE: the command that runs it
	case $1 in
	docs) echo "$here/docs/check-notes.sh" ;;
	unit) echo "env CMOCKA_MESSAGE_OUTPUT=TAP $build/tools/test_modload" ;;
	kconfig) echo "$here/kconfig/check-kconfig.sh $build" ;;
	generator) echo "$here/generator/check-generator.sh $build" ;;
	series) echo "$here/series/check-series.sh $build" ;;
	vm) echo "$here/vm/run-verdicts.sh $build" ;;
	allowlist) echo "$here/vm/run-allowlist.sh $build" ;;
	repro) echo "$here/repro/check-repro.sh $build hashes sig" ;;
	repro-btf) echo "$here/repro/check-repro.sh $build btf" ;;
	*) return 1 ;;
	esac
}

for name in $selected; do
	cmd=$(command_of "$name") || { echo "run-all.sh: no suite $name (suites: $known)" >&2; exit 2; }
	echo "# suite $name"
	start=$SECONDS
	$cmd > "$results/$name.tap" 2>&1
	rc=$?
	cat "$results/$name.tap"
	if [[ $rc -ne 0 ]] && ! grep -q '^not ok' "$results/$name.tap"; then
		echo "not ok - suite $name exited with status $rc" | tee -a "$results/$name.tap"
	fi
	echo "# suite $name took $((SECONDS - start)) s"
done

taps=$(for name in $selected; do echo "$results/$name.tap"; done)
# shellcheck disable=SC2086 # paths without spaces
passed=$(cat $taps | grep -c '^ok')
# shellcheck disable=SC2086
failed=$(cat $taps | grep -c '^not ok')
echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
