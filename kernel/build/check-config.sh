#!/bin/sh
# Usage: check-config.sh DOTCONFIG FRAGMENT...
# Kconfig silently drops a request whose dependencies are unmet.  Fail,
# naming each such option, when the resolved .config does not hold the
# value a fragment asked for ("=n" also matches an absent option).
set -eu
dotconfig=$1
shift
awk -F= '
	FNR == NR { if ($0 ~ /^CONFIG_[A-Za-z0-9_]+=/) have[$1] = substr($0, length($1) + 2); next }
	/^CONFIG_[A-Za-z0-9_]+=/ {
		want = substr($0, length($1) + 2)
		got = ($1 in have) ? have[$1] : "n"
		if (got != want) {
			printf "%s: %s is %s, %s asks for %s\n", DOT, $1, got, FILENAME, want
			bad = 1
		}
	}
	END { exit bad }
' DOT="$dotconfig" "$dotconfig" "$@" >&2
