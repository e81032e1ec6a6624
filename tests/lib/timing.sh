# Wall-clock timing for the benchmarks (tests/bench), sourced.

# wall_seconds LOG COMMAND...: run COMMAND with its output in LOG and
# print its wall time in seconds.  A failing COMMAND ends the script with
# the end of LOG on stderr: a benchmark never times a failed run.
wall_seconds() {
	local log=$1 start end
	shift
	start=$(date +%s.%N)
	if ! "$@" > "$log" 2>&1; then
		echo "${0##*/}: failed: $*" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	end=$(date +%s.%N)
	echo "$end - $start" | bc -l
}
