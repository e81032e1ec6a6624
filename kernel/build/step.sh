#!/bin/bash
# Usage: step.sh LABEL ESTIMATE LOG COMMAND [ARG...]
# Run one long build step quietly and tell the user about it: a line when
# it starts ("LABEL (about ESTIMATE); log: LOG"), a line every minute
# while it runs (elapsed time and the last line of the log), a line when
# it ends.  COMMAND's output goes to LOG only; when it fails, the end of
# LOG is shown and step.sh exits with COMMAND's status.  ESTIMATE is free
# text ("6 min on 2 cores"), "-" for none.  Lines start with LABEL, so a
# TAP stream can pass a label starting with "# " to keep them comments.
set -uo pipefail
label=$1
estimate=$2
log=$3
shift 3
mkdir -p "$(dirname "$log")"
if [[ $estimate == - ]]; then
	echo "$label; log: $log"
else
	echo "$label (about $estimate); log: $log"
fi
start=$SECONDS
# failed WHY: the FAILED line and the end of the log.
failed() {
	echo "$label: FAILED ($1) after $((SECONDS - start)) s; end of $log:"
	tail -n 30 "$log" | sed 's/^/    /'
}
"$@" > "$log" 2>&1 &
pid=$!
# Stopped from outside (make interrupted, a CI timeout): stop the command
# and say so like any failure, rather than vanish without a word.
for sig in INT TERM HUP; do
	# shellcheck disable=SC2064 # $sig now, the rest when it fires
	trap "kill $pid 2>/dev/null; wait $pid 2>/dev/null; failed 'stopped by SIG$sig'; exit 1" "$sig"
done
# Wake up often, speak once a minute: a short step ends without delay.
next=60
while kill -0 "$pid" 2>/dev/null; do
	sleep 2
	if (( SECONDS - start >= next )); then
		last=$(tail -n 1 "$log" 2>/dev/null | cut -c1-100)
		echo "$label: still running, $(( (SECONDS - start) / 60 )) min so far${last:+; last line of the log: $last}"
		next=$((next + 60))
	fi
done
wait "$pid"
rc=$?
took=$((SECONDS - start))
if [[ $rc -eq 0 ]]; then
	echo "$label: done in $((took / 60)) min $((took % 60)) s"
else
	failed "status $rc"
fi
exit $rc
