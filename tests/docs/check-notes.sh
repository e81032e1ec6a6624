#!/bin/bash
# Usage: check-notes.sh
# NOTES.md must show the verdict table the VM tests actually check.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
table=$("$top/tests/vm/verdict-table.sh")
if grep -qF -- "$table" "$top/NOTES.md"; then
	echo "ok 1 - NOTES.md shows the verdict table of tests/vm/verdicts.tsv"
else
	echo "not ok 1 - NOTES.md shows the verdict table of tests/vm/verdicts.tsv"
	echo "# run tests/vm/verdict-table.sh and paste its output into NOTES.md"
fi
echo "1..1"
