#!/bin/bash
# Usage: check-sanitizers.sh BUILD_DIR
# The project's host-side C under AddressSanitizer and UndefinedBehavior-
# Sanitizer, in TAP.  Everything is built once more with
#   -fsanitize=address,undefined -fno-sanitize-recover=all
#   -fno-omit-frame-pointer -O1 -g
# (gcc), and a test fails on any sanitizer report:
#  - modhash and its cmocka unit tests (tools/), built by tools/Makefile
#    into BUILD_DIR/tools/modhash-asan against the patched tree's UAPI
#    header, as tests/run-all.sh builds the normal ones; then each
#    tools/tests/test-*.c program passes all its tests (one line each);
#  - modload's unit test (initramfs/modload/test_modload.c), built into
#    BUILD_DIR/tools/asan/test_modload, passes;
#  - the kernel's allowlist generator (scripts/module-hashes.c of
#    BUILD_DIR/src/patched), built into BUILD_DIR/tools/asan, run as
#    kbuild ran it for the hashes build (its .cmd file, allowlist_step of
#    tests/lib/allowlist.sh), writes the very bytes of that build's
#    .module-hashes.bin.
# Leaks count (detect_leaks=1): a first test runs a probe program that
# leaks and requires LeakSanitizer's report, so that a machine where LSan
# cannot run (it stops the world with ptrace, which a sandbox may forbid)
# fails instead of passing with leaks unchecked.  AddressSanitizer's
# reports go to log files (log_path), looked at with the output: a test that captures its own stderr would hide them;
# UBSan's go to stderr (its log_path does nothing with ASan linked in), and
# stop the program with status 1 whatever becomes of them (halt_on_error).
# A missing tree, build or program fails the tests that need it; the exit
# status is non-zero when a test failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd) || exit 1
. "$top/tests/lib/tap.sh"
. "$top/tests/lib/allowlist.sh"

unit_tests=$(cd "$top/tools/tests" && ls test-*.c | sed 's/\.c$//')
tap_plan $((1 + 1 + $(wc -w <<< "$unit_tests") + 1 + 2))

san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g"
patched=$build/src/patched
obj=$patched/obj-hashes
modhash=$build/tools/modhash-asan
asan=$build/tools/asan
logs=$asan/logs
mkdir -p "$asan"
rm -rf "$logs"
mkdir -p "$logs"
report='ERROR: AddressSanitizer|runtime error:|LeakSanitizer'

# Does LeakSanitizer work here?  Without it the leak checks below would
# pass unchecked: that is a failure, not a silence.
printf '#include <stdlib.h>\nvoid *p;\nint main(void) { p = malloc(7); p = 0; return 0; }\n' > "$asan/lsan-probe.c"
gcc -fsanitize=address -g -o "$asan/lsan-probe" "$asan/lsan-probe.c" &&
	probe=$(ASAN_OPTIONS=detect_leaks=1 "$asan/lsan-probe" 2>&1)
grep -q 'ERROR: LeakSanitizer: detected memory leaks' <<< "${probe-}"
tap $? "LeakSanitizer works here: a probe that leaks 7 bytes is reported"
[[ ${probe+set} ]] || probe="probe not built"
grep -q 'ERROR: LeakSanitizer' <<< "$probe" || sed 's/^/#   /' <<< "$probe" | head -n 5
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export CMOCKA_MESSAGE_OUTPUT=TAP

# san_run NAME COMMAND...: run COMMAND, its output and any sanitizer log in
# $logs/NAME.out; status non-zero if it failed or a sanitizer reported.
san_run() {
	local name=$1 rc
	shift
	ASAN_OPTIONS=$ASAN_OPTIONS:log_path=$logs/$name.asan "$@" > "$logs/$name.out" 2>&1
	rc=$?
	cat "$logs/$name".asan.* >> "$logs/$name.out" 2>/dev/null
	[[ $rc == 0 ]] && ! grep -qE "$report" "$logs/$name.out"
}

# show FILE: its failures and sanitizer reports (or its end) as comments
show() {
	{ grep -E -A 15 "$report|^not ok" "$1" || tail -n 20 "$1"; } | head -n 60 | sed 's/^/# /'
}

# cmocka NAME PROGRAM: run a cmocka test program; status 0 when every
# test it planned passed with no sanitizer report; sets $passed and
# $planned (the sum of its plans).
cmocka() {
	local rc
	san_run "$1" "$2"
	rc=$?
	passed=$(grep -cE '^ok\b' "$logs/$1.out")
	planned=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$logs/$1.out" | awk '{ n += $1 } END { print n + 0 }')
	[[ $rc == 0 && $passed -gt 0 && $passed == "$planned" ]] && ! grep -q '^not ok' "$logs/$1.out"
}

# result STATUS DESCRIPTION: tap, and remember a failure for the exit status
status=0
result() {
	tap "$@"
	[[ $1 == 0 ]] || status=1
}

# 1. modhash and its unit tests
make -s -C "$top/tools" -j"$(nproc)" O="$modhash" CFLAGS="$san" WERROR=1 \
	UAPI_HEADER="$patched/include/uapi/linux/module_hashes.h" all tests > "$logs/modhash-build.out" 2>&1
built=$?
result $built "modhash and its unit tests build with ASan and UBSan (tools/Makefile, O=tools/modhash-asan)"
[[ $built == 0 ]] || tail -n 20 "$logs/modhash-build.out" | sed 's/^/# /'
for t in $unit_tests; do
	passed=0 planned=?
	if [[ $built == 0 && -x $modhash/tests/$t ]]; then
		cmocka "$t" "$modhash/tests/$t"
		rc=$?
	else
		rc=1
		echo "not built: $modhash/tests/$t" > "$logs/$t.out"
	fi
	result $rc "$t: $passed of its $planned cmocka tests pass, no sanitizer report"
	[[ $rc == 0 ]] || show "$logs/$t.out"
done

# 2. modload's unit test
passed=0 planned=?
gcc -std=c11 -Wall -Wextra -Werror $san -o "$asan/test_modload" \
	"$top/initramfs/modload/test_modload.c" "$top/initramfs/modload/modload_lib.c" -lcmocka \
	> "$logs/test_modload.out" 2>&1 &&
	cmocka test_modload "$asan/test_modload"
rc=$?
result $rc "test_modload builds with ASan and UBSan, $passed of its $planned cmocka tests pass, no sanitizer report"
[[ $rc == 0 ]] || show "$logs/test_modload.out"

# 3. the allowlist generator, as kbuild ran it for the hashes build
gen=$asan/module-hashes
rm -f "$gen" "$asan/module-hashes.bin"
gcc -std=c11 -Wall -Wextra -Werror $san -o "$gen" "$patched/scripts/module-hashes.c" -lcrypto -lpthread \
	> "$logs/module-hashes-build.out" 2>&1
rc=$?
result $rc "scripts/module-hashes.c of the patched tree builds with ASan and UBSan"
[[ $rc == 0 ]] || tail -n 20 "$logs/module-hashes-build.out" | sed 's/^/# /'
step=$(allowlist_step "$obj" 2> "$logs/module-hashes.out")
args=${step#"$obj/scripts/module-hashes"}
[[ -n $step && -x $gen ]] &&
	(cd "$obj" && san_run module-hashes "$gen" $args -o "$asan/module-hashes.bin" modules.order) &&
	cmp "$asan/module-hashes.bin" "$obj/.module-hashes.bin" >> "$logs/module-hashes.out" 2>&1
rc=$?
result $rc "module-hashes$args -o X modules.order, as kbuild ran it for hashes: X is its .module-hashes.bin byte for byte, no sanitizer report"
[[ $rc == 0 ]] || show "$logs/module-hashes.out"
exit $status
