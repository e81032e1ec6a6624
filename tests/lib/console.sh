# Kernel trouble on a serial console, for tests/vm/run-vm.sh (sh) and any
# script that wants to look at a console log it kept (sourced; POSIX sh).
#
# console_trouble CONSOLE: print, with their line numbers, the lines of
# CONSOLE that show the kernel warning or crashing: a WARN() ("WARNING:"),
# a BUG()/BUG_ON() or a bad access ("BUG:", "Oops"), a refcount_t
# overflow or underflow, or any stack dump ("Call Trace").  Status 0 when
# there is such a line, 1 when there is none.  The patterns match
# anywhere in a line: a kernel message can start in the middle of a line
# the guest was printing, and a guest that echoes the kernel log (the
# "# log:" lines of vmtest.sh) reports the kernel's trouble too.  The
# kernel must print warnings to the console for this to see a WARN():
# run-vm.sh boots with loglevel=5.
console_trouble() {
	tr -d '\r' < "$1" | grep -nE 'WARNING:|BUG:|Oops|Call Trace|refcount_t'
}
