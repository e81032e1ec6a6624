#!/bin/bash
# Usage: provenance.sh ORIGIN COMMAND...
#        provenance.sh --commit
# Run COMMAND (a benchmark script and its arguments) and print its
# standard output after a block that says where the figures come from:
#
#   Provenance of this file:
#   - commit: <40 hex digits>[+dirty.<12 hex digits>]
#   - date: <start, UTC> (<seconds> s)
#   - machine: <CPU model>, <N> cores, <memory>, Linux <release> <arch>
#   - gcc: <version>
#   - command: <ORIGIN>: <COMMAND, paths below the repository relative>
#
# "+dirty.X" marks a work tree with changes to tracked files against the
# commit, X being the start of the SHA-256 of `git diff HEAD`: two files
# with the same dirty mark come from the same changes.  ORIGIN says what
# ran the script ("make bench", or "by hand").  When COMMAND fails,
# nothing is printed and its status is returned: a failed run records no
# figures.  COMMAND's standard error passes through.
#
# --commit prints the commit line's value alone (for the TAP files of
# suites whose results a benchmark summary quotes).
#
# tests/bench/summary.sh and tests/docs/check-notes.sh read these lines;
# the block is plain markdown (a line and a list) for people.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)

commit_id() {
	local head dirty
	head=$(git -C "$top" rev-parse HEAD)
	if git -C "$top" diff --quiet HEAD --; then
		echo "$head"
	else
		dirty=$(git -C "$top" diff HEAD -- | sha256sum)
		echo "$head+dirty.${dirty:0:12}"
	fi
}

if [[ ${1-} == --commit ]]; then
	commit_id
	exit 0
fi
(($# >= 2)) || { echo "usage: provenance.sh ORIGIN COMMAND..." >&2; exit 2; }
origin=$1
shift

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory=$(awk '/^MemTotal:/ { printf "%.1f GiB memory", $2 / 1048576; exit }' /proc/meminfo)
command_text=$(printf '%q ' "$@")
command_text=${command_text% }
command_text=${command_text//"$top/"/}
commit=$(commit_id)
start=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
began=$SECONDS

out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
"$@" > "$out" || status=$?
((status == 0)) || exit "$status"

echo "Provenance of this file:"
echo "- commit: $commit"
echo "- date: $start ($((SECONDS - began)) s)"
echo "- machine: ${cpu:-unknown CPU}, $(nproc) cores, $memory, Linux $(uname -r) $(uname -m)"
echo "- gcc: $(gcc -dumpfullversion 2> /dev/null || echo none)"
echo "- command: $origin: $command_text"
echo
cat "$out"
