# Kernel trouble on a serial console, for tests/vm/run-vm.sh (sh) and any
# script that wants to look at a console log it kept (sourced; POSIX sh).
#
# console_trouble CONSOLE: print, with their line numbers, the lines of
# CONSOLE that show the kernel warning or crashing: a WARN() ("WARNING:"),
# a BUG()/BUG_ON() or a bad access ("BUG:", "Oops"; KASAN, KFENCE and
# lockdep's "sleeping function" reports start so too), a refcount_t
# overflow or underflow, undefined behaviour UBSAN caught ("UBSAN:"), or
# any stack dump ("Call Trace").  Status 0 when
# there is such a line, 1 when there is none.  The patterns match
# anywhere in a line: a kernel message can start in the middle of a line
# the guest was printing, and a guest that echoes the kernel log (the
# "# log:" lines of vmtest.sh) reports the kernel's trouble too.  The
# kernel must print warnings to the console for this to see a WARN():
# run-vm.sh boots with loglevel=5.
console_trouble() {
	tr -d '\r' < "$1" | grep -nE 'WARNING:|BUG:|Oops|Call Trace|refcount_t|UBSAN:'
}

# console_files OUTPUT DIR: write into DIR each file a guest sent with
# send_file (initramfs/vmtest.sh) in OUTPUT, the guest's output or its
# whole console: DIR/NAME, decoded from the base64 between
# "FILE-BEGIN NAME" and "FILE-END NAME".  A file cut short (no end line)
# is not written.
console_files() {
	tr -d '\r' < "$1" | awk -v dir="$2" '
		/^FILE-BEGIN / { name = $2; file = dir "/" name ".b64"; printf "" > file; next }
		/^FILE-END / { if (name != "") { close(file); print file } name = ""; next }
		name != "" { print >> file }' |
		while read -r b64; do
			base64 -d < "$b64" > "${b64%.b64}" && rm -f "$b64"
		done
	rm -f "$2"/*.b64
}
