#!/bin/bash
# Usage: run-verdicts.sh BUILD_DIR
# Run every load listed in verdicts.tsv, one VM boot each, on the patched
# kernel of its variant and on the pristine kernel of that variant where
# BUILD_DIR/out/pristine-VARIANT exists.  Prints TAP: one test per load
# and kernel, plus one per load that checks the pristine and the patched
# kernel gave the same verdict and the same log lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
base=$build/initramfs/base.cpio.gz
results=$build/test-results/verdicts
rm -rf "$results"
mkdir -p "$results"

declare -A mode_args mode_setup
while IFS=$'\t' read -r name args setup; do
	[[ -z $name || $name == \#* ]] && continue
	mode_args[$name]=${args//,/ }
	[[ $args == - ]] && mode_args[$name]=
	mode_setup[$name]=$setup
done < "$here/modes.tsv"

# Expand the table into one job per load and kernel.
loads=()
while IFS=$'\t' read -r variant modes module paths errno taint modtaint log; do
	[[ -z $variant || $variant == \#* ]] && continue
	for mode in ${modes//,/ }; do
		[[ -v mode_args[$mode] ]] || { echo "Bail out! unknown mode $mode in verdicts.tsv" ; exit 1; }
		for path in ${paths//,/ }; do
			id="$variant $mode $module $path"
			# VM_ONLY=ERE runs only the loads whose id matches (development).
			[[ -z ${VM_ONLY-} || $id =~ $VM_ONLY ]] || continue
			for kernel in "$variant" "pristine-$variant"; do
				[[ -f $build/out/$kernel/bzImage ]] || continue
				loads+=("$(printf "%s\x1f" "$kernel" "$mode" "$module" "$path" "$errno" "$taint" "$modtaint" "$log")$id")
			done
		done
	done
done < "$here/verdicts.tsv"

run_job() {
	local kernel mode module path errno taint modtaint log id n=$1
	IFS=$'\x1f' read -r kernel mode module path errno taint modtaint log id <<< "$2"
	local dir=$results/$n
	mkdir -p "$dir"
	{
		echo '#!/bin/sh'
		echo '. /bin/vmtest.sh'
		printf 'setup_mode %q\n' "${mode_setup[$mode]}"
		printf 'check_load %q %q %q %q %q %q %q\n' \
			"$kernel, $mode: $module via $path -> $errno taint $taint" \
			"$path" "/mods/$module" "$errno" "$taint" "$modtaint" "$log"
	} > "$dir/guest.sh"
	"$here/run-vm.sh" "$build/out/$kernel" "$base" "$dir/guest.sh" "$dir/console.log" \
		${mode_args[$mode]} > "$dir/tap" 2>&1 || true
	echo "$kernel" > "$dir/kernel"
	echo "$id" > "$dir/id"
}

# Two boots at a time: the machines have two cores.
parallel=${VM_PARALLEL:-$(nproc)}
for i in "${!loads[@]}"; do
	while (( $(jobs -rp | wc -l) >= parallel )); do
		wait -n
	done
	run_job "$i" "${loads[$i]}" &
done
wait

# Report in table order, renumbered.
n=0
declare -A observed
for i in "${!loads[@]}"; do
	dir=$results/$i
	id=$(cat "$dir/id")
	kernel=$(cat "$dir/kernel")
	line=$(grep -E '^(not )?ok ' "$dir/tap" | head -n 1 || true)
	n=$((n + 1))
	if [[ -z $line ]]; then
		echo "not ok $n - $kernel: $id (no result from the guest)"
	else
		echo "${line/ 1 - / $n - }"
	fi
	grep -E '^# ' "$dir/tap" | grep -v '^# log: ' || true
	obs=$(grep -E '^# (observed|log):' "$dir/tap" | sed -E 's/\[ *[0-9]+\.[0-9]+\] //' || true)
	key=${id}
	if [[ $kernel == pristine-* ]]; then
		n=$((n + 1))
		if [[ ${observed[$key]-} == "$obs" && -n $obs ]]; then
			echo "ok $n - same verdict and log on patched and pristine: $id"
		else
			echo "not ok $n - patched and pristine differ: $id"
			diff <(echo "${observed[$key]-}") <(echo "$obs") | sed 's/^/# /' || true
		fi
	else
		observed[$key]=$obs
	fi
done
echo "1..$n"
