# Software TPMs 2.0 (swtpm) for the host-side test scripts (bash, sourced):
# one for a qemu boot, and one the host talks to itself with tpm2-tools.
#
# swtpm_ca CADIR: make CADIR the home of a local CA for EK certificates:
# the configuration swtpm_setup and swtpm_localca read (swtpm_setup(8),
# swtpm-localca(8)), all of it in CADIR, never the system-wide
# /var/lib/swtpm-localca.  swtpm_localca makes the CA's keys with the first
# certificate it signs: then CADIR/swtpm-localca-rootca-cert.pem is the
# root and CADIR/issuercert.pem the intermediate that signs EK
# certificates (`openssl verify -CAfile ROOT -untrusted ISSUER CERT`).
#
# swtpm_start LOGDIR [CADIR]: make a fresh TPM state in a new private
# directory (mktemp -d: mode 0700, a short path that fits a socket's 108
# bytes) with swtpm_setup (TPM 2.0, PCR banks sha1 and sha256; with CADIR,
# an EK certificate and a platform certificate signed by that CA, in NV
# as a manufacturer's TPM has them: the RSA EK's at 0x01c00002), start
# "swtpm socket" on a control socket there and wait for the socket; then
# $swtpm_qemu_args holds the qemu options that attach it as a TIS device
# (the guest kernel needs tpm_tis.force=1 when it has no ACPI).
# swtpm's --terminate also ends it when qemu closes the socket, even if
# this script is killed.  swtpm_setup's and swtpm's logs are copied to
# LOGDIR when it stops.  Status non-zero, with the reason on stdout as a
# TAP comment, when it could not start.
# swtpm_stop: stop it and remove its state (idempotent; the caller may
# call it after each boot, before starting the next one).
#
# swtpm_host_start LOGDIR [CADIR]: the same, for a second TPM that the
# host itself uses, on a server socket; TPM2TOOLS_TCTI is then exported
# for it.  There is no resource manager in between: flush transient
# objects (tpm2_flushcontext -t) before a tool would hold more than three.
# swtpm_host_stop: stop that one.
#
# An EXIT trap (and INT, TERM and HUP ones that exit) stops both whatever
# happens.

swtpm_dir=
swtpm_logdir=
swtpm_qemu_args=
swtpm_host_dir=
swtpm_host_logdir=

swtpm_ca() {
	mkdir -p "$1" || return 1
	local ca
	ca=$(cd "$1" && pwd)
	cat > "$ca/swtpm_setup.conf" <<-EOF
	create_certs_tool = /usr/bin/swtpm_localca
	create_certs_tool_config = $ca/swtpm-localca.conf
	create_certs_tool_options = $ca/swtpm-localca.options
	EOF
	cat > "$ca/swtpm-localca.conf" <<-EOF
	statedir = $ca
	signingkey = $ca/signkey.pem
	issuercert = $ca/issuercert.pem
	certserial = $ca/certserial
	EOF
	cat > "$ca/swtpm-localca.options" <<-EOF
	--platform-manufacturer modhash-tests
	--platform-version 1
	--platform-model qemu
	EOF
}

swtpm_traps() {
	trap swtpm_cleanup EXIT
	trap 'swtpm_cleanup; exit 129' HUP
	trap 'swtpm_cleanup; exit 130' INT
	trap 'swtpm_cleanup; exit 143' TERM
}

swtpm_cleanup() {
	swtpm_stop
	swtpm_host_stop
}

# swtpm_make DIR [CADIR]: a fresh state in DIR/state; its log in DIR.
swtpm_make() {
	local certs=()
	[[ -n ${2:-} ]] && certs=(--config "$2/swtpm_setup.conf" --create-ek-cert --create-platform-cert)
	mkdir "$1/state"
	if ! swtpm_setup --tpm2 --tpmstate "$1/state" --pcr-banks sha1,sha256 "${certs[@]}" \
			> "$1/setup.log" 2>&1; then
		echo "# swtpm_setup failed:"
		sed 's/^/#   /' "$1/setup.log"
		return 1
	fi
}

# swtpm_wait DIR SOCKET: wait up to 5 s for swtpm's SOCKET and pid file.
swtpm_wait() {
	local i
	for i in $(seq 50); do
		[[ -S $2 && -s $1/pid ]] && return 0
		sleep 0.1
	done
	echo "# swtpm: no socket $2 after 5 s"
	return 1
}

# swtpm_kill DIR LOGDIR: stop the swtpm whose pid file is in DIR, keep
# its logs in LOGDIR, remove DIR.
swtpm_kill() {
	local pid= i
	[[ -s $1/pid ]] && pid=$(cat "$1/pid")
	# Only the swtpm this started, not a process that reused its pid.
	[[ -n $pid && $(cat "/proc/$pid/comm" 2> /dev/null) == swtpm ]] || pid=
	if [[ -n $pid ]] && kill "$pid" 2> /dev/null; then
		for i in $(seq 50); do
			kill -0 "$pid" 2> /dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2> /dev/null && kill -KILL "$pid" 2> /dev/null
	fi
	[[ -n $2 ]] && cp "$1"/*.log "$2/" 2> /dev/null
	rm -rf "$1"
}

# swtpm_launch DIR CADIR SOCKET SWTPM_ARG...: a fresh TPM in DIR (CADIR
# may be empty), "swtpm socket" on it with SWTPM_ARGs; wait for SOCKET.
swtpm_launch() {
	local dir=$1 ca=$2 socket=$3
	shift 3
	swtpm_traps
	swtpm_make "$dir" "$ca" || return 1
	if ! swtpm socket --tpm2 --tpmstate dir="$dir/state" --pid file="$dir/pid" \
			--log file="$dir/swtpm.log" --daemon "$@"; then
		echo "# swtpm did not start"
		return 1
	fi
	swtpm_wait "$dir" "$socket"
}

swtpm_start() {
	swtpm_stop
	swtpm_logdir=$1
	mkdir -p "$swtpm_logdir"
	swtpm_dir=$(mktemp -d /tmp/swtpm.XXXXXX) || { echo "# swtpm: mktemp failed"; return 1; }
	swtpm_launch "$swtpm_dir" "${2:-}" "$swtpm_dir/ctrl.sock" \
		--ctrl type=unixio,path="$swtpm_dir/ctrl.sock" --terminate ||
		{ swtpm_stop; return 1; }
	swtpm_qemu_args="-chardev socket,id=chrtpm,path=$swtpm_dir/ctrl.sock -tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0"
}

swtpm_stop() {
	[[ -n $swtpm_dir ]] || return 0
	swtpm_kill "$swtpm_dir" "$swtpm_logdir"
	swtpm_dir=
	swtpm_qemu_args=
}

swtpm_host_start() {
	swtpm_host_stop
	swtpm_host_logdir=$1
	mkdir -p "$swtpm_host_logdir"
	swtpm_host_dir=$(mktemp -d /tmp/swtpm.XXXXXX) || { echo "# swtpm: mktemp failed"; return 1; }
	# tpm2-tss's swtpm TCTI finds the control socket at PATH.ctrl.
	swtpm_launch "$swtpm_host_dir" "${2:-}" "$swtpm_host_dir/tpm.sock" \
		--server type=unixio,path="$swtpm_host_dir/tpm.sock" \
		--ctrl type=unixio,path="$swtpm_host_dir/tpm.sock.ctrl" \
		--flags not-need-init,startup-clear ||
		{ swtpm_host_stop; return 1; }
	export TPM2TOOLS_TCTI=swtpm:path=$swtpm_host_dir/tpm.sock
}

swtpm_host_stop() {
	[[ -n $swtpm_host_dir ]] || return 0
	swtpm_kill "$swtpm_host_dir" "$swtpm_host_logdir"
	swtpm_host_dir=
	unset TPM2TOOLS_TCTI
}
