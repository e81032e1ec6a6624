#!/bin/sh
# Guest side of a distro boot (installed as /usr/local/sbin/distro-test by
# make-disk.sh): wait for the end of the boot, then write to the console
# what the system looks like: its state, CPUs, boot time, modules, the
# IMA log's start and the kernel log.  Files go out base64-encoded between
# "FILE-BEGIN NAME" and "FILE-END NAME" lines (tests/lib/console.sh's
# console_files writes them back on the host); short facts as
# "distro-test: KEY: VALUE" lines.  The last line is "distro-test: done".

# fact KEY VALUE...
fact() {
	key=$1
	shift
	echo "distro-test: $key: $*"
}

# send NAME COMMAND...: COMMAND's output (and errors) as the file NAME.
send() {
	name=$1
	shift
	echo "FILE-BEGIN $name"
	"$@" 2>&1 | base64
	echo "FILE-END $name"
}

state=$(systemctl is-system-running --wait)
fact state "$state"
# The end of the boot is not the end of module loading: udev's coldplug
# goes on (nothing waits for systemd-udev-settle), and a driver may load
# another module later.  Wait for udev's queue, then for /proc/modules to
# stay the same for 5 s (60 s at most).
udevadm settle --timeout=120
last=
stable=0
for _ in $(seq 60); do
	now=$(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')
	if [ "$now" = "$last" ]; then
		stable=$((stable + 1))
		[ "$stable" -ge 5 ] && break
	else
		stable=0
	fi
	last=$now
	sleep 1
done
fact settled-after "$(cut -d' ' -f1 /proc/uptime) s of uptime"
# From here on only the test writes to the console (the kernel's log
# comes as a file, dmesg): kernel lines in the middle of the base64 would
# spoil the files.
dmesg -n 1
fact failed-units "$(systemctl list-units --failed --no-legend --plain | cut -d' ' -f1 | tr '\n' ' ')"
fact nproc "$(nproc)"
fact kernel "$(uname -r)"
fact cmdline "$(cat /proc/cmdline)"
fact boot-time "$(systemd-analyze time 2>&1 | head -n 1)"
fact modules "$(wc -l < /proc/modules)"
echo "distro-test: IMA log, first lines:"
head -n 10 /sys/kernel/security/ima/ascii_runtime_measurements 2>&1
send lsmod lsmod
send proc-modules cat /proc/modules
# Each loaded module with the file modprobe finds for it (the initrd's
# come from the same tree, decompressed).
module_paths() {
	for m in $(cut -d' ' -f1 /proc/modules | sort); do
		echo "$m $(modinfo -n "$m" 2>&1)"
	done
}
send module-paths module_paths
send systemd-analyze systemd-analyze
send systemd-analyze-blame systemd-analyze blame
send failed-units systemctl list-units --failed
send ima-ascii cat /sys/kernel/security/ima/ascii_runtime_measurements
send ima-policy cat /sys/kernel/security/ima/policy
send dmesg dmesg
send journal journalctl -b -o short-monotonic --no-pager
# The distro suite's parts, when the disk has them (make-disk.sh --share):
# the measured boot (with a TPM) and the module loads of distro.loads=
# ("all", "none" or a comma-separated list).  A boot's measurements are
# taken before its loads, which would add to the log, unless the boot is
# about those loads (distro.measure=after).
loads=$(sed -n 's/.*distro\.loads=\([^ ]*\).*/\1/p' /proc/cmdline)
measure=$(sed -n 's/.*distro\.measure=\([^ ]*\).*/\1/p' /proc/cmdline)
run_loads() {
	case $loads in
	none) ;;
	"" | all) /usr/local/sbin/distro-loads ;;
	*) /usr/local/sbin/distro-loads $(echo "$loads" | tr , ' ') ;;
	esac
}
if [ -x /usr/local/sbin/distro-loads ]; then
	tpm=
	[ -e /dev/tpmrm0 ] && [ -x /usr/local/sbin/distro-measured ] && tpm=y
	[ -n "$tpm" ] && [ "$measure" != after ] && /usr/local/sbin/distro-measured
	run_loads
	[ -n "$tpm" ] && [ "$measure" = after ] && /usr/local/sbin/distro-measured
fi
echo "distro-test: done"
