# A software TPM 2.0 (swtpm) for one qemu boot, for the host-side test
# scripts (bash, sourced).
#
# swtpm_start LOGDIR: make a fresh TPM state in a new private directory
# (mktemp -d: mode 0700, a short path that fits a socket's 108 bytes)
# with swtpm_setup (TPM 2.0, PCR banks sha1 and sha256), start "swtpm
# socket" on a control socket there and wait for the socket; then
# $swtpm_qemu_args holds the qemu options that attach it as a TIS device
# (the guest kernel needs tpm_tis.force=1 when it has no ACPI).  An EXIT
# trap (and INT, TERM and HUP ones that exit) stops it whatever happens;
# swtpm's --terminate also ends it when qemu closes the socket, even if
# this script is killed.  swtpm_setup's and swtpm's logs are copied to
# LOGDIR when it stops.  Status non-zero, with the reason on stdout as a
# TAP comment, when it could not start.
# swtpm_stop: stop it and remove its state (idempotent; the caller may
# call it after each boot, before starting the next one).

swtpm_dir=
swtpm_logdir=
swtpm_qemu_args=

swtpm_start() {
	swtpm_stop
	swtpm_logdir=$1
	mkdir -p "$swtpm_logdir"
	swtpm_dir=$(mktemp -d /tmp/swtpm.XXXXXX) || { echo "# swtpm: mktemp failed"; return 1; }
	trap swtpm_stop EXIT
	trap 'swtpm_stop; exit 129' HUP
	trap 'swtpm_stop; exit 130' INT
	trap 'swtpm_stop; exit 143' TERM
	mkdir "$swtpm_dir/state"
	if ! swtpm_setup --tpm2 --tpmstate "$swtpm_dir/state" --pcr-banks sha1,sha256 \
			> "$swtpm_dir/setup.log" 2>&1; then
		echo "# swtpm_setup failed:"
		sed 's/^/#   /' "$swtpm_dir/setup.log"
		swtpm_stop
		return 1
	fi
	if ! swtpm socket --tpm2 --tpmstate dir="$swtpm_dir/state" \
			--ctrl type=unixio,path="$swtpm_dir/ctrl.sock" --terminate \
			--pid file="$swtpm_dir/pid" --log file="$swtpm_dir/swtpm.log" \
			--daemon; then
		echo "# swtpm did not start"
		swtpm_stop
		return 1
	fi
	local i
	for i in $(seq 50); do
		[[ -S $swtpm_dir/ctrl.sock && -s $swtpm_dir/pid ]] && break
		sleep 0.1
	done
	if [[ ! -S $swtpm_dir/ctrl.sock ]]; then
		echo "# swtpm: no control socket after 5 s"
		swtpm_stop
		return 1
	fi
	swtpm_qemu_args="-chardev socket,id=chrtpm,path=$swtpm_dir/ctrl.sock -tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0"
}

swtpm_stop() {
	[[ -n $swtpm_dir ]] || return 0
	local pid= i
	[[ -s $swtpm_dir/pid ]] && pid=$(cat "$swtpm_dir/pid")
	# Only the swtpm this started, not a process that reused its pid.
	[[ -n $pid && $(cat "/proc/$pid/comm" 2> /dev/null) == swtpm ]] || pid=
	if [[ -n $pid ]] && kill "$pid" 2> /dev/null; then
		for i in $(seq 50); do
			kill -0 "$pid" 2> /dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2> /dev/null && kill -KILL "$pid" 2> /dev/null
	fi
	[[ -n $swtpm_logdir ]] && cp "$swtpm_dir"/*.log "$swtpm_logdir/" 2> /dev/null
	rm -rf "$swtpm_dir"
	swtpm_dir=
	swtpm_qemu_args=
}
