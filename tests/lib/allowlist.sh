# Allowlist files (include/uapi/linux/module_hashes.h) and the kbuild step
# that writes them, for the host-side tests and benchmarks, sourced by each
# that needs them.
# list_digests LIST [HEXCHARS]: its digests in hex, one a line, nothing for
# an empty list; HEXCHARS is twice the digest size (default 64, SHA-256).
list_digests() {
	local hex i width=${2:-64}
	hex=$(tail -c +21 "$1" | od -An -v -tx1 | tr -d ' \n')
	for ((i = 0; i < ${#hex}; i += width)); do
		echo "${hex:i:width}"
	done
}

# allowlist_step OBJ: the allowlist step as kbuild ran it in the build
# directory OBJ (from its .cmd file), without its output and input and
# with the generator's absolute path; append "-o OUTPUT MODULES_ORDER" to
# run it from any directory.
allowlist_step() {
	local cmd
	cmd=$(sed -n 's/^savedcmd_.module-hashes.bin := //p' "$1/..module-hashes.bin.cmd")
	if [[ $cmd != "scripts/module-hashes "*" -o .module-hashes.bin modules.order" ]]; then
		echo "allowlist_step: $1: unexpected allowlist command: $cmd" >&2
		return 1
	fi
	echo "$1/${cmd% -o .module-hashes.bin modules.order}"
}
