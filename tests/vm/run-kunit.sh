#!/bin/bash
# Usage: run-kunit.sh BUILD_DIR VARIANT...
# The KUnit tests of the series (patch 11, ima_modhashes_test.ko: the
# list's validation and lookup, and its cost at 100 000 digests), in TAP.
# On each VARIANT the test module is an ordinary module of the build, so
# it is on the allowlist: the guest loads it with modprobe under
# module.sig_enforce=1 (it loads by digest, kunit.ko as its dependency),
# KUnit runs the suite, and the guest prints the kernel log.  Here:
#  - the committed case list, tests/vm/kunit-cases.txt ("case" and
#    "case/parameter" lines), is what the test source declares (its
#    KUNIT_CASE lines and the damages[] table of the patched tree);
#  - KUnit's own plan: the suite's KTAP "1..N" is the number of cases in
#    that list;
#  - one TAP line per case and per parameter of the list, by name: a case
#    that did not report, failed, or was skipped ("# SKIP") fails;
#  - the module loaded by digest, untainted but for KUnit's own taint
#    (N, 262144), and the boot ended cleanly with no warning on the
#    console (run-vm.sh).
# The times the suite prints (validation of 100 000 digests, lookups in
# 1 000 / 10 000 / 100 000) go to BUILD_DIR/test-results/kunit/VARIANT.times
# for make bench; nothing here asserts a time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
shift
work=$build/test-results/kunit
rm -rf "$work"
mkdir -p "$work"
. "$here/../lib/tap.sh"
. "$here/../lib/vm-scenario.sh"

source_file=$build/src/patched/security/integrity/ima/ima_modhashes_test.c
committed=$here/kunit-cases.txt
# The cases and parameters the source declares, as "case" or
# "case/parameter" lines.
declared_cases() {
	sed -n 's/^[[:space:]]*KUNIT_CASE\(_PARAM\)\{0,1\}(\([a-z_0-9]*\).*/\2/p' "$source_file"
	sed -n 's/^[[:space:]]*{ "\([^"]*\)", [a-z_0-9]*, ".*" },$/allowlist_damaged\/\1/p' "$source_file"
}
grep -v '^#' "$committed" > "$work/expected"
entries=$(wc -l < "$work/expected")
cases=$(grep -vc / "$work/expected")
tap_plan $((1 + $# * (entries + 3)))
if [[ -f $source_file ]]; then
	declared_cases > "$work/declared"
	diff -u --label "${committed#"$here"/../../}" --label "declared by the source" \
		"$work/expected" "$work/declared" > "$work/declared.diff"
	tap $? "the committed case list is the one ima_modhashes_test.c declares"
	sed 's/^/# /' "$work/declared.diff"
else
	tap 1 "the committed case list is the one ima_modhashes_test.c declares"
	echo "# $source_file is missing (tree not patched)"
fi

cat > "$work/kunit.sh" <<'GUEST'
#!/bin/sh
. /bin/vmtest.sh
dmesg -c > /dev/null
if /sbin/modprobe ima_modhashes_test; then echo LOADED; else echo "LOAD-FAILED $?"; fi
echo "TAINT $(cat /proc/sys/kernel/tainted)"
dmesg | sed 's/^\[[ 0-9.]*\] //; s/^/KLOG /'
GUEST

for variant in "$@"; do
	boot "kunit" "$variant" module.sig_enforce=1
	cp "$work/kunit.out" "$work/$variant.out"
	cp "$work/kunit.rc" "$work/$variant.rc"
	# The KTAP of the suite, indentation kept: "    ok N case" for a
	# case, "        ok N parameter" for a parameter of the case that
	# follows them.
	sed -n 's/^KLOG //p' "$work/$variant.out" > "$work/$variant.ktap"
	# A result with a "# SKIP" directive is "skip", not "ok".
	awk '
		function status(l) { return (l ~ /^not /) ? "not ok" : (l ~ / # SKIP/) ? "skip" : "ok" }
		/^        (not )?ok [0-9]+ / { line = $0; sub(/^ +/, "", line); params[n++] = line; next }
		/^    (not )?ok [0-9]+ / {
			line = $0; sub(/^ +/, "", line)
			st = status(line)
			sub(/^(not )?ok [0-9]+ /, "", line); sub(/ # .*/, "", line)
			for (i = 0; i < n; i++) {
				p = params[i]; ps = status(p)
				sub(/^(not )?ok [0-9]+ /, "", p); sub(/ # .*/, "", p)
				print ps "\t" line "/" p
			}
			n = 0
			print st "\t" line
		}' "$work/$variant.ktap" > "$work/$variant.results"
	plan=$(sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' "$work/$variant.ktap")
	[[ $plan == "$cases" ]]
	tap $? "$variant: KUnit's plan for the suite is 1..$cases, the cases of the committed list (KTAP said: ${plan:-no plan})"
	while read -r name; do
		status=$(awk -F '\t' -v n="$name" '$2 == n { print $1; exit }' "$work/$variant.results")
		[[ $status == ok ]] && [[ $(cat "$work/$variant.rc") == 0 ]]
		tap $? "$variant: KUnit $name (${status:-no result})"
	done < "$work/expected"
	saw "$variant" '^LOADED$' && saw "$variant" '^TAINT 262144$'
	tap $? "$variant: ima_modhashes_test.ko loads by digest under module.sig_enforce=1, taint N (KUnit) only"
	[[ $(cat "$work/$variant.rc") == 0 ]]
	tap $? "$variant: the boot ended cleanly, no warning on the console"
	[[ $(cat "$work/$variant.rc") == 0 ]] || grep '^# ' "$work/$variant.out" | head -n 20
	grep -E '^ *# allowlist_large: (validate|lookup)' "$work/$variant.ktap" > "$work/$variant.times"
done
