# TAP output for the host-side test scripts (bash), sourced by each.
# tap STATUS DESCRIPTION: "ok N - ..." when STATUS is 0, else "not ok N - ...";
# tap_done: the plan line, after the last test (for a count known only then).
tap_n=0

tap() {
	tap_n=$((tap_n + 1))
	if [[ $1 == 0 ]]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
	fi
}

tap_done() {
	echo "1..$tap_n"
}

# tap_plan N: declare the plan first, so that a runner notices results
# that never came (tests/run-all.sh compares the count with it).
tap_plan() {
	echo "1..$1"
}
