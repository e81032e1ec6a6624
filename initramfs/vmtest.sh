# Guest-side test library, sourced by the /test.sh that the VM harness
# generates.  It loads a module through one path, observes what the kernel
# did, compares that with the expected verdict and prints one TAP line.
# Lines starting with "# observed:" and "# log:" carry the observation
# back to the host, which compares them between kernels.

tap_count=0

tap_result() {	# tap_result STATUS DESCRIPTION
	tap_count=$((tap_count + 1))
	echo "$1 $tap_count - $2"
}

tap_plan() {
	echo "1..$tap_count"
}

# setup_mode STEPS: prepare an enforcement mode (see tests/vm/modes.tsv).
# A step that fails stops the script: the harness then reports no result.
setup_mode() {
	for step in $(echo "$1" | tr ',' ' '); do
		case $step in
		-) ;;
		policy=*)
			if ! cat "/etc/ima/${step#policy=}" > /sys/kernel/security/ima/policy; then
				echo "Bail out! IMA refused the policy ${step#policy=}"
				dmesg | tail -n 5 | sed 's/^/# /'
				exit 1
			fi
			;;
		imacert)
			# Without CONFIG_INTEGRITY_TRUSTED_KEYRING, IMA verifies with
			# the keys of a "_ima" keyring the loading process can find.
			if [ -f /mods/signing_key.x509 ] && ! {
				ring=$(keyctl newring _ima @u) &&
				evmctl import /mods/signing_key.x509 "$ring" >/dev/null
			}; then
				echo "Bail out! evmctl could not import the module signing certificate"
				exit 1
			fi
			;;
		*)
			echo "Bail out! unknown setup step $step"
			exit 1
			;;
		esac
	done
	dmesg -c >/dev/null
}

# load_module PATH FILE
# PATH is insmod or modprobe (the Debian kmod clients) or finit,
# finit-compressed, init (the explicit syscalls of the modload helper).
# Sets errno (OK or an errno name), taint (/proc/sys/kernel/tainted after
# the load), loaded (yes/no), modtaint (the module's own taint letters,
# "-" for none or not loaded) and leaves the kernel log lines the load
# produced in /tmp/load.log.
load_module() {
	# The module's own name; from the file name when modinfo cannot read it
	# (a truncated module).
	name=$(/sbin/modinfo -F name "$2" 2>/dev/null)
	if [ -z "$name" ]; then
		name=${2##*/}
		name=${name%%.*}
		name=${name%%-*}
	fi
	dmesg -c >/dev/null
	case $1 in
	insmod | modprobe)
		if [ "$1" = insmod ]; then
			out=$(/sbin/insmod "$2" 2>&1)
		else
			out=$(/sbin/modprobe "$name" 2>&1)
		fi
		if [ $? -eq 0 ]; then
			errno=OK
		else
			errno=$(modload errname "$out") || errno="UNKNOWN($out)"
		fi
		;;
	*)
		errno=$(modload "$1" "$2")
		;;
	esac
	taint=$(cat /proc/sys/kernel/tainted)
	loaded=no
	modtaint=-
	if [ -d "/sys/module/$name" ]; then
		loaded=yes
		modtaint=$(cat "/sys/module/$name/taint")
		[ -n "$modtaint" ] || modtaint=-
	fi
	# The clocksource switch can land in the middle of a load; it is not
	# the loader's doing.
	dmesg | grep -v '^clocksource: ' > /tmp/load.log
}

# check_load DESCRIPTION PATH FILE ERRNO TAINT MODTAINT LOG [DIGEST]
# LOG is an extended regular expression one new kernel log line must
# match, or "-" when the load must not log anything.  A load that succeeds
# must leave the module loaded; one that fails must not.  DIGEST is the
# sha256 the host computed for the bytes the kernel hashes on this path
# (see tests/vm/run-verdicts.sh), "-" (the default) when none is known:
# every "sha256:<hex>" the load logged must be DIGEST, so a log line that
# names the wrong bytes, or names a digest where none was expected, fails.
check_load() {
	desc=$1
	load_module "$2" "$3"
	want_loaded=no
	[ "$4" = OK ] && want_loaded=yes
	problems=
	[ "$errno" = "$4" ] || problems="$problems errno:$errno!=$4"
	[ "$taint" = "$5" ] || problems="$problems taint:$taint!=$5"
	[ "$modtaint" = "$6" ] || problems="$problems modtaint:$modtaint!=$6"
	[ "$loaded" = "$want_loaded" ] || problems="$problems loaded:$loaded!=$want_loaded"
	if [ "$7" = - ]; then
		[ ! -s /tmp/load.log ] || problems="$problems log:unexpected-lines"
	elif ! grep -Eq -- "$7" /tmp/load.log; then
		problems="$problems log:no-line-matches:$7"
	fi
	for logged in $(grep -Eo 'sha256:[0-9a-f]{64}' /tmp/load.log); do
		[ "${logged#sha256:}" = "${8:--}" ] || problems="$problems digest:${logged#sha256:}!=${8:--}"
	done
	if [ -z "$problems" ]; then
		tap_result ok "$desc"
	else
		tap_result "not ok" "$desc"
		echo "# mismatch:$problems"
	fi
	echo "# observed: errno=$errno taint=$taint loaded=$loaded modtaint=$modtaint"
	sed 's/^/# log: /' /tmp/load.log
}
