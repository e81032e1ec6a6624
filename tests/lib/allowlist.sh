# Reading an allowlist file (include/uapi/linux/module_hashes.h) in the
# host-side tests, sourced by each that needs it.
# list_digests LIST [HEXCHARS]: its digests in hex, one a line, nothing for
# an empty list; HEXCHARS is twice the digest size (default 64, SHA-256).
list_digests() {
	local hex i width=${2:-64}
	hex=$(tail -c +21 "$1" | od -An -v -tx1 | tr -d ' \n')
	for ((i = 0; i < ${#hex}; i += width)); do
		echo "${hex:i:width}"
	done
}
