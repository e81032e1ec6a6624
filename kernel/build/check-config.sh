#!/bin/sh
# Usage: check-config.sh DOTCONFIG FRAGMENT...
# Kconfig silently drops a request whose dependencies are unmet.  Fail,
# naming each such option, when the resolved .config does not hold the
# value the fragments asked for ("=n" also matches an absent option).  A
# later fragment overrides an earlier one, as it does for Kconfig.
set -eu
dotconfig=$1
shift
awk -F= '
	FNR == NR { if ($0 ~ /^CONFIG_[A-Za-z0-9_]+=/) have[$1] = substr($0, length($1) + 2); next }
	/^CONFIG_[A-Za-z0-9_]+=/ {
		want[$1] = substr($0, length($1) + 2)
		from[$1] = FILENAME
	}
	END {
		for (opt in want) {
			got = (opt in have) ? have[opt] : "n"
			if (got != want[opt]) {
				printf "%s: %s is %s, %s asks for %s\n", DOT, opt, got, from[opt], want[opt]
				bad = 1
			}
		}
		exit bad
	}
' DOT="$dotconfig" "$dotconfig" "$@" >&2
