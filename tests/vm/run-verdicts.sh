#!/bin/bash
# Usage: run-verdicts.sh [--only check|rest] BUILD_DIR KERNEL...
# Run the loads listed in verdicts.tsv, one VM boot each, on the named
# kernels: KERNEL is a published kernel, BUILD_DIR/out/KERNEL, either a
# variant (hashes, hashes+sig, sig, nosig, btf, debug) or pristine-VARIANT,
# the unpatched tree built with that variant's config.  A row of variant V
# runs on kernel V and on pristine-V, each only if named (hashes+sig's
# also on debug).  A named kernel
# that is not built (bzImage, modules.cpio.gz, mods.sha256) fails its
# rows: nothing disappears.
#
# Prints TAP as it goes, in table order (two boots at a time), the plan
# first:
#  - one test per load and kernel: the guest's verdict (initramfs/vmtest.sh
#    check_load, which also checks the digest a refusal logs against the
#    host's, see expected_digest), failed too when the boot did not end
#    cleanly (tests/vm/run-vm.sh: qemu's status, the guest's end marker,
#    no kernel warning or crash on the console);
#  - on the patched sig and nosig kernels, one more per load: the same
#    verdict and log lines as the pristine kernel gave, as committed in
#    tests/vm/pristine-golden.tsv;
#  - when a pristine kernel runs, its observations are written to
#    BUILD_DIR/test-results/pristine-golden.tsv, and one last test checks
#    that they are the committed file's.
# --only check runs the loads that make check needs, --only rest the
# others (make check-full), so that together they are the whole table:
# "rest" are the loads whose mode enforces nothing (none, ima-log) and
# the loads by kmod's insmod of an uncompressed module, which makes the
# same finit_module() call with the same bytes as the finit path.
# VM_ONLY=ERE runs only the loads whose id ("variant mode module path")
# matches (development); VM_GOLDEN=FILE compares with FILE instead of
# tests/vm/pristine-golden.tsv; VM_PARALLEL=N boots N at a time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
only=
if [[ ${1-} == --only ]]; then
	only=${2-}
	[[ $only == check || $only == rest ]] || { echo "run-verdicts.sh: --only check or --only rest" >&2; exit 2; }
	shift 2
fi
[[ $# -ge 2 ]] || { echo "usage: run-verdicts.sh [--only check|rest] BUILD_DIR KERNEL..." >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
kernels=" $* "
base=$build/initramfs/base.cpio.gz
results=$build/test-results/verdicts
golden=${VM_GOLDEN:-$here/pristine-golden.tsv}
golden_out=$build/test-results/pristine-golden.tsv
rm -rf "$results"
mkdir -p "$results"

# The variants whose patched kernels must behave exactly like the pristine
# ones (the series changes nothing for a kernel without the allowlist);
# the others have no pristine counterpart to compare with.
golden_variants=" sig nosig "

declare -A mode_args mode_setup
while IFS=$'\t' read -r name args setup; do
	[[ -z $name || $name == \#* ]] && continue
	mode_args[$name]=${args//,/ }
	[[ $args == - ]] && mode_args[$name]=
	mode_setup[$name]=$setup
done < "$here/modes.tsv"

# The kernels a row of VARIANT runs on: its patched kernel, the pristine
# one, and for hashes+sig the debug kernel (hashes+sig under KASAN,
# lockdep and panic_on_warn, kernel/configs/debug.config).
row_kernels() {
	echo "$1 pristine-$1"
	[[ $1 != hashes+sig ]] || echo debug
}

# Every kernel named must be one the table has rows for.
variants=" $(grep -v '^#' "$here/verdicts.tsv" | cut -f1 | sort -u |
	while read -r v; do row_kernels "$v"; done | tr '\n' ' ') "
for kernel in $kernels; do
	[[ $variants == *" $kernel "* ]] ||
		{ echo "Bail out! no rows in verdicts.tsv for kernel $kernel"; exit 1; }
done

# tier MODE MODULE PATH: check or rest (see --only above).
tier() {
	if [[ $1 == none || $1 == ima-log || ($3 == insmod && $2 == *.ko) ]]; then
		echo rest
	else
		echo check
	fi
}

# Expand the table into one job per load and named kernel.
loads=()
while IFS=$'\t' read -r variant modes module paths errno taint modtaint log; do
	[[ -z $variant || $variant == \#* ]] && continue
	for mode in ${modes//,/ }; do
		[[ -v mode_args[$mode] ]] || { echo "Bail out! unknown mode $mode in verdicts.tsv" ; exit 1; }
		for path in ${paths//,/ }; do
			id="$variant $mode $module $path"
			[[ -z ${VM_ONLY-} || $id =~ $VM_ONLY ]] || continue
			[[ -z $only || $(tier "$mode" "$module" "$path") == "$only" ]] || continue
			for kernel in $(row_kernels "$variant"); do
				[[ $kernels == *" $kernel "* ]] || continue
				loads+=("$(printf "%s\x1f" "$kernel" "$mode" "$module" "$path" "$errno" "$taint" "$modtaint" "$log")$id")
			done
		done
	done
done < "$here/verdicts.tsv"

job_field() {	# job_field I FIELD: one field of job I (kernel ... id)
	local kernel mode module path errno taint modtaint log id
	IFS=$'\x1f' read -r kernel mode module path errno taint modtaint log id <<< "${loads[$1]}"
	echo "${!2}"
}

# The plan: one test per job, one more per job on a kernel compared with
# the golden file, and the golden file itself when a pristine kernel runs.
plan=${#loads[@]}
pristine_run=
for i in "${!loads[@]}"; do
	[[ $golden_variants == *" $(job_field "$i" kernel) "* ]] && plan=$((plan + 1))
done
[[ $kernels == *" pristine-"* ]] && { pristine_run=yes; plan=$((plan + 1)); }
tap_plan "$plan"

missing_build() {	# missing_build KERNEL: what of its build is missing, if anything
	local f
	for f in bzImage modules.cpio.gz mods.sha256; do
		[[ -f $build/out/$1/$f ]] || { echo "$build/out/$1/$f is missing"; return; }
	done
}

# expected_digest KERNEL MODULE PATH: the sha256 the kernel names if it
# refuses this load, from the host's manifest of the guest's files
# (initramfs/build-modules.sh), "-" if there is none.  Which bytes are
# hashed depends on the path (kernel/patches/0010, 0011):
#  - finit, init: the file as read, by IMA (MODULE_CHECK appraisal of
#    finit_module()) or as the init_module() buffer (modload passes the
#    file's bytes);
#  - overwrite, parallel: finit_module() of the file (overwrite: of the
#    copy that holds the file's bytes at the second load);
#  - finit-compressed: the compressed file as read: IMA tries the
#    decompressed module too, but a refusal names the file's digest;
#  - insmod, modprobe, modprobe-force: kmod (Debian's, version 30)
#    decompresses a compressed module in user space and calls
#    init_module() with the result, and calls finit_module() on an
#    uncompressed file: either way the module's uncompressed bytes.
#    The modprobes load the installed module of that name, not the file
#    in /mods;
#  - ima-WHOSE-VIA: a copy of the file with an IMA signature in its
#    security.ima, which leaves its bytes alone, loaded through VIA (one
#    of the above).
expected_digest() {
	local manifest=$build/out/$1/mods.sha256 file=/mods/$2 name
	if [[ $3 == modprobe* ]]; then
		name=${2%%.*}
		name=${name%%-*}
		file=$(awk -v n="$name" '$1 ~ "^/lib/modules/.*/" n "\\.ko" { print $1; exit }' "$manifest")
	fi
	awk -v f="$file" -v p="${3##ima-*-}" '
		$1 == f { print (p == "insmod" || p ~ /^modprobe/) ? $3 : $2; found = 1 }
		END { if (!found) print "-" }
	' "$manifest"
}

run_job() {	# run_job I: boot job I; leaves results/I/{guest.sh,console.log,tap,vm-rc}
	local kernel mode module path errno taint modtaint log id n=$1
	IFS=$'\x1f' read -r kernel mode module path errno taint modtaint log id <<< "${loads[$n]}"
	local dir=$results/$n rc=0
	{
		echo '#!/bin/sh'
		echo '. /bin/vmtest.sh'
		printf 'setup_mode %q\n' "${mode_setup[$mode]}"
		printf 'check_load %q %q %q %q %q %q %q %q\n' \
			"$kernel, $mode: $module via $path -> $errno taint $taint" \
			"$path" "/mods/$module" "$errno" "$taint" "$modtaint" "$log" \
			"$(expected_digest "$kernel" "$module" "$path")"
	} > "$dir/guest.sh"
	"$here/run-vm.sh" "$build/out/$kernel" "$base" "$dir/guest.sh" "$dir/console.log" \
		${mode_args[$mode]} > "$dir/tap" 2>&1 || rc=$?
	echo "$rc" > "$dir/vm-rc"
}

# observation I: what the guest saw for job I, as compared between
# kernels: its "# observed:" and "# log:" lines, without what changes from
# boot to boot or with the initramfs's other files: the printk timestamp,
# an audit record's time and serial number, the process id, the inode.
observation() {
	[[ -f $results/$1/tap ]] || return 0
	grep -E '^# (observed|log):' "$results/$1/tap" |
		sed -E 's/\[ *[0-9]+\.[0-9]+\] //; s/audit\([0-9]+\.[0-9]+:[0-9]+\)/audit(TIME:SERIAL)/; s/ pid=[0-9]+ / pid=PID /; s/ ino=[0-9]+ / ino=INO /' || true
}

golden_entry() {	# golden_entry ID: the committed observation of a row
	[[ -f $golden ]] || return 0
	awk -F '\t' -v id="$1" '$1 == id { print $2 }' "$golden"
}

report_job() {	# report_job I: the TAP lines of job I, once it is done
	local kernel mode module path errno taint modtaint log id
	IFS=$'\x1f' read -r kernel mode module path errno taint modtaint log id <<< "${loads[$1]}"
	local dir=$results/$1 desc="$kernel, $mode: $module via $path -> $errno taint $taint"
	local line obs expected
	if [[ -f $dir/missing ]]; then
		tap 1 "$desc (kernel not built)"
		echo "# $(cat "$dir/missing")"
	else
		line=$(grep -E '^(not )?ok ' "$dir/tap" | head -n 1 || true)
		if [[ -z $line ]]; then
			tap 1 "$desc (no result from the guest)"
		elif [[ $(cat "$dir/vm-rc" 2>/dev/null) != 0 ]]; then
			tap 1 "$desc (the guest said: ${line%% [0-9]*}; the boot did not end cleanly)"
		elif [[ $line == ok* ]]; then
			tap 0 "$desc"
		else
			tap 1 "$desc"
		fi
		grep -E '^# ' "$dir/tap" | grep -v '^# log: ' || true
	fi
	obs=$(observation "$1")
	if [[ $kernel == pristine-* ]]; then
		if [[ -n $obs ]]; then
			sed "s/^/$id\t/" <<< "$obs"
		else
			printf '%s\t# no result\n' "$id"
		fi >> "$golden_out.tmp"
	elif [[ $golden_variants == *" $kernel "* ]]; then
		expected=$(golden_entry "$id")
		if [[ -n $obs && $obs == "$expected" ]]; then
			tap 0 "same verdict and log as the pristine kernel ($(basename "$golden")): $id"
		else
			tap 1 "same verdict and log as the pristine kernel ($(basename "$golden")): $id"
			if [[ -z $expected ]]; then
				echo "# no entry for this row in $golden"
			else
				diff -u --label "$(basename "$golden")" --label "$kernel" \
					<(echo "$expected") <(echo "$obs") | sed 's/^/# /' || true
			fi
		fi
	fi
}

# The comment that heads the golden file, so that the committed file is a
# copy of the one a run writes (comment lines are not compared).
golden_header() {
	cat <<'EOF'
# What the pristine (unpatched) kernels observed for each load of
# tests/vm/verdicts.tsv; the patched sig and nosig kernels must observe
# the same (tests/vm/run-verdicts.sh).  One line per "# observed:" or
# "# log:" line of the guest (timestamps, audit stamps, pids, inodes masked),
# after the row id (variant mode module path) and a tab.  Regenerate
# after a change of the table or of the kernel, and review the diff:
#   tests/vm/run-verdicts.sh build pristine-sig pristine-nosig
#   cp build/test-results/pristine-golden.tsv tests/vm/pristine-golden.tsv
EOF
}

# check_golden: the pristine kernels' observations against the committed
# ones, for the rows they ran: all rows of their variants, or those that
# VM_ONLY selected.
check_golden() {
	local committed=$results/golden-committed desc="pristine results equal ${golden#"$top"/}"
	local variants=" " kernel
	for kernel in $kernels; do
		[[ $kernel == pristine-* ]] && variants+="${kernel#pristine-} "
	done
	{ golden_header; cat "$golden_out.tmp" 2>/dev/null; } > "$golden_out"
	rm -f "$golden_out.tmp"
	if [[ ! -f $golden ]]; then
		tap 1 "$desc"
		echo "# $golden does not exist; see its generation in $golden_out"
		return
	fi
	grep -v '^#' "$golden_out" > "$results/golden-ran" || true
	if [[ -n ${VM_ONLY-} ]]; then
		cut -f1 "$results/golden-ran" | sort -u > "$results/golden-ids"
		awk -F '\t' 'FNR == NR { ran[$0] = 1; next } $1 in ran' "$results/golden-ids" "$golden"
	else
		awk -F '\t' -v v="$variants" '/^#/ { next } { split($1, f, " ") } index(v, " " f[1] " ")' "$golden"
	fi > "$committed"
	local rc=0
	diff -u --label "$golden" --label "$golden_out" "$committed" "$results/golden-ran" > "$results/golden.diff" || rc=$?
	tap "$rc" "$desc"
	sed 's/^/# /' "$results/golden.diff"
}

# Boot two at a time (the machines have two cores) and report each job as
# soon as it and all before it are done, so that the TAP streams in table
# order.  Jobs whose kernel is not built are done at once.
rm -f "$golden_out.tmp"
next=0
report_done() {
	while (( next < ${#loads[@]} )) && [[ -f $results/$next/done ]]; do
		report_job "$next"
		next=$((next + 1))
	done
}
parallel=${VM_PARALLEL:-$(nproc)}
for i in "${!loads[@]}"; do
	mkdir -p "$results/$i"
	problem=$(missing_build "$(job_field "$i" kernel)")
	if [[ -n $problem ]]; then
		echo "$problem" > "$results/$i/missing"
		touch "$results/$i/done"
		report_done
		continue
	fi
	while (( $(jobs -rp | wc -l) >= parallel )); do
		wait -n || true
		report_done
	done
	# "done" even if run_job stopped half way: its row then fails.
	{ run_job "$i" || true; touch "$results/$i/done"; } &
done
while (( $(jobs -rp | wc -l) > 0 )); do
	wait -n || true
	report_done
done
wait
report_done
[[ -z $pristine_run ]] || check_golden
