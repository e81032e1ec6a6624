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

# wall_and_cpu_seconds LOG COMMAND...: like wall_seconds, but print "WALL
# CPU", CPU being the user and system seconds of COMMAND and every process
# it waited for: added work, where the wall time also counts a longer
# critical path.  On a virtual machine whose host is busy it is about as
# noisy as the wall time (a vCPU the host takes away is charged to
# whatever was running).
wall_and_cpu_seconds() {
	local log=$1 times real user sys TIMEFORMAT='%R %U %S'
	shift
	if ! times=$( { time "$@" > "$log" 2>&1; } 2>&1); then
		echo "${0##*/}: failed: $*" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	read -r real user sys <<< "$times"
	echo "$real $(echo "$user + $sys" | bc -l)"
}

# median NUMBER...: the middle one as given, or the mean of the two middle
# ones (printf, not print: awk prints a computed 1 000 000 or more as
# 1.90419e+06, which bc cannot read).  No NUMBER is an error.
median() {
	(($#)) || { echo "${0##*/}: median of nothing" >&2; return 1; }
	printf '%s\n' "$@" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# is_number WORD: WORD is a plain non-negative decimal (what bc prints),
# not an empty figure or an error message in its place.
is_number() {
	[[ $1 =~ ^[0-9]*\.?[0-9]+$ ]]
}

# mean_t95 NUMBER...: "MEAN LOW HIGH", the mean and its two-sided 95%
# interval from Student's t: MEAN -/+ t(0.975, n - 1) * sd / sqrt(n), sd
# the sample standard deviation.  The t values are tabulated for 1 to 30
# degrees of freedom; above that the value for 30 (2.042) is used, a
# little wider than the true one.  One NUMBER has no interval: LOW and
# HIGH are then "-".
mean_t95() {
	(($#)) || { echo "${0##*/}: mean of nothing" >&2; return 1; }
	printf '%s\n' "$@" | awk '
		BEGIN {
			split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
				"2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
				"2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
		}
		{ v[NR] = $1; sum += $1 }
		END {
			mean = sum / NR
			if (NR == 1) { printf "%f - -\n", mean; exit }
			for (i = 1; i <= NR; i++) ss += (v[i] - mean) ^ 2
			df = NR - 1
			half = t[df > 30 ? 30 : df] * sqrt(ss / df) / sqrt(NR)
			printf "%f %f %f\n", mean, mean - half, mean + half
		}'
}
