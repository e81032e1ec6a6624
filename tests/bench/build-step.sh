#!/bin/bash
# Usage: build-step.sh GENERATOR SIGN_FILE MODULES_DIR
# What the allowlist adds to a build, against what it replaces, on the
# modules of MODULES_DIR (its modules.order, "dir/x.o" lines relative to
# it; tests/bench/debian-modules.sh makes one from Debian's kernel), as a
# markdown table.  Every time is a ratio to the hashing limit measured in
# the same run: the modules' bytes divided by OpenSSL's SHA-256 speed on
# one core (openssl speed) times the number of cores (for two digests per
# module, of the modules' bytes and their stripped copies').  The steps
# that take under a second are timed five times: their median is given,
# and the lowest and the highest of the five as ratios.  Rows:
#  - GENERATOR (scripts/module-hashes) with one digest per module, and
#    with two (as built and stripped), threads = cores;
#  - sha256sum over the same files, one process per core;
#  - a shell loop with one openssl and one hexdump per module, the way the
#    series we started from made its list;
#  - the stripped copies modfinal makes (strip --strip-debug per module,
#    one process per core): build-time CPU, outside the link;
#  - what the allowlist replaces: SIGN_FILE (scripts/sign-file) over
#    every module with a 4096-bit RSA key and SHA-512, as Debian signs,
#    one process per core.
# Progress lines go to stderr; the table to stdout.
set -euo pipefail
generator=$(realpath "$1")
sign_file=$(realpath "$2")
dir=$(realpath "$3")
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say() { echo "build-step.sh: $*" >&2; }
. "$(dirname "$0")/../lib/timing.sh"
. "$(dirname "$0")/../lib/allowlist.sh"

cd "$dir"
sed 's/\.o$/.ko/' modules.order > "$tmp/files"
count=$(wc -l < "$tmp/files")
# total_bytes LISTFILE: the summed size of the files LISTFILE names
total_bytes() {
	xargs -a "$1" -d '\n' stat -c %s | awk '{ n += $1 } END { print n }'
}
bytes=$(total_bytes "$tmp/files")

# seconds COMMAND...: wall time of COMMAND, which must succeed
seconds() {
	wall_seconds "$tmp/command.log" "$@"
}
# median_seconds COMMAND...: "MEDIAN LOWEST HIGHEST" wall time of five
# runs, for the steps that take well under a second, where one run is
# mostly noise; the lowest and highest are the interval the goals of
# tests/bench/goals.tsv judge these steps on
median_seconds() {
	local _ times=()
	for _ in 1 2 3 4 5; do
		times+=("$(seconds "$@")")
	done
	echo "$(median "${times[@]}") $(printf '%s\n' "${times[@]}" | sort -g | sed -n '1p;$p' | paste -sd' ')"
}

say "OpenSSL SHA-256 speed on one core (about 5 s)"
# The 16384-byte column of "openssl speed -evp sha256", in kB/s (1000 bytes)
speed=$(openssl speed -seconds 3 -bytes 16384 -evp sha256 2> /dev/null |
	awk '/^sha256/ { v = $NF; sub(/k$/, "", v); print v * 1000 }')
[[ -n $speed ]] || { say "openssl speed printed no sha256 figure"; exit 1; }
limit=$(echo "$bytes / ($speed * $cores)" | bc -l)

# per_module LIST: the list's digest bytes over the module count
per_module() {
	echo $(($(list_digest_bytes "$1") / count))
}

rows=()
# row NAME TIMES [LIMIT]: TIMES is one run's seconds, or "MEDIAN LOWEST
# HIGHEST" of five (median_seconds); LIMIT is that of the bytes the step
# hashes
row() {
	local median lowest highest range=- lim=${3:-$limit}
	read -r median lowest highest <<< "$2"
	is_number "$median" || { say "$1: no time (its command failed)"; exit 1; }
	if [[ -n $highest ]]; then
		range=$(printf '%.2f-%.2f' "$(echo "$lowest / $lim" | bc -l)" "$(echo "$highest / $lim" | bc -l)")
	fi
	rows+=("$(printf '| %s | %.2f | %.2f | %s |' "$1" "$median" "$(echo "$median / $lim" | bc -l)" "$range")")
}

say "stripped copies, strip --strip-debug per module ($count modules, about 30 s)"
strip_pass() {
	xargs -a "$tmp/files" -d '\n' -P "$cores" -I{} strip --strip-debug -o {}.stripped {}
}
row "stripped copies (modfinal: one strip per module, $cores processes)" "$(seconds strip_pass)"
sed 's/$/.stripped/' "$tmp/files" > "$tmp/stripped-files"
stripped_bytes=$(total_bytes "$tmp/stripped-files")
# two digests per module hash the modules and their stripped copies
limit_both=$(echo "($bytes + $stripped_bytes) / ($speed * $cores)" | bc -l)

say "the generator"
row "allowlist step, -f built (one digest per module)" \
	"$(median_seconds "$generator" -j "$cores" -a sha256 -f built -o "$tmp/list1" modules.order)"
row "allowlist step, -f built,stripped (two digests per module; limit of both forms' bytes)" \
	"$(median_seconds "$generator" -j "$cores" -a sha256 -f built,stripped -o "$tmp/list2" modules.order)" \
	"$limit_both"

say "sha256sum"
row "sha256sum, $cores processes" \
	"$(median_seconds xargs -a "$tmp/files" -d '\n' -P "$cores" -n 200 sha256sum)"

say "a shell loop, one openssl and one hexdump per module (about 1 min)"
shell_loop() {
	local ko
	while read -r ko; do
		openssl dgst -sha256 -binary "$ko" | hexdump -v -e '"0x" 1/1 "%02x, "'
		echo
	done < "$tmp/files"
}
row "shell loop, a process per module" "$(seconds shell_loop)"

say "signing every module, RSA-4096 and SHA-512 (a few minutes)"
openssl req -new -nodes -utf8 -sha512 -days 36500 -batch -x509 \
	-subj "/CN=bench signing key" -newkey rsa:4096 \
	-keyout "$tmp/key.pem" -outform DER -out "$tmp/cert.der" 2> /dev/null
mkdir "$tmp/signed"
# copies to sign in place, made before the clock starts
(cd "$dir" && xargs -a "$tmp/files" -d '\n' cp --parents -t "$tmp/signed")
sign_all() {
	(cd "$tmp/signed" && xargs -a "$tmp/files" -d '\n' -P "$cores" -I{} \
		"$sign_file" sha512 "$tmp/key.pem" "$tmp/cert.der" {})
}
row "sign-file, RSA-4096, SHA-512, $cores processes" "$(seconds sign_all)"

echo "Modules: $count, $bytes bytes ($stripped_bytes stripped); $cores cores; OpenSSL SHA-256: $(printf '%.0f' "$(echo "$speed / 1000000" | bc -l)") MB/s per core; hashing limit $(printf '%.3f' "$limit") s ($(printf '%.3f' "$limit_both") s for both forms)."
echo "List bytes per module at SHA-256: $(per_module "$tmp/list1") with one digest (-f built), $(per_module "$tmp/list2") with two (-f built,stripped)."
echo
echo "| step | seconds | × hashing limit | × hashing limit, lowest-highest of five runs |"
echo "| --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
