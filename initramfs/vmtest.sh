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
			# IMA verifies with its ".ima" keyring, which takes only
			# keys that a key of the builtin keyring signed
			# (CONFIG_INTEGRITY_TRUSTED_KEYRING): the kernel's module
			# key, self-signed and built in, is one.
			if [ -f /mods/signing_key.x509 ] &&
				! keyctl padd asymmetric "" %keyring:.ima < /mods/signing_key.x509 >/dev/null; then
				echo "Bail out! the .ima keyring refused the module signing certificate"
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
# PATH is insmod, modprobe or modprobe-force (the Debian kmod clients;
# modprobe loads the installed module of FILE's name, modprobe-force the
# same with --force), finit, finit-compressed, init (the explicit syscalls
# of the modload helper), one of the two scenarios below: overwrite
# (overwrite_load) and parallel (parallel_load), or ima-WHOSE-VIA, a copy
# of FILE signed for IMA and loaded through VIA (imasig_load).
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
	insmod | modprobe | modprobe-force)
		kmod_load "$1" "$2" "$name"
		;;
	overwrite)
		overwrite_load "$2"
		;;
	ima-*-*)
		how=${1#ima-}
		imasig_load "${how%-*}" "${1##*-}" "$2"
		;;
	parallel)
		parallel_load "$2" "$name"
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
	# The clocksource switch and the TSC's refined calibration can land in
	# the middle of a load; they are not the loader's doing.
	dmesg | grep -v -E '^(clocksource|tsc): ' > /tmp/load.log
}

# kmod_load PATH FILE NAME: load through kmod_client, errno as modload's.
kmod_load() {
	if out=$(kmod_client "$1" "$2" "$3" 2>&1); then
		errno=OK
	else
		errno=$(modload errname "$out") || errno="UNKNOWN($out)"
	fi
}

kmod_client() {	# kmod_client PATH FILE NAME
	case $1 in
	insmod) /sbin/insmod "$2" ;;
	modprobe) /sbin/modprobe "$3" ;;
	modprobe-force) /sbin/modprobe --force "$3" ;;
	esac
}

# overwrite_load FILE: a listed module file that passed once, then is
# overwritten in place.  Copies the build's /mods/crc7.ko to
# /tmp/overwrite/<FILE's name>, loads that with finit_module() (it must
# load), unloads it, writes FILE's bytes over the same inode (FILE must
# have the same size: nothing is truncated or reallocated) and loads it
# again with finit_module().  The verdict is that second load's, and the
# kernel log is the second load's.  A preparation step that fails sets
# errno to "setup:<step>", which no row expects, and says why.
overwrite_load() {
	target=/tmp/overwrite/${1##*/}
	rm -rf /tmp/overwrite
	mkdir /tmp/overwrite
	errno=
	if ! cp /mods/crc7.ko "$target"; then
		errno=setup:copy
	elif [ "$(stat -c %s "$1")" != "$(stat -c %s "$target")" ]; then
		errno=setup:size
		echo "# overwrite: $1 and /mods/crc7.ko differ in size"
	else
		first=$(modload finit "$target" 2>&1)
		if [ "$first" != OK ]; then
			errno=setup:first-load
			echo "# overwrite: the first load of $target (crc7.ko's bytes) gave $first, not OK"
			dmesg | sed 's/^/# overwrite: /'
		elif ! /sbin/rmmod crc7; then
			errno=setup:rmmod
		fi
	fi
	[ -z "$errno" ] || return 0
	inode=$(stat -c %i "$target")
	dd if="$1" of="$target" bs=4096 conv=notrunc 2>/dev/null
	if [ "$(stat -c %i "$target")" != "$inode" ] || ! cmp -s "$1" "$target"; then
		errno=setup:overwrite
		echo "# overwrite: $target is not $1's bytes in the same inode"
		return 0
	fi
	dmesg -c >/dev/null
	errno=$(modload finit "$target")
}

# imasig_load WHOSE VIA FILE: a copy of FILE on tmpfs, signed for IMA
# (security.ima, evmctl ima_sign, a v2 signature with sha256) and loaded
# through VIA: finit or init (modload) or insmod (kmod's).  WHOSE says
# whose key signed it and where its certificate went:
#   rootkey  root's own: a keyring named "_ima" that root makes in its
#            user keyring, holding the self-signed /mods/rootkey.x509.
#            Without CONFIG_INTEGRITY_TRUSTED_KEYRING that is the keyring
#            IMA verifies with (request_key() finds it), so root vouches
#            for whatever it likes: the attack the IMA mode must stop;
#   rogue    the same certificate added to IMA's own ".ima" keyring,
#            which must refuse it: no key the kernel trusts signed it;
#   trusted  /mods/imakey.x509, which the kernel's trusted key certified
#            (kernels with a module key only), added to ".ima", which
#            must take it: signatures that should count still do.
# A preparation step that fails, or a keyring that takes what it must
# refuse, sets errno to "setup:<step>", which no row expects.
imasig_load() {
	target=/tmp/imasig/${3##*/}
	rm -rf /tmp/imasig
	mkdir /tmp/imasig
	errno=
	cp "$3" "$target" || errno=setup:copy
	key=/mods/rootkey-key.pem
	case $1 in
	rootkey)
		ring=$(keyctl newring _ima @u) &&
			keyctl padd asymmetric "" "$ring" < /mods/rootkey.x509 >/dev/null ||
			errno=setup:rootkey-keyring
		;;
	rogue)
		if ! keyctl describe %keyring:.ima >/dev/null 2>&1; then
			errno=setup:no-.ima-keyring
		elif keyctl padd asymmetric "" %keyring:.ima < /mods/rootkey.x509 >/dev/null 2>&1; then
			errno=setup:.ima-took-the-self-signed-certificate
		else
			echo "# imasig: .ima refused the self-signed certificate"
		fi
		;;
	trusted)
		key=/mods/imakey-key.pem
		if [ ! -f "$key" ]; then
			errno=setup:no-certified-key
		elif ! keyctl padd asymmetric "" %keyring:.ima < /mods/imakey.x509 >/dev/null; then
			errno=setup:.ima-refused-the-certified-key
		fi
		;;
	*)
		errno=setup:unknown-signer-$1
		;;
	esac
	[ -z "$errno" ] || return 0
	if ! evmctl ima_sign -a sha256 --key "$key" "$target" >/dev/null 2>&1; then
		errno=setup:ima_sign
		return 0
	fi
	dmesg -c >/dev/null
	case $2 in
	insmod) kmod_load insmod "$target" ;;
	*) errno=$(modload "$2" "$target") ;;
	esac
}

# parallel_load FILE NAME: four finit_module() calls of FILE started at
# once, and, at the same time, one finit_module() of each other module
# the build installed (crc4, crc8, crc-itu-t: on the allowlist, each
# must load).  errno summarises the four loads of FILE: OK when at least
# one loaded and the others, if any, were told the module exists
# (EEXIST) or shared the winner's result; otherwise the errno all four
# got; "mixed:<e1>,<e2>,..." when they disagree, and
# "companion:<module>=<errno>" when one of the other modules did not
# load.  taint is the kernel's after all of them.  The guest kernel has
# one CPU: the loads overlap where one of them sleeps (reading the file,
# IMA, the loader's locks and waits for a module of the same name).
parallel_load() {
	rm -rf /tmp/parallel
	mkdir /tmp/parallel
	# KUnit and its tests are not companions: a test runs when it loads,
	# and taints the kernel (N).
	companions=$(find "/lib/modules/$(uname -r)" -name '*.ko*' ! -name "$2.ko*" \
		! -path '*/kunit/*' ! -name '*_test.ko*' | sort)
	for i in 1 2 3 4; do
		modload finit "$1" > "/tmp/parallel/load.$i" 2>/dev/null &
	done
	for module in $companions; do
		case $module in
		*.ko) how=finit ;;
		*) how=finit-compressed ;;
		esac
		modload "$how" "$module" > "/tmp/parallel/companion.${module##*/}" 2>/dev/null &
	done
	wait
	errno=
	[ -n "$companions" ] || errno=companion:none-installed
	for module in $companions; do
		result=$(cat "/tmp/parallel/companion.${module##*/}")
		[ "$result" = OK ] || errno="${errno:+$errno,}companion:${module##*/}=$result"
	done
	[ -z "$errno" ] || return 0
	echo "# parallel: the four loads of $1 gave: $(cat /tmp/parallel/load.[1-4] | tr '\n' ' ')"
	if [ "$(cat /tmp/parallel/load.[1-4] | wc -l)" -ne 4 ]; then
		errno=missing-results
		return 0
	fi
	distinct=$(sort -u /tmp/parallel/load.[1-4] | tr '\n' ' ')
	case $distinct in
	"OK " | "EEXIST OK ") errno=OK ;;
	?*" "?*" "*) errno="mixed:$(echo "${distinct% }" | tr ' ' ',')" ;;
	*) errno=${distinct% } ;;
	esac
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

# send_file NAME FILE: carry FILE to the host over the console, in base64
# between "FILE-BEGIN NAME" and "FILE-END NAME" lines; the host unpacks
# them with console_files (tests/lib/console.sh).  Nothing is sent for a
# FILE that cannot be read, so the host sees it missing.
send_file() {
	[ -r "$2" ] || return 1
	echo "FILE-BEGIN $1"
	base64 < "$2"
	echo "FILE-END $1"
}
