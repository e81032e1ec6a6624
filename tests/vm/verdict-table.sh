#!/bin/bash
# Usage: verdict-table.sh
# Print verdicts.tsv as the Markdown table that NOTES.md shows (a test
# checks that NOTES.md holds exactly this output).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
declare -A args
while IFS=$'\t' read -r name arg; do
	[[ -z $name || $name == \#* ]] && continue
	args[$name]=$arg
done < "$here/modes.tsv"
echo "| variant | mode | module | paths | errno | taint | module taint | kernel log |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
while IFS=$'\t' read -r variant modes module paths errno taint modtaint log; do
	[[ -z $variant || $variant == \#* ]] && continue
	shown=
	for m in ${modes//,/ }; do
		a=${args[$m]}
		[[ $a == - ]] && a=none || a="\`${a//,/ }\`"
		shown+="${shown:+, }$a"
	done
	[[ $log == - ]] && log="(nothing)" || log="\`$log\`"
	echo "| $variant | $shown | $module | ${paths//,/, } | $errno | $taint | $modtaint | $log |"
done < "$here/verdicts.tsv"
