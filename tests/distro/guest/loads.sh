#!/bin/sh
# Usage: distro-loads [LOAD...]   (default: all of them, in this order)
# Guest side of the distro suite's module loads, run by record-boot.sh
# once the boot has settled (installed as /usr/local/sbin/distro-loads by
# make-disk.sh; its inputs in /usr/local/share/distro-test, put there by
# tests/distro/run-distro.sh).  Each load is reported as
#   distro-test: load NAME: rc=N taint=T
#   distro-test: load NAME: out: what modprobe/insmod printed
#   distro-test: load NAME: log: each kernel log line it caused
# and the host (run-distro.sh, expected-loads.tsv) judges them per mode.
# The loads, each as Debian's kmod 30 makes them:
#   unlisted      modprobe of an out-of-tree module, never signed, installed
#                 compressed under /usr/lib/modules/RELEASE/updates
#   changed       modprobe of a listed module after one byte of it was
#                 changed, in place under /usr/lib/modules
#   own-ima-key   root makes a keyring "_ima" with a key of its own, signs
#                 an unlisted uncompressed module with evmctl (security.ima)
#                 and loads it with insmod (finit_module, so IMA appraises
#                 the file and its signature)
#   dkms          a module built here by Debian's dkms against the
#                 installed linux-headers package, signed by dkms with the
#                 test key the kernel trusts (dkms's configured key; MOK
#                 enrolment is interactive and out of scope)
#   dkms-unsigned the same module built again without a signature
share=/usr/local/share/distro-test
release=$(uname -r)
wanted=" ${*:-unlisted changed own-ima-key dkms dkms-unsigned} "
moddir=/usr/lib/modules/$release

fact() {
	key=$1
	shift
	echo "distro-test: $key: $*"
}

# wanted LOAD: whether this run makes LOAD
wanted() {
	case $wanted in *" $1 "*) return 0 ;; esac
	return 1
}

# try NAME COMMAND...: run one load and report it with the kernel log
# lines that appeared meanwhile.
try() {
	name=$1
	shift
	before=$(dmesg | wc -l)
	out=$("$@" 2>&1)
	rc=$?
	fact "load $name" "rc=$rc taint=$(cat /proc/sys/kernel/tainted)"
	echo "$out" | sed "/^\$/d; s/^/distro-test: load $name: out: /"
	dmesg | tail -n +"$((before + 1))" | sed "s/^/distro-test: load $name: log: /"
}

# unlisted: hello.ko, built on the host against the distro kernel's
# build directory, compressed as the packages install modules.
load_unlisted() {
	mkdir -p "$moddir/updates"
	cp "$share/hello.ko.xz" "$moddir/updates/hello.ko.xz"
	depmod -a "$release"
	try unlisted modprobe hello
}

# changed: the installed file replaced by its copy with one byte of
# .comment inverted (made on the host, same name and size class).
load_changed() {
	target=$(cat "$share/changed.path")
	cp "$share/changed.ko.xz" "$moddir/$target"
	try changed modprobe "$(basename "$target" .ko.xz)"
}

# own-ima-key: a key of root's own on a keyring named _ima, which is what
# IMA searches when CONFIG_INTEGRITY_TRUSTED_KEYRING is off, on the
# session keyring (systemd gives the service one of its own).
load_own_ima_key() {
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=root-own-ima-key \
		-days 2 -keyout /root/own.key -outform DER -out /root/own.der 2>/dev/null
	ring=$(keyctl newring _ima @s)
	added=$(keyctl padd asymmetric own-ima-key "$ring" < /root/own.der 2>&1) ||
		fact "own-ima-key keyctl padd" "$added"
	fact "own-ima-key keyring" "$(keyctl rdescribe "$ring") holds $(keyctl rlist "$ring" | wc -w) key(s)"
	xz -dc "$share/hello.ko.xz" > /root/hello_own.ko
	evmctl ima_sign --hashalgo sha256 --key /root/own.key /root/hello_own.ko > /dev/null 2>&1
	fact "own-ima-key signature" "$(evmctl ima_verify --key /root/own.der /root/hello_own.ko > /dev/null 2>&1 && echo "security.ima verifies with root's own key" || echo "no valid security.ima")"
	# the same module name as unlisted's, loaded already where nothing
	# stopped it
	rmmod hello 2>/dev/null
	try own-ima-key insmod /root/hello_own.ko
}

# dkms: Debian's dkms signs with the key of its configuration.
load_dkms() {
	mkdir -p /etc/dkms/framework.conf.d
	cat > /etc/dkms/framework.conf.d/distro-test.conf <<-EOF
	mok_signing_key=$share/dkms-test-key.pem
	mok_certificate=$share/dkms-test-cert.der
	EOF
	cp -r "$share/hello_dkms-1.0" /usr/src/
	dkms install hello_dkms/1.0 -k "$release" > /root/dkms.log 2>&1
	rc=$?
	fact "dkms install" "rc=$rc $(grep -i -E 'sign|error' /root/dkms.log | head -n 3 | tr '\n' ' ')"
	[ $rc = 0 ] || tail -n 8 /var/lib/dkms/hello_dkms/1.0/build/make.log /root/dkms.log 2>&1 |
		sed 's/^/distro-test: dkms log: /'
	fact "dkms module" "$(modinfo -n hello_dkms 2>&1) signer=$(modinfo -F signer hello_dkms 2>&1)"
	try dkms modprobe hello_dkms
}

# dkms-unsigned: the same source built again by hand, no signature.
load_dkms_unsigned() {
	rm -rf /root/hello_dkms && cp -r "$share/hello_dkms-1.0" /root/hello_dkms
	make -s -C "$moddir/build" M=/root/hello_dkms modules > /root/hello_dkms.log 2>&1
	rc=$?
	fact "dkms-unsigned build" "rc=$rc signer=$(modinfo -F signer /root/hello_dkms/hello_dkms.ko 2>&1)"
	[ $rc = 0 ] || tail -n 8 /root/hello_dkms.log | sed 's/^/distro-test: dkms-unsigned log: /'
	modprobe -r hello_dkms 2>/dev/null
	try dkms-unsigned insmod /root/hello_dkms/hello_dkms.ko
}

for load in unlisted changed own-ima-key dkms dkms-unsigned; do
	wanted "$load" && "load_$(echo "$load" | tr - _)"
done
