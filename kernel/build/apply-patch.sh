#!/bin/sh
# Usage: apply-patch.sh TREE PATCH
# Apply one git-format patch to TREE.  If any hunk does not apply, nothing
# is changed and the error names the patch, the file and the hunk.
set -eu
tree=$1
p=$2
if ! out=$(patch -d "$tree" -p1 --dry-run --forward --batch < "$p" 2>&1); then
	echo "error: $(basename "$p") does not apply to $tree:" >&2
	printf '%s\n' "$out" | grep -E '^(checking|patching) file|FAILED|failed|malformed|Reversed' >&2
	exit 1
fi
patch -d "$tree" -p1 --forward --batch --silent --no-backup-if-mismatch < "$p"
