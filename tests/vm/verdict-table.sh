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
