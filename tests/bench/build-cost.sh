#!/bin/bash
# Usage: build-cost.sh BUILD_DIR
# What MODULE_HASHES adds to the build of a kernel, as a markdown table:
# the "hashes" config (BUILD_DIR/out/hashes/config) and the same config
# without the allowlist (MODULE_HASHES and, since lockdown would then turn
# module signing on, SECURITY_LOCKDOWN_LSM off: nothing else changes; the
# allowlist's KUnit test module is left out of both),
# each built from scratch in its own directory of the patched tree with
# plain gcc (no ccache), then once more after `touch lib/crc7.c` (an
# incremental build that changes one module's source); BENCH_BUILD_ROUNDS
# rounds of that (3 unless set), in alternating order.  Ratios are "with"
# over "without": the mean of the rounds' ratios with its 95% t-interval
# (tests/lib/timing.sh, mean_t95) and each round's, with the CPU time of
# the full builds next to their wall time.  The full builds' ratio and
# its interval are the metric of the goal "full-build" of
# tests/bench/goals.tsv; everything else here explains it.
#
# Two full builds of the same config differ by several percent in wall
# time on a shared machine (up to 11% seen), more than the 2% the allowlist may cost, so the cost is
# also measured where it arises: in both build directories, everything
# the allowlist can make slower is deleted and made again, in
# BENCH_PARTIAL_ROUNDS pairs (7 unless set) in alternating order: the
# steps only the allowlist build runs (the targets of the .cmd files only
# its directory has: its code, the generator, the stripped copies, the
# list), the objects built from code that MODULE_HASHES or
# SECURITY_LOCKDOWN_LSM switch on (their .cmd files name those options),
# every module and, from there, vmlinux.o, modpost and the vmlinux link
# and bzImage, whose order the allowlist changes (vmlinux waits for the
# modules).  The median difference of the pairs is the time the
# allowlist adds there.  The rebuilds leave out the compile phase, so the
# full builds are timed line by line too (kbuild's short lines, each
# stamped with the time it came): per round, the seconds from the start
# of make to its `LD      vmlinux.o` line, with and without.  The paired
# estimate of the full build is (median full build without + median
# rebuild difference + median compile-phase difference) / median full
# build without: an explanation of the goal's metric, not the metric.
# The objects that only see a different
# include/linux/module.h (MODULE_INTEGRITY_POLICY: one field and three
# inline helpers) are compiled in both builds alike and are not rebuilt.
#
# The two build directories (obj-bench-with, obj-bench-without) are
# removed afterwards and lib/crc7.c gets its old mtime back.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
tree=$build/src/patched
tmp=$(mktemp -d)
# lib/crc7.c gets its mtime back, so that the other build directories of
# the tree do not rebuild it
touch -r "$tree/lib/crc7.c" "$tmp/crc7.c.mtime"
trap 'touch -r "$tmp/crc7.c.mtime" "$tree/lib/crc7.c"; rm -rf "$tmp" "$tree/obj-bench-with" "$tree/obj-bench-without"' EXIT
say() { echo "build-cost.sh: $*" >&2; }
. "$top/tests/lib/timing.sh"

kmake() {	# kmake NAME MAKE_ARG...
	KERNEL_CC=gcc "$top/kernel/build/kmake.sh" "$tree" "bench-$1" "${@:2}"
}
times_of() {	# times_of NAME MAKE_ARG...: "WALL CPU" seconds of that make
	wall_and_cpu_seconds "$tmp/make-$1.log" kmake "$@"
}
# stamped COMMAND...: COMMAND's output (both streams), each line after the
# time it came through the pipe (bash's $EPOCHREALTIME), and a first line
# "TIME started"; the status is COMMAND's
stamped() {
	local LC_ALL=C line
	printf '%s started\n' "$EPOCHREALTIME"
	"$@" 2>&1 | while IFS= read -r line; do
		printf '%s %s\n' "$EPOCHREALTIME" "$line"
	done
}
# compile_phase LOG: seconds from the start of a stamped make to its
# `LD      vmlinux.o` line (kbuild's short output, quiet=quiet_ despite
# make -s), or the script fails
compile_phase() {
	awk 'NR == 1 { start = $1 }
		$2 == "LD" && $3 == "vmlinux.o" && NF == 3 { printf "%f\n", $1 - start; found = 1; exit }
		END { exit !found }' "$1" ||
		{ say "no \"LD      vmlinux.o\" line in $1"; exit 1; }
}

for name in with without; do
	rm -rf "$tree/obj-bench-$name"
	mkdir -p "$tree/obj-bench-$name"
	cp "$build/out/hashes/config" "$tree/obj-bench-$name/.config"
done
# The KUnit test of the allowlist is a module only the "with" config could
# build: it is no part of what the allowlist costs a distribution.
for name in with without; do
	"$tree/scripts/config" --file "$tree/obj-bench-$name/.config" \
		--disable IMA_MODULE_HASHES_KUNIT_TEST
done
"$tree/scripts/config" --file "$tree/obj-bench-without/.config" \
	--disable MODULE_HASHES --disable SECURITY_LOCKDOWN_LSM
for name in with without; do
	kmake "$name" olddefconfig > /dev/null
done
for name in with without; do
	cp "$tree/obj-bench-$name/.config" "$tmp/config-$name"
done
if ! grep -q '^CONFIG_MODULE_HASHES=y' "$tree/obj-bench-with/.config" ||
	grep -q '^CONFIG_IMA_MODULE_HASHES_KUNIT_TEST=' "$tree/obj-bench-with/.config" ||
	grep -q '^CONFIG_MODULE_HASHES=y' "$tree/obj-bench-without/.config" ||
	grep -q '^CONFIG_MODULE_SIG=y' "$tree/obj-bench-without/.config"; then
	say "the two configs are not what this benchmark compares"
	exit 1
fi

# Rounds of one full build each way, in alternating order so that a
# machine getting busier or quieter during the run weighs on both sides;
# the ratio is the mean of the rounds' ratios, with its interval.  Two
# builds of the same config differ by several percent in wall time, more
# than the goal: few rounds give a wide interval, and that is the answer.
rounds=${BENCH_BUILD_ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { say "BENCH_BUILD_ROUNDS must be a positive number, not \"$rounds\""; exit 1; }
declare -a full_ratio full_cpu_ratio incr_ratio
declare -a compile_with compile_without compile_added
declare -A full_wall full_cpu incr_wall relinked phase
for ((round = 1; round <= rounds; round++)); do
	order=(with without)
	((round % 2)) || order=(without with)
	for name in "${order[@]}"; do
		say "round $round of $rounds: full build $name the allowlist, gcc without ccache (about 7 min on 2 cores)"
		rm -rf "$tree/obj-bench-$name"
		mkdir "$tree/obj-bench-$name"
		cp "$tmp/config-$name" "$tree/obj-bench-$name/.config"
		times=$(wall_and_cpu_seconds "$tmp/full-$name.log" \
			stamped kmake "$name" quiet=quiet_ -j"$(nproc)" bzImage modules)
		read -r "full_wall[$name]" "full_cpu[$name]" <<< "$times"
		phase[$name]=$(compile_phase "$tmp/full-$name.log")
	done
	for name in "${order[@]}"; do
		say "round $round of $rounds: touch lib/crc7.c; make ($name the allowlist)"
		touch "$tree/lib/crc7.c"
		before=$(stat -c %Y "$tree/obj-bench-$name/vmlinux")
		sleep 1
		times=$(times_of "$name" -j"$(nproc)" bzImage modules)
		read -r "incr_wall[$name]" _ <<< "$times"
		relinked[$name]=no
		[[ $(stat -c %Y "$tree/obj-bench-$name/vmlinux") == "$before" ]] || relinked[$name]=yes
	done
	full_with+=("${full_wall[with]}") full_without+=("${full_wall[without]}")
	compile_with+=("${phase[with]}") compile_without+=("${phase[without]}")
	compile_added+=("$(echo "${phase[with]} - ${phase[without]}" | bc -l)")
	incr_with+=("${incr_wall[with]}") incr_without+=("${incr_wall[without]}")
	full_ratio+=("$(echo "${full_wall[with]} / ${full_wall[without]}" | bc -l)")
	full_cpu_ratio+=("$(echo "${full_cpu[with]} / ${full_cpu[without]}" | bc -l)")
	incr_ratio+=("$(echo "${incr_wall[with]} / ${incr_wall[without]}" | bc -l)")
	say "round $round: full $(printf '%.1f s / %.1f s = %.3f, compile phase %.1f s / %.1f s' "${full_wall[with]}" \
		"${full_wall[without]}" "${full_ratio[-1]}" "${phase[with]}" "${phase[without]}")"
done

# --- what the allowlist adds, rebuilt alone --------------------------------
# targets_of: the targets of the .cmd files named on stdin, "./dir/.x.o.cmd"
# for dir/x.o, sorted
targets_of() {
	sed 's#^\./##; s#\(^\|/\)\.\([^/]*\)\.cmd$#\1\2#' | sort
}
# cmd_targets NAME: what build NAME made, one path a line
cmd_targets() {
	(cd "$tree/obj-bench-$1" && find . -name '.*.cmd') | targets_of
}
cmd_targets with > "$tmp/made-with"
cmd_targets without > "$tmp/made-without"
comm -23 "$tmp/made-with" "$tmp/made-without" > "$tmp/only-with"
if [[ ! -s $tmp/only-with ]] || comm -13 "$tmp/made-with" "$tmp/made-without" | grep -q .; then
	say "expected the allowlist build to make more than the other, and the other nothing more:"
	comm -3 "$tmp/made-with" "$tmp/made-without" | head >&2
	exit 1
fi
# The objects built from the allowlist's code and lockdown's: their .cmd
# files name one of the two options.
(cd "$tree/obj-bench-with" || exit 1
	grep -rlE --include='.*.o.cmd' 'include/config/(MODULE_HASHES|SECURITY_LOCKDOWN_LSM)\)' . || true) |
	targets_of > "$tmp/own-code"
grep -qx 'kernel/module/main.o' "$tmp/own-code" ||
	{ say "no object of the module loader names CONFIG_MODULE_HASHES in its .cmd file"; exit 1; }
sort -u "$tmp/only-with" "$tmp/own-code" > "$tmp/rebuilt"
partial_targets=$(wc -l < "$tmp/rebuilt")

# partial_rebuild NAME: delete those targets and every module of
# build NAME and make it again; prints "WALL CPU"
partial_rebuild() {
	local obj=$tree/obj-bench-$1 target
	while read -r target; do
		rm -f "$obj/$target"
	done < "$tmp/rebuilt"
	find "$obj" -name '*.ko' -delete
	times_of "$1" -j"$(nproc)" bzImage modules
}
partial_rounds=${BENCH_PARTIAL_ROUNDS:-7}
[[ $partial_rounds =~ ^[1-9][0-9]*$ ]] || { say "BENCH_PARTIAL_ROUNDS must be a positive number, not \"$partial_rounds\""; exit 1; }
declare -a added added_cpu partial_with partial_without
declare -A partial_wall partial_cpu
for ((round = 1; round <= partial_rounds; round++)); do
	order=(with without)
	((round % 2)) || order=(without with)
	say "round $round of $partial_rounds: rebuild what the allowlist can make slower, both ways (about 30 s)"
	for name in "${order[@]}"; do
		times=$(partial_rebuild "$name")
		read -r "partial_wall[$name]" "partial_cpu[$name]" <<< "$times"
	done
	# every step only the allowlist build runs was run again
	while read -r target; do
		[[ -e $tree/obj-bench-with/$target ]] || { say "the rebuild did not make $target again"; exit 1; }
	done < "$tmp/only-with"
	partial_with+=("${partial_wall[with]}") partial_without+=("${partial_wall[without]}")
	added+=("$(echo "${partial_wall[with]} - ${partial_wall[without]}" | bc -l)")
	added_cpu+=("$(echo "${partial_cpu[with]} - ${partial_cpu[without]}" | bc -l)")
	say "round $round: $(printf '%.2f s - %.2f s = %.2f s' "${partial_wall[with]}" "${partial_wall[without]}" "${added[-1]}")"
done

# --- the objects both builds compile cost the same ---------------------------
# The rebuilds leave out the objects both builds compile with the same
# command (most see a different autoconf.h and module.h).  Check that
# they cost the same: compile BENCH_SAMPLE_OBJECTS of them (100 unless
# set, evenly spread over the sorted list) again with each build's own
# command from its .cmd file, in the order with, without, without, with,
# and compare the CPU time.
sample=${BENCH_SAMPLE_OBJECTS:-100}
[[ $sample =~ ^[1-9][0-9]*$ ]] || { say "BENCH_SAMPLE_OBJECTS must be a positive number, not \"$sample\""; exit 1; }
grep '\.o$' "$tmp/made-with" | grep -v -e '\.mod\.o$' -e '^scripts/' -e '^tools/' |
	comm -12 - "$tmp/made-without" | comm -23 - "$tmp/own-code" > "$tmp/shared"
awk -v n="$(wc -l < "$tmp/shared")" -v k="$sample" 'n <= k || NR % int(n / k) == 0' "$tmp/shared" |
	head -n "$sample" > "$tmp/sample"
compile_cpu() {	# compile_cpu NAME OBJECT: CPU seconds of NAME's command for OBJECT
	local cmd times
	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$tree/obj-bench-$1/$(dirname "$2")/.$(basename "$2").cmd")
	times=$(cd "$tree/obj-bench-$1" && wall_and_cpu_seconds "$tmp/compile.log" bash -c "$cmd") ||
		{ say "compiling $2 in obj-bench-$1 again failed"; exit 1; }
	echo "${times#* }"
}
say "the objects both builds compile: $(wc -l < "$tmp/sample") of $(wc -l < "$tmp/shared") compiled again, four times each (about 3 min)"
sample_with=0 sample_without=0
while read -r target; do
	for name in with without without with; do
		cpu=$(compile_cpu "$name" "$target")
		if [[ $name == with ]]; then
			sample_with=$(echo "$sample_with + $cpu" | bc -l)
		else
			sample_without=$(echo "$sample_without + $cpu" | bc -l)
		fi
	done
done < "$tmp/sample"

added_median=$(median "${added[@]}")
without_median=$(median "${full_without[@]}")
compile_median=$(median "${compile_added[@]}")
read -r compile_lowest compile_highest < <(printf '%s\n' "${compile_added[@]}" | sort -g | sed -n '1p;$p' | paste -sd' ')
# estimate COMPILE_ADDED: the paired estimate of the full build's ratio
estimate() {
	echo "($without_median + $added_median + $1) / $without_median" | bc -l
}
# interval LOW HIGH: "LOW-HIGH" to three decimals, or "- (one round)"
interval() {
	[[ $1 == - ]] && { echo "- (one round)"; return; }
	printf '%.3f-%.3f' "$1" "$2"
}
read -r full_mean full_low full_high < <(mean_t95 "${full_ratio[@]}")
read -r incr_mean incr_low incr_high < <(mean_t95 "${incr_ratio[@]}")
# how far apart two full builds of the same config were in this run
spread() {	# spread SECONDS...: largest over smallest, minus one, in %
	(($# > 1)) || { echo "n/a (one build)"; return; }
	printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd' ' |
		awk '{ printf "%.1f%%", ($2 / $1 - 1) * 100 }'
}

joined() {	# joined FORMAT NUMBER...: each NUMBER in FORMAT, comma-separated
	local format=$1
	shift
	# shellcheck disable=SC2059 # the format is the argument
	printf "$format, " "$@" | sed "s/, \$//"
}

echo "Build of the \`hashes\` config with and without the allowlist (MODULE_HASHES; without it, lockdown off too so that module signing stays off; the allowlist's KUnit test module in neither), gcc $(gcc -dumpfullversion), no ccache, $(nproc) cores: $rounds rounds of one build each way in the same run, in alternating order. Times are medians; ratios are the mean of the rounds' ratios with its 95% t-interval, and each round's; CPU is user + system time of the whole make (median of the rounds' ratios). The full builds' ratio and interval are the metric of the goal full-build (tests/bench/goals.tsv)."
echo
echo "| build | with the allowlist s | without s | with / without, mean | 95% interval | each round | CPU with / without | vmlinux relinked (with, without) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf '| full (bzImage modules, from scratch) | %.1f | %.1f | %.3f | %s | %s | %.3f | - |\n' \
	"$(median "${full_with[@]}")" "$without_median" "$full_mean" "$(interval "$full_low" "$full_high")" \
	"$(joined %.3f "${full_ratio[@]}")" "$(median "${full_cpu_ratio[@]}")"
printf '| incremental (touch lib/crc7.c) | %.1f | %.1f | %.3f | %s | %s | - | %s, %s |\n' \
	"$(median "${incr_with[@]}")" "$(median "${incr_without[@]}")" "$incr_mean" "$(interval "$incr_low" "$incr_high")" \
	"$(joined %.3f "${incr_ratio[@]}")" "${relinked[with]}" "${relinked[without]}"
echo
echo "Full builds of one config in this run were up to $(spread "${full_without[@]}") apart without the allowlist and $(spread "${full_with[@]}") with it. Explanatory figures, not the goal's metric: what the allowlist adds where it arises. In both build directories, the $partial_targets targets that only the allowlist build makes or that are built from code MODULE_HASHES or SECURITY_LOCKDOWN_LSM switch on, and every module, are deleted and made again (with vmlinux.o, modpost, the vmlinux link and bzImage after them), $partial_rounds times each way in alternating order; added time is the median difference (CPU: user + system). The compile phase is the time from the start of each full build above to its \`LD      vmlinux.o\` line; added time is the median of the rounds' differences."
echo
echo "| what the allowlist adds (explanatory) | with s | without s | added s | each round s | added CPU s |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '| rebuilt alone (%s targets, the modules, vmlinux) | %.2f | %.2f | %.2f | %s | %.2f |\n' \
	"$partial_targets" "$(median "${partial_with[@]}")" "$(median "${partial_without[@]}")" \
	"$added_median" "$(joined %.2f "${added[@]}")" "$(median "${added_cpu[@]}")"
printf '| compile phase of the full builds (to LD vmlinux.o) | %.2f | %.2f | %.2f | %s | - |\n' \
	"$(median "${compile_with[@]}")" "$(median "${compile_without[@]}")" \
	"$compile_median" "$(joined %.2f "${compile_added[@]}")"
echo
echo "| paired estimate of the full build (explanatory) | without s | + rebuilt alone s | + compile phase s | with / without | with the compile phase of its lowest, highest round |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '| compile phase included | %.1f | %.2f | %.2f | %.3f | %.3f, %.3f |\n' \
	"$without_median" "$added_median" "$compile_median" "$(estimate "$compile_median")" \
	"$(estimate "$compile_lowest")" "$(estimate "$compile_highest")"
echo
echo "The objects both builds compile (without the rebuilt ones), a sample compiled again with each build's own command, in the order with, without, without, with:"
echo
echo "| objects both builds compile | sampled | CPU with s | CPU without s | with / without |"
echo "| --- | --- | --- | --- | --- |"
printf '| compiled again, twice each way | %s of %s | %.1f | %.1f | %.3f |\n' \
	"$(wc -l < "$tmp/sample")" "$(wc -l < "$tmp/shared")" "$sample_with" "$sample_without" \
	"$(echo "$sample_with / $sample_without" | bc -l)"
