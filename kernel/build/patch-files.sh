#!/bin/sh
# Usage: patch-files.sh PATCH...
# Print the tree-relative paths that the given git-format patches touch.
set -eu
sed -n -e 's|^--- a/||p' -e 's|^+++ b/||p' "$@" | sort -u
