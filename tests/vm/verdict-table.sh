#!/bin/bash
# Usage: verdict-table.sh
# Print modes.tsv and verdicts.tsv as the Markdown tables that NOTES.md
# shows (tests/docs/check-notes.sh checks that NOTES.md holds exactly this).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
echo "| mode | kernel command line | setup in the guest |"
echo "| --- | --- | --- |"
while IFS=$'\t' read -r name args setup; do
	[[ -z $name || $name == \#* ]] && continue
	[[ $args == - ]] && args=none || args="\`${args//,/ }\`"
	[[ $setup == - ]] && setup=none || setup="\`${setup//,/ then }\`"
	echo "| $name | $args | $setup |"
done < "$here/modes.tsv"
echo
echo "| variant | modes | module | paths | errno | taint | module taint | kernel log |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
while IFS=$'\t' read -r variant modes module paths errno taint modtaint log; do
	[[ -z $variant || $variant == \#* ]] && continue
	[[ $log == - ]] && log="(nothing)" || log="\`$log\`"
	echo "| $variant | ${modes//,/, } | $module | ${paths//,/, } | $errno | $taint | $modtaint | $log |"
done < "$here/verdicts.tsv"
# How many behaviours that is: the distinct (module file × mode × path)
# cases, then what they expand to over the variants.
cases=$(while IFS=$'\t' read -r variant modes module paths rest; do
	[[ -z $variant || $variant == \#* ]] && continue
	for mode in ${modes//,/ }; do
		for path in ${paths//,/ }; do
			echo "$variant $module $mode $path"
		done
	done
done < "$here/verdicts.tsv")
echo
echo "The table checks $(cut -d' ' -f2- <<< "$cases" | sort -u | wc -l) distinct (module file ×" \
	"mode × path) cases, $(wc -l <<< "$cases") loads over the $(cut -d' ' -f1 <<< "$cases" | sort -u | wc -l) variants."
