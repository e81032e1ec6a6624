# Reading a tests/mutations/ROW.diff (format: tests/mutations/README),
# sourced by run-mutations.sh and check-rows.sh.

# mutation_header DIFF KEY: the values of KEY in the header of DIFF (the
# "key: value" lines before the first "--- "), one a line
mutation_header() {
	awk -v key="$2" '/^--- / { exit } index($0, key ": ") == 1 { print substr($0, length(key) + 3) }' "$1"
}

# mutation_part DIFF TREE: the file diffs of DIFF under TREE/ (linux or
# project), for patch -p2 in that tree
mutation_part() {
	awk -v tree="$2" '
		/^--- a\// && (getline plus) > 0 {
			keep = index($0, "--- a/" tree "/") == 1
			if (keep) { print; print plus }
			next
		}
		/^--- / { keep = 0 }
		keep
	' "$1"
}
