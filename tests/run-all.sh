#!/bin/bash
# Usage: run-all.sh BUILD_DIR TIER|SUITE...
# Run test suites against the builds in BUILD_DIR, streaming their TAP as
# it comes, keep it in BUILD_DIR/test-results/SUITE.tap, and end with the
# line "N passed, N failed".  Exits non-zero if anything failed.
#   check  the suites of "make check" (CI): everything that tests the
#          allowlist kernels, hashes and hashes+sig (hashes rebuilt from
#          scratch and compared byte for byte; of hashes+sig, what makes
#          it reproducible: no generated key, fixed certificates)
#   full   those of "make check-full": check, plus sig, nosig, btf,
#          hashes+sigforce, hashes-untrusted-ima, the pristine kernels
#          and their golden file, secure boot, longer fuzzing
#   debug  (make check-debug) the debug kernel: the verdict matrix,
#          concurrency and KUnit under KASAN, lockdep and kmemleak, and
#          the hash count
#   mutations  (make check-mutations) each security review row's fix
#          undone in a copy of the tree: the row's tests must fail
# A suite fails as a whole (one extra "not ok") when it exits non-zero
# without reporting a failure, or when the number of its results is not
# the plan ("1..N") it declared: results that silently disappeared are
# failures too.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
shift
results=$build/test-results
mkdir -p "$results"

check_suites="docs mutation-rows unit tools-unit tools-fuzz sanitizers tools packaging tools-ima attest kconfig generator series vm allowlist security dkms kunit concurrency repro repro-keys"
full_suites="$check_suites tools-fuzz-long generator-btf vm-rest vm-full dkms-sigforce concurrency-long secureboot allowlist-relinked attest-reboot"
# Heavier than make check-full's 120 minutes allow, a target of its own
# like make check-series (suite series-build) and make repro (README.md
# has their times).
debug_suites="debug-verdicts debug-concurrency debug-kunit hash-count"

command_of() {	# command_of SUITE: the command that runs it
	case $1 in
	docs) echo "$here/docs/check-notes.sh" ;;
	unit) echo "env CMOCKA_MESSAGE_OUTPUT=TAP $build/tools/test_modload" ;;
	tools-unit) echo "$here/../tools/tests/run-unit-tests.sh $build/tools/modhash/tests/test-*" ;;
	tools-fuzz) echo "make -s -j$(nproc) -C $here/../tools O=$build/tools/modhash UAPI_HEADER=$build/src/patched/include/uapi/linux/module_hashes.h fuzz-replay" ;;
	tools-fuzz-long) echo "make -s -j$(nproc) -C $here/../tools O=$build/tools/modhash UAPI_HEADER=$build/src/patched/include/uapi/linux/module_hashes.h fuzz FUZZ_SECONDS=60" ;;
	sanitizers) echo "$here/tools/check-sanitizers.sh $build" ;;
	tools) echo "$here/tools/check-modhash.sh $build" ;;
	packaging) echo "$here/tools/check-packaging.sh $build" ;;
	tools-ima) echo "$here/tools/check-ima-tools.sh $build" ;;
	attest) echo "$here/vm/run-attest.sh $build" ;;
	attest-reboot) echo "$here/vm/run-attest.sh $build --reboot" ;;
	kconfig) echo "$here/kconfig/check-kconfig.sh $build" ;;
	generator) echo "$here/generator/check-generator.sh $build hashes" ;;
	generator-btf) echo "$here/generator/check-generator.sh $build btf" ;;
	series) echo "$here/series/check-series.sh $build" ;;
	series-build) echo "$here/series/check-series.sh $build --build" ;;
	vm) echo "$here/vm/run-verdicts.sh --only check $build hashes hashes+sig" ;;
	vm-rest) echo "$here/vm/run-verdicts.sh --only rest $build hashes hashes+sig" ;;
	vm-full) echo "$here/vm/run-verdicts.sh $build sig nosig btf hashes+sigforce hashes-untrusted-ima pristine-sig pristine-nosig" ;;
	allowlist) echo "$here/vm/run-allowlist.sh $build" ;;
	security) echo "$here/vm/run-security.sh $build" ;;
	concurrency) echo "$here/vm/run-concurrency.sh $build 50 hashes hashes+sig" ;;
	concurrency-long) echo "$here/vm/run-concurrency.sh $build 200 hashes hashes+sig" ;;
	secureboot) echo "$here/vm/run-secureboot.sh $build hashes+sig" ;;
	kunit) echo "$here/vm/run-kunit.sh $build hashes hashes+sig" ;;
	dkms) echo "$here/vm/run-dkms.sh $build hashes+sig" ;;
	debug-verdicts) echo "$here/vm/run-verdicts.sh $build debug" ;;
	debug-concurrency) echo "$here/vm/run-concurrency.sh $build 200 debug" ;;
	debug-kunit) echo "$here/vm/run-kunit.sh $build debug" ;;
	hash-count) echo "$here/vm/run-hash-count.sh $build debug" ;;
	dkms-sigforce) echo "$here/vm/run-dkms.sh $build hashes+sigforce" ;;
	allowlist-relinked) echo "$here/vm/run-relinked-lists.sh $build" ;;
	repro) echo "$here/repro/check-repro.sh $build hashes" ;;
	repro-keys) echo "$here/repro/check-fixed-keys.sh $build hashes+sig" ;;
	repro-hashes+sig) echo "$here/repro/check-repro.sh $build hashes+sig" ;;
	repro-sig) echo "$here/repro/check-repro.sh $build sig" ;;
	repro-btf) echo "$here/repro/check-repro.sh $build btf" ;;
	mutations) echo "$here/mutations/run-mutations.sh $build" ;;
	distro-packages) echo "$here/distro/check-packages.sh $build" ;;
	distro) echo "$here/distro/run-distro.sh $build" ;;
	repro-distro) echo "$here/distro/check-repro.sh $build" ;;
	mutation-rows) echo "$here/mutations/check-rows.sh $build" ;;
	*) return 1 ;;
	esac
}

selected=
for arg in "$@"; do
	case $arg in
	check) selected="$selected $check_suites" ;;
	full) selected="$selected $full_suites" ;;
	debug) selected="$selected $debug_suites" ;;
	*) selected="$selected $arg" ;;
	esac
done
[[ -n $selected ]] || { echo "usage: run-all.sh BUILD_DIR check|full|debug|SUITE..." >&2; exit 2; }

# plan_problem TAP_FILE: why the results do not match the declared plan,
# or nothing when they do.  The plan is the first or the last line.
plan_problem() {
	local plan planned count
	plan=$(grep -E '^1\.\.[0-9]+' "$1")
	count=$(grep -cE '^(not )?ok\b' "$1")
	if [[ $(wc -l <<< "$plan") != 1 || -z $plan ]]; then
		echo "declared no single plan line (1..N) but gave $count results"
		return
	fi
	planned=${plan#1..}
	planned=${planned%% *}
	[[ $planned == "$count" ]] || echo "planned $planned results but gave $count"
}

for name in $selected; do
	cmd=$(command_of "$name") || { echo "run-all.sh: no suite $name" >&2; exit 2; }
	tap=$results/$name.tap
	echo "# suite $name"
	start=$SECONDS
	$cmd 2>&1 | tee "$tap"
	rc=${PIPESTATUS[0]}
	if [[ $rc -ne 0 ]] && ! grep -q '^not ok' "$tap"; then
		echo "not ok - suite $name exited with status $rc" | tee -a "$tap"
	fi
	problem=$(plan_problem "$tap")
	if [[ -n $problem ]]; then
		echo "not ok - suite $name $problem" | tee -a "$tap"
	fi
	echo "# suite $name took $((SECONDS - start)) s"
done

# A result with a "# SKIP" or "# TODO" directive is neither a pass nor
# silence: it is counted on its own line and as a failure.
directive='^(not )?ok\b[^#]*#[[:space:]]*(SKIP|TODO)\b'
passed=0
failed=0
skipped=0
for name in $selected; do
	tap=$results/$name.tap
	passed=$((passed + $(grep -E '^ok\b' "$tap" | grep -cviE "$directive")))
	failed=$((failed + $(grep -E '^not ok\b' "$tap" | grep -cviE "$directive")))
	skipped=$((skipped + $(grep -ciE "$directive" "$tap")))
done
if [[ $skipped -gt 0 ]]; then
	echo "$skipped skipped or TODO (counted as failed):"
	for name in $selected; do
		grep -iE "$directive" "$results/$name.tap" | sed "s/^/  $name: /"
	done
	failed=$((failed + skipped))
fi
# Test knobs in the environment (tests/lib/knobs.sh): the Makefile passes
# what it saw before exporting its own variables.
if [[ -v TEST_KNOBS_SET ]]; then
	knobs=$TEST_KNOBS_SET
else
	knobs=$("$here/lib/knobs.sh" --set | tr '\n' ' ')
fi
knobs=${knobs% }
echo "$passed passed, $failed failed${knobs:+ (test knobs set: $knobs)}"
[[ $failed -eq 0 && $passed -gt 0 ]]
