#!/bin/bash
# Usage: check-modhash.sh BUILD_DIR
# End-to-end tests of modhash (tools/) on the real artifacts of the build,
# in TAP: BUILD_DIR/tools/modhash/modhash run on the hashes and hashes+sig
# kernels (out/<variant>/{vmlinux,bzImage,System.map,modules,
# modules-stripped}) and on what the kernel's generator wrote
# (src/patched/obj-<variant>/.module-hashes.bin):
#  - list reads the same bytes from vmlinux, bzImage, the raw list and the
#    securityfs text of a VM boot of the hashes kernel, and its hex lines
#    equal ones derived from the raw list with xxd;
#  - check gives listed / not-listed / listed-after-strip /
#    needs-signature on the installed trees, a tampered copy, .ko.xz,
#    .ko.zst, .ko.gz copies, a copy with debug information added, and a
#    copy signed with scripts/sign-file and a throwaway key;
#  - diff of hashes and hashes+sig, and of a list the generator makes from
#    changed modules, with the module names behind the changes;
#  - generate rebuilds .module-hashes.bin byte for byte from the build's
#    modules.order and from the installed trees, which list, diff and
#    export then read; compressed copies list the decompressed digest; a
#    missing module is named; lint-policy passes the usual exemptions of
#    kernel-made filesystems and blames one for tmpfs on its own line;
#  - export: sha256sum -c accepts the sha256sum lines against the
#    installed files; the Keylime policy's fields, and its module and
#    ima-buf digests equal to what IMA measured in the VM boot;
#  - bad inputs exit 2 naming the file, -o leaves no file behind;
#  - inputs that never end or would block (/dev/zero, a FIFO without a
#    writer, an endless stdin), directories and sparse files over the
#    limits exit 2 at once with one line, in bounded time and memory;
#  - --version (every command, -V too) prints debian/changelog's version,
#    the format version and the features; a usage error is one line and
#    a hint, exit 2; -o honours the umask and refuses a symbolic link
#    unless --follow-symlinks;
#  - make install puts the program and man pages that man -l renders.
# A missing artifact fails the tests that need it.  One VM boot (~60 s).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
. "$top/tests/lib/tap.sh"
. "$top/tests/lib/allowlist.sh"

tap_plan 52

modhash=$build/tools/modhash/modhash
kout=$build/out/hashes
sout=$build/out/hashes+sig
bin=$build/src/patched/obj-hashes/.module-hashes.bin
sbin=$build/src/patched/obj-hashes+sig/.module-hashes.bin
signfile=$build/src/patched/obj-hashes+sig/scripts/sign-file
generator=$build/tools/module-hashes
base=$build/initramfs/base.cpio.gz
release=$(cat "$kout/kernelrelease" 2>/dev/null || echo missing)
tree=$kout/modules/lib/modules/$release
stree=$kout/modules-stripped/lib/modules/$release
work=$build/test-results/tools
rm -rf "$work"
mkdir -p "$work"

# have FILE...: all exist, or say which does not (a TAP comment).
have() {
	local f ok=0
	for f in "$@"; do
		[[ -e $f ]] || { echo "# missing: $f"; ok=1; }
	done
	return $ok
}

# run NAME ARGS...: modhash ARGS, stdout in NAME.out, stderr in NAME.err,
# exit status in NAME.rc.
run() {
	local name=$1
	shift
	"$modhash" "$@" > "$work/$name.out" 2> "$work/$name.err"
	echo $? > "$work/$name.rc"
}
rc() { cat "$work/$1.rc" 2>/dev/null; }
# verdict NAME FILE: the verdict check printed for FILE.
verdict() { awk -F'\t' -v f="$2" '$1 == f { print $2 }' "$work/$1.out"; }

# --- list -----------------------------------------------------------------
have "$modhash" && "$modhash" --help > /dev/null
tap $? "modhash is built and answers --help"

have "$kout/vmlinux" "$bin" && run vmlinux list --format=raw "$kout/vmlinux" &&
	[[ $(rc vmlinux) == 0 ]] && cmp -s "$work/vmlinux.out" "$bin"
tap $? "list: the list read from vmlinux (via its symbols) is byte for byte the generator's .module-hashes.bin"

have "$kout/bzImage" "$kout/System.map" "$bin" && run bzimage list --format=raw "$kout/bzImage" &&
	[[ $(rc bzimage) == 0 ]] && cmp -s "$work/bzimage.out" "$bin"
tap $? "list: the list read from the bzImage (payload decompressed, System.map next to it) is the generator's"

have "$bin" && run raw list --format=raw "$bin" && [[ $(rc raw) == 0 ]] && cmp -s "$work/raw.out" "$bin"
tap $? "list: the raw list reads back as itself"

# algo:hex lines derived independently: the digests are the bytes after
# the header, 32 a line.
have "$bin" && xxd -p -c 32 -s "$allowlist_header_bytes" "$bin" | sed 's/^/sha256:/' > "$work/expected.hex" &&
	run hex list "$kout/vmlinux" && [[ $(rc hex) == 0 ]] &&
	[[ -s $work/expected.hex ]] && cmp -s "$work/hex.out" "$work/expected.hex"
tap $? "list: its algo:hex lines equal those xxd derives from .module-hashes.bin"

have "$sout/vmlinux" "$sout/bzImage" "$sbin" && run svmlinux list -f raw "$sout/vmlinux" &&
	run sbzimage list -f raw "$sout/bzImage" && cmp -s "$work/svmlinux.out" "$sbin" &&
	cmp -s "$work/sbzimage.out" "$sbin"
tap $? "list: hashes+sig's vmlinux and bzImage give its generator's list too"

have "$tree" && run json list --format=json --modules "$tree" "$kout/vmlinux" &&
	python3 - "$work/json.out" "$bin" "$allowlist_header_bytes" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
raw = open(sys.argv[2], 'rb').read()
# the header's count field is at offset 16; the digests follow the header
count = int.from_bytes(raw[16:20], 'little')
start = int(sys.argv[3])
assert j['version'] == 1 and j['algo'] == 'sha256' and j['count'] == count
assert [d['digest'] for d in j['digests']] == [raw[start + 32 * i:start + 32 * (i + 1)].hex() for i in range(count)]
named = [d for d in j['digests'] if d['modules']]
# Unstripped tree: each module names its own digest and its stripped one.
assert len(named) == count and j['unnamed'] == 0, (len(named), j['unnamed'])
assert {m['form'] for d in named for m in d['modules']} == {'as-installed', 'stripped'}
PY
tap $? "list --format=json --modules: json-c output with every digest named by an installed module"

# --- the VM boot: securityfs text and IMA's measurements --------------------
cat > "$work/guest.sh" <<'GUEST'
#!/bin/sh
sed 's/^/SFS /' /sys/kernel/security/ima/module_hashes
cat /etc/ima/measure-modules.policy > /sys/kernel/security/ima/policy && echo POLICY-LOADED
modprobe crc7 && echo CRC7-LOADED
grep -E ' (module-allowlist|/lib/modules/[^ ]*/crc7\.ko)( |$)' \
	/sys/kernel/security/ima/ascii_runtime_measurements | sed 's/^/MEASURED /'
GUEST
vm_ok=1
if have "$kout/bzImage" "$kout/modules.cpio.gz" "$base"; then
	"$top/tests/vm/run-vm.sh" "$kout" "$base" "$work/guest.sh" "$work/console.log" \
		> "$work/vm.out" 2>&1
	vm_ok=$?
	[[ $vm_ok == 0 ]] || grep '^# ' "$work/vm.out" | head -n 25
fi
sed -n 's/^SFS //p' "$work/vm.out" 2>/dev/null > "$work/module_hashes"
[[ $vm_ok == 0 ]] && run sfs list --format=raw "$work/module_hashes" && [[ $(rc sfs) == 0 ]] &&
	cmp -s "$work/sfs.out" "$bin" && run sfshex list "$work/module_hashes" &&
	cmp -s "$work/sfshex.out" "$work/hex.out"
tap $? "list: the securityfs text captured in a VM boot of hashes rebuilds the vmlinux's list, byte for byte"

[[ $vm_ok == 0 ]] && head -n 1 "$work/module_hashes" | grep -qx "# module allowlist version 1, sha256, $(($(list_digest_bytes "$bin") / 32)) digests" &&
	grep -q '^CRC7-LOADED$' "$work/vm.out"
tap $? "VM: securityfs announces the list's digest count, and crc7 loads through modprobe"

# --- check ----------------------------------------------------------------
# The number of modules of the build, from its modules.order.
modules=$(wc -l < "$tree/modules.order" 2>/dev/null || echo 0)
have "$tree" && run tree check --kernel "$kout/vmlinux" "$tree" && [[ $(rc tree) == 0 ]] &&
	grep -qx "# $modules modules: $modules listed" "$work/tree.out"
tap $? "check: the installed tree (modules.order) is all listed, exit 0"

have "$stree" && run stree check --kernel "$kout/bzImage" "$stree" && [[ $(rc stree) == 0 ]] &&
	grep -qx "# $modules modules: $modules listed" "$work/stree.out"
tap $? "check: the INSTALL_MOD_STRIP=1 tree is all listed against the bzImage, exit 0"

m=$work/m
mkdir -p "$m"
cp "$tree/kernel/lib/crc7.ko" "$m/crc7.ko" 2>/dev/null
cp "$m/crc7.ko" "$m/tampered.ko" 2>/dev/null &&
	printf 'X' | dd of="$m/tampered.ko" bs=1 seek=200 conv=notrunc 2> /dev/null
run tampered check -k "$kout/vmlinux" "$m/crc7.ko" "$m/tampered.ko"
[[ $(rc tampered) == 1 && $(verdict tampered "$m/tampered.ko") == not-listed &&
	$(verdict tampered "$m/crc7.ko") == listed ]]
tap $? "check: a tampered copy of crc7.ko is not-listed (exit 1), the original listed"

xz --check=crc32 -c "$m/crc7.ko" > "$m/crc7.ko.xz" 2>/dev/null
zstd -q -c "$m/crc7.ko" > "$m/crc7.ko.zst" 2>/dev/null
gzip -n -c "$m/crc7.ko" > "$m/crc7.ko.gz" 2>/dev/null
run compressed check -k "$kout/vmlinux" "$m/crc7.ko.xz" "$m/crc7.ko.zst" "$m/crc7.ko.gz"
[[ $(rc compressed) == 0 ]] && grep -qx "# 3 modules: 3 listed" "$work/compressed.out"
tap $? "check: .ko.xz, .ko.zst and .ko.gz copies made with xz, zstd and gzip are listed"

cat "$m/crc7.ko.zst" > "$m/trailing.ko.zst" && printf 'sixteen bytes!!\n' >> "$m/trailing.ko.zst"
run trailing check -k "$kout/vmlinux" "$m/trailing.ko.zst"
[[ $(rc trailing) == 1 && $(verdict trailing "$m/trailing.ko.zst") == not-listed ]] &&
	grep -q 'bytes after the compressed stream' "$work/trailing.out"
tap $? "check: crc7.ko.zst with bytes after the frame is not-listed, as the kernel refuses it"

# An unstripped module whose debug information changed: strip --strip-debug
# takes it back to the listed stripped form; strip it and it is listed.
head -c 256 /dev/urandom > "$m/junk"
objcopy --add-section .debug_junk="$m/junk" "$m/crc7.ko" "$m/debug.ko" 2>/dev/null &&
	strip --strip-debug -o "$m/debug-stripped.ko" "$m/debug.ko"
run strip check -k "$kout/vmlinux" "$m/debug.ko" "$m/debug-stripped.ko" "$stree/kernel/lib/crc7.ko"
[[ $(rc strip) == 1 && $(verdict strip "$m/debug.ko") == listed-after-strip &&
	$(verdict strip "$m/debug-stripped.ko") == listed &&
	$(verdict strip "$stree/kernel/lib/crc7.ko") == listed ]] &&
	grep -q 'INSTALL_MOD_STRIP=1' "$work/strip.out"
tap $? "check: crc7.ko with debug information added is listed-after-strip; stripped (by us or by the build) it is listed"

if have "$signfile"; then
	openssl req -new -nodes -utf8 -sha256 -days 1 -batch -x509 -subj /CN=throwaway \
		-outform PEM -out "$m/key.pem" -keyout "$m/key.pem" > /dev/null 2>&1
	cp "$m/crc7.ko" "$m/signed.ko" && "$signfile" sha256 "$m/key.pem" "$m/key.pem" "$m/signed.ko"
fi
run signed check -k "$kout/vmlinux" "$m/signed.ko"
run signedok check --signed-ok -k "$kout/vmlinux" "$m/signed.ko"
[[ $(rc signed) == 1 && $(verdict signed "$m/signed.ko") == needs-signature && $(rc signedok) == 0 ]] &&
	grep -q 'without the signature it is on the list' "$work/signed.out"
tap $? "check: crc7.ko signed with scripts/sign-file needs-signature (its unsigned content listed); --signed-ok accepts it"

mkdir -p "$work/missing"
cp -a "$tree/." "$work/missing/" 2>/dev/null && rm -f "$work/missing/kernel/lib/crc4.ko"
run missing check -k "$kout/vmlinux" "$work/missing"
[[ $(rc missing) == 1 && $(verdict missing "$work/missing/kernel/lib/crc4.ko") == missing ]] &&
	grep -qx "# $modules modules: $((modules - 1)) listed 1 missing" "$work/missing.out"
tap $? "check: a module modules.order names but the tree lacks is reported missing (exit 1)"

# --- diff -----------------------------------------------------------------
have "$sout/vmlinux" && run samediff diff "$kout/vmlinux" "$sout/bzImage" &&
	[[ $(rc samediff) == 0 ]] && grep -qx "# added 0, removed 0, common $((modules * 2))" "$work/samediff.out"
tap $? "diff: hashes and hashes+sig list the same $((modules * 2)) digests (same modules, two forms each), exit 0"

g=$work/gen
mkdir -p "$g/a"
cp "$m/debug.ko" "$g/a/crc7.ko" 2>/dev/null
cp "$tree/kernel/lib/crc4.ko" "$g/a/crc4.ko" 2>/dev/null
printf 'a/crc7.o\na/crc4.o\n' > "$g/modules.order"
for f in crc7 crc4; do
	strip --strip-debug -o "$g/a/$f.ko.stripped" "$g/a/$f.ko" 2>/dev/null
done
have "$generator" && (cd "$g" && "$generator" -a sha256 -f built,stripped -o new.bin modules.order) &&
	run gendiff diff --modules-a "$tree" --modules-b "$g/a" "$kout/vmlinux" "$g/new.bin" &&
	[[ $(rc gendiff) == 1 ]] && grep -qx "# added 1, removed $((modules * 2 - 3)), common 3" "$work/gendiff.out" &&
	grep -q "^+ sha256:[0-9a-f]*  $g/a/crc7.ko (as-installed)\$" "$work/gendiff.out" &&
	grep -q "^- sha256:[0-9a-f]*  $tree/kernel/lib/crc7.ko (as-installed)\$" "$work/gendiff.out" &&
	[[ $(grep -c '^- ' "$work/gendiff.out") == $((modules * 2 - 3)) ]]
tap $? "diff: against the generator's list of two modules, crc7 changed: added 1, removed $((modules * 2 - 3)), common 3, each change named by its module (exit 1)"

# --- export ---------------------------------------------------------------
run sums export --format=sha256sum --modules "$tree" -o "$work/modules.sha256" "$kout/vmlinux"
[[ $(rc sums) == 0 ]] && [[ $(wc -l < "$work/modules.sha256") == "$modules" ]] &&
	grep -q "  /lib/modules/$release/kernel/lib/crc7.ko\$" "$work/modules.sha256" &&
	sed 's#  /#  #' "$work/modules.sha256" > "$work/relative.sha256" &&
	(cd "$kout/modules" && sha256sum -c --strict "$work/relative.sha256" > /dev/null)
tap $? "export sha256sum: $modules /lib/modules paths (one per module) that sha256sum -c accepts in the installed prefix"

run ssums export -f sha256sum -m "$stree" "$kout/bzImage"
[[ $(rc ssums) == 0 ]] && sed 's#  /#  #' "$work/ssums.out" > "$work/srelative.sha256" &&
	(cd "$kout/modules-stripped" && sha256sum -c --strict "$work/srelative.sha256" > /dev/null) &&
	! cmp -s "$work/ssums.out" "$work/modules.sha256"
tap $? "export sha256sum of the stripped tree: its own digests, accepted by sha256sum -c"

run keylime export --format=keylime --modules "$tree" -o "$work/policy.json" "$kout/vmlinux"
[[ $(rc keylime) == 0 ]] && python3 -m json.tool "$work/policy.json" > /dev/null &&
	python3 - "$work/policy.json" "$bin" "$work/modules.sha256" "$tree" "/lib/modules/$release" <<'PY'
import hashlib, json, sys
p = json.load(open(sys.argv[1]))
raw = open(sys.argv[2], 'rb').read()
sums = dict(reversed(l.split('  ', 1)) for l in open(sys.argv[3]).read().splitlines())
tree, prefix = sys.argv[4], sys.argv[5]
assert p['meta']['version'] == 1 and isinstance(p['meta']['generator'], int)
assert p['release'] == 0 and p['excludes'] == [] and p['keyrings'] == {}
assert p['ima'] == {'ignored_keyrings': [], 'log_hash_alg': 'sha1', 'dm_policy': None}
assert p['verification-keys'] == ''
# Each module under /lib/modules and /usr/lib/modules (no boot_aggregate
# without --ima-log).
assert p['digests'] == {q: [d] for path, d in sums.items() for q in (path, '/usr' + path)}, p['digests']
# The list's entry, and one init_module entry per (plain .ko) image.
twice = lambda b: hashlib.sha256(hashlib.sha256(b).digest()).hexdigest()
assert all(path.endswith('.ko') for path in sums), sums
images = {twice(open(tree + path[len(prefix):], 'rb').read()) for path in sums}
assert set(p['ima-buf']) == {'module-allowlist', 'init_module'}, p['ima-buf']
assert p['ima-buf']['module-allowlist'] == [twice(raw)], p['ima-buf']
buffers = p['ima-buf']['init_module']
assert len(buffers) == len(set(buffers)) and set(buffers) == images, (buffers, images)
PY
tap $? "export keylime: python3 -m json.tool parses it; meta, release, digests (under /lib and /usr/lib), excludes, keyrings, ima, ima-buf (the list, each image's init_module digest), verification-keys as Keylime's format has them"

# What IMA measured in the VM: the module's path and digest, and the
# list's own entry, are the policy's.
[[ $vm_ok == 0 ]] && python3 - "$work/policy.json" "$work/vm.out" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2]) if l.startswith('MEASURED ')]
mods = [l for l in lines if l[3] == 'ima-ng' and l[5].endswith('/crc7.ko')]
bufs = [l for l in lines if l[3] == 'ima-buf' and l[5] == 'module-allowlist']
assert mods and bufs, lines
for l in mods:
    assert p['digests'][l[5]] == [l[4].split(':')[1]], (l, p['digests'])
for l in bufs:
    assert p['ima-buf']['module-allowlist'] == [l[4].split(':')[1]], l
PY
tap $? "export keylime: crc7.ko's path and digest and the module-allowlist ima-buf digest are those IMA measured in the VM"

mkdir -p "$work/badtree/kernel/lib"
cp "$tree/modules.order" "$work/badtree/" 2>/dev/null
cp "$tree"/kernel/lib/*.ko "$work/badtree/kernel/lib/" 2>/dev/null
cp "$m/tampered.ko" "$work/badtree/kernel/lib/crc8.ko"
run badtree export -f sha256sum -m "$work/badtree" --prefix "/lib/modules/$release" "$kout/vmlinux"
[[ $(rc badtree) == 1 && $(wc -l < "$work/badtree.out") == 3 ]] &&
	! grep -q crc8 "$work/badtree.out" && grep -q 'crc8.ko: not exported: not-listed' "$work/badtree.err"
tap $? "export: an installed module the list refuses is left out, named on stderr, exit 1"

# --- generate -------------------------------------------------------------
# modhash generate from the hashes build's modules.order must rebuild the
# list the kernel build linked into vmlinux, byte for byte; list, diff and
# export must take what it writes wherever they take a kernel.
objdir=$build/src/patched/obj-hashes
have "$objdir/modules.order" "$bin" && run gen generate -o "$work/gen.bin" "$objdir/modules.order" &&
	[[ $(rc gen) == 0 && ! -s $work/gen.out ]] && cmp -s "$work/gen.bin" "$bin" &&
	run gendir generate -o "$work/gendir.bin" "$objdir" && cmp -s "$work/gendir.bin" "$bin"
tap $? "generate: the hashes build's modules.order (or its directory) gives the kernel build's .module-hashes.bin, byte for byte"

run genlist list -f raw "$work/gen.bin" && [[ $(rc genlist) == 0 ]] && cmp -s "$work/genlist.out" "$bin" &&
	run gendiff0 diff "$work/gen.bin" "$kout/vmlinux" && [[ $(rc gendiff0) == 0 ]] &&
	grep -qx "# added 0, removed 0, common $((modules * 2))" "$work/gendiff0.out" &&
	run genexport export -f sha256sum -m "$tree" "$work/gen.bin" && [[ $(rc genexport) == 0 ]] &&
	cmp -s "$work/genexport.out" "$work/modules.sha256"
tap $? "generate: list, diff (against vmlinux: exit 0) and export read the generated list as they read the kernel's"

run gentrees generate -o "$work/gentrees.bin" "$tree" "$stree" &&
	[[ $(rc gentrees) == 0 ]] && cmp -s "$work/gentrees.bin" "$bin" &&
	run genstrip generate --forms=built,stripped -o "$work/genstrip.bin" "$tree" &&
	cmp -s "$work/genstrip.bin" "$bin"
tap $? "generate: the installed tree and the INSTALL_MOD_STRIP=1 tree together (or the first stripped by strip) give the kernel's list"

mkdir -p "$work/genz/sub"
cp "$m/crc7.ko.xz" "$m/crc7.ko.gz" "$work/genz/" 2>/dev/null
cp "$m/crc7.ko.zst" "$work/genz/sub/" 2>/dev/null
run genz generate -f hex "$work/genz"
[[ $(rc genz) == 0 ]] && [[ $(cat "$work/genz.out") == "sha256:$(sha256sum < "$m/crc7.ko" | cut -d' ' -f1)" ]]
tap $? "generate: a directory of crc7.ko.xz, .gz and .zst (walked) lists one digest, that of crc7.ko decompressed"

mkdir -p "$work/gbuild"
{ sed "s#^#$objdir/#" "$objdir/modules.order" 2>/dev/null; echo lib/gone.o; } > "$work/gbuild/modules.order"
gone_line=$(wc -l < "$work/gbuild/modules.order")
run gengone generate -o "$work/gengone.bin" "$work/gbuild/modules.order"
[[ $(rc gengone) == 2 && ! -s $work/gengone.out ]] && ! ls "$work"/gengone.bin* > /dev/null 2>&1 &&
	[[ $(cat "$work/gengone.err") == "modhash generate: $work/gbuild/lib/gone.ko: missing (named by $work/gbuild/modules.order, line $gone_line)" ]]
tap $? "generate: a module modules.order names that is missing stops it with the module's name and line, exit 2, no output file"

# --- lint-policy on the usual exemptions --------------------------------------
# The dont_ lines of IMA's built-in policies for filesystems that cannot
# hold a module file pass; tmpfs, which can (memfd_create), is blamed on
# its own line with the rule it defeats.
for action in dont_appraise dont_measure; do
	for magic in 0x9fa0 0x62656572 0x64626720 0x1cd1 0x42494e4d 0x73636673 \
		0xf97cff8c 0x43415d53 0x27e0eb 0x63677270 0x6e736673 0xde5e81e4; do
		echo "$action fsmagic=$magic"
	done
done > "$work/usual.policy"
cat "$top/ima-policy/attest-modules.policy" >> "$work/usual.policy"
run usual lint-policy "$work/usual.policy"
{ echo 'dont_appraise fsmagic=0x01021994'; cat "$work/usual.policy"; } > "$work/tmpfs.policy"
run tmpfs lint-policy "$work/tmpfs.policy"
line=$(grep -n '^appraise func=MODULE_CHECK' "$work/tmpfs.policy" | cut -d: -f1)
[[ $(rc usual) == 0 && ! -s $work/usual.out && $(rc tmpfs) == 1 ]] &&
	[[ $(cat "$work/tmpfs.out") == "$work/tmpfs.policy:1:1: warning: dont_appraise matches module reads on tmpfs, which can hold module files, before the appraise rule on line $line (appraise func=MODULE_CHECK appraise_type=imasig): the modules it matches are never appraised, the allowlist is not consulted" ]]
tap $? "lint-policy: the usual dont_appraise/dont_measure lines for proc, sysfs, debugfs, securityfs... pass (exit 0); one for tmpfs is blamed on its own line (exit 1)"

# --- bad inputs -----------------------------------------------------------
head -c 100 "$bin" > "$work/truncated.bin"
run truncated list "$work/truncated.bin"
[[ $(rc truncated) == 2 ]] &&
	grep -qx "modhash list: $work/truncated.bin: size does not match the digest count (offset 100)" "$work/truncated.err"
tap $? "bad input: a truncated list exits 2 naming the file, the reason and the offset"

head -c 4096 /dev/urandom > "$work/garbage"
run garbage check -k "$work/garbage" "$m/crc7.ko"
[[ $(rc garbage) == 2 ]] && grep -q "^modhash check: $work/garbage: not a module allowlist" "$work/garbage.err"
tap $? "bad input: a garbage kernel file exits 2 naming the file"

printf 'int not_a_kernel;\n' > "$work/obj.c"
cc -c -o "$work/obj.o" "$work/obj.c"
run nosym list "$work/obj.o"
[[ $(rc nosym) == 2 ]] && grep -q "^modhash list: $work/obj.o: symbol not found (offset [0-9]*)\$" "$work/nosym.err"
tap $? "bad input: an ELF file without the list's symbols exits 2 naming the file"

grep -v module_hashes "$kout/System.map" > "$work/System.map" 2>/dev/null
run badmap list --system-map "$work/System.map" "$kout/bzImage"
[[ $(rc badmap) == 2 ]] && grep -q "^modhash list: $kout/bzImage: its System.map .*symbol not in the System.map" "$work/badmap.err"
tap $? "bad input: a bzImage with a System.map lacking the list's symbols exits 2"

: > "$work/empty.map"
run nomap list --system-map "$work/empty.map" "$kout/bzImage"
[[ $(rc nomap) == 2 ]] && [[ ! -s $work/nomap.out ]]
tap $? "bad input: a bzImage with an empty System.map exits 2 and prints nothing"

sed '2s/^\(.\{40\}\).*/\1/' "$work/module_hashes" > "$work/badtext"
run badtext list "$work/badtext"
[[ $(rc badtext) == 2 ]] && grep -q "^modhash list: $work/badtext: line 2: digest is not hex" "$work/badtext.err"
tap $? "bad input: securityfs text with a cut digest exits 2 naming its line"

run noout export -f keylime -m "$tree" -o "$work/none.json" "$work/garbage"
[[ $(rc noout) == 2 ]] && ! ls "$work"/none.json* > /dev/null 2>&1
tap $? "export -o: an error leaves no output file, not even a temporary one"

echo keep > "$work/keep.bin"
run kept list -f raw -o "$work/keep.bin" "$work/truncated.bin"
[[ $(rc kept) == 2 && $(cat "$work/keep.bin") == keep ]] && ! ls "$work"/keep.bin.* > /dev/null 2>&1
tap $? "list -o: an error leaves an existing output file as it was"

# --- inputs that never end, block or are too large ------------------------
# bounded NAME ARGS...: like run, but killed after 30 s (exit 124) and
# with 1.5 GiB of address space, so that a read that blocks or grows
# without bound fails the test instead of hanging it.
bounded() {
	local name=$1
	shift
	(ulimit -v 1572864; timeout 30 "$modhash" "$@") \
		> "$work/$name.out" 2> "$work/$name.err"
	echo $? > "$work/$name.rc"
}
# refused NAME LINE: exit 2, LINE alone on stderr, nothing on stdout.
refused() {
	[[ $(rc "$1") == 2 && $(cat "$work/$1.err") == "$2" && ! -s $work/$1.out ]] ||
		{ echo "# exit $(rc "$1"): $(head -c 200 "$work/$1.err")"; return 1; }
}
# a list of no sha256 digest: the header of <linux/module_hashes.h> alone
printf 'KMODHASH\001\000\004\000\040\000\000\000\000\000\000\000' > "$work/none.bin"
rm -f "$work/fifo" && mkfifo "$work/fifo"
mkdir -p "$work/policy.d"
truncate -s 3G "$work/huge-vmlinux"
truncate -s 65M "$work/huge.policy"

bounded zero list /dev/zero
refused zero "modhash list: /dev/zero: not a regular file (character device)"
tap $? "endless input: list /dev/zero is refused at once, exit 2, one line"

bounded fifok check -k "$work/fifo" "$work/none.bin"
refused fifok "modhash check: $work/fifo: not a regular file (FIFO)"
tap $? "endless input: check -k with a FIFO that has no writer does not wait for one"

bounded fifom check -k "$work/none.bin" "$work/fifo"
[[ $(rc fifom) == 2 ]] && grep -qx "modhash check: $work/fifo: not a regular file (FIFO)" "$work/fifom.err"
tap $? "endless input: check of a module that is a FIFO without a writer exits 2 naming it"

bounded zerolog verify-log -b sha1 -k "$work/none.bin" /dev/zero
refused zerolog "modhash verify-log: /dev/zero: not a regular file (character device)"
tap $? "endless input: verify-log /dev/zero is refused at once, exit 2, one line"

cat /dev/zero | bounded stdinlog verify-log -b sha256 -k "$work/none.bin" -
refused stdinlog "modhash verify-log: -: larger than 512 MiB, the limit for an IMA measurement list"
tap $? "endless input: verify-log of an endless stdin stops at its limit in bounded memory, exit 2"

bounded dir lint-policy "$work/policy.d"
refused dir "modhash lint-policy: $work/policy.d: not a regular file (directory)"
tap $? "bad input: lint-policy of a directory is refused with one line"

bounded hugek list "$work/huge-vmlinux"
refused hugek "modhash list: $work/huge-vmlinux: larger than 2 GiB, the limit for a kernel file"
tap $? "bad input: a kernel file over its limit (sparse, 3 GiB) is refused before it is read"

bounded hugep lint-policy "$work/huge.policy"
refused hugep "modhash lint-policy: $work/huge.policy: larger than 64 MiB, the limit for a text file"
tap $? "bad input: a policy over its limit (sparse, 65 MiB) is refused before it is read"

# --- every command's --help ------------------------------------------------
ok=0
for c in list check diff export; do
	"$modhash" "$c" --help > "$work/help-$c" 2>&1 && grep -q "^Usage: modhash $c" "$work/help-$c" || ok=1
	"$modhash" "$c" > /dev/null 2>&1; [[ $? == 2 ]] || ok=1
done
[[ -x $modhash ]] && (exit $ok)
tap $? "list, check, diff and export answer --help (exit 0) and exit 2 without arguments"

# --- version, usage errors, output files ----------------------------------
want="modhash $(dpkg-parsechangelog -l "$top/tools/debian/changelog" -S Version 2>/dev/null)"
ok=0
[[ $want != "modhash " ]] || ok=1
for c in "" list check diff export verify-log lint-policy generate; do
	for v in --version -V; do
		out=$("$modhash" $c $v 2>&1)
		[[ $? == 0 && $(head -n 1 <<< "$out") == "$want" && $(wc -l <<< "$out") == 3 ]] &&
			grep -qx 'allowlist format: KMODHASH version [0-9]*.*' <<< "$out" &&
			grep -q '^+GZIP +XZ +ZSTD .*+IMA-SIG +TPM2-QUOTE' <<< "$out" ||
			{ echo "# modhash $c $v: $(head -n 1 <<< "$out")"; ok=1; }
	done
done
(exit $ok)
tap $? "modhash --version and each command's --version and -V print $want (debian/changelog's), the format version and the features"

ok=0
for c in list check diff export verify-log lint-policy generate; do
	run "usage-$c" "$c"
	[[ $(rc "usage-$c") == 2 && ! -s $work/usage-$c.out && $(wc -l < "$work/usage-$c.err") == 2 ]] &&
		grep -q "^modhash $c: missing " "$work/usage-$c.err" &&
		[[ $(tail -n 1 "$work/usage-$c.err") == "Try 'modhash $c --help'." ]] ||
		{ echo "# $c: $(head -c 200 "$work/usage-$c.err")"; ok=1; }
done
run usage-opt list --no-such-option "$bin"
[[ $(rc usage-opt) == 2 && $(head -n 1 "$work/usage-opt.err") == "modhash list: unknown option '--no-such-option'" ]] || ok=1
(exit $ok)
tap $? "usage errors: each command without arguments, and an unknown option, say what is wrong in one line and \"Try 'modhash COMMAND --help'.\", exit 2"

ok=0
echo keep > "$work/keep-target"
ln -sfn keep-target "$work/out-link"
(umask 027; run umask list -f raw -o "$work/umask.bin" "$bin")
[[ $(rc umask) == 0 && $(stat -c %a "$work/umask.bin") == 640 ]] || { echo "# umask 027: mode $(stat -c %a "$work/umask.bin")"; ok=1; }
run link list -f raw -o "$work/out-link" "$bin"
[[ $(rc link) == 2 && -L $work/out-link && $(cat "$work/keep-target") == keep ]] &&
	grep -q "out-link: is a symbolic link" "$work/link.err" || { echo "# link: $(cat "$work/link.err")"; ok=1; }
run follow list -f raw --follow-symlinks -o "$work/out-link" "$bin"
[[ $(rc follow) == 0 && -L $work/out-link ]] && cmp -s "$work/keep-target" "$bin" || ok=1
(exit $ok)
tap $? "list -o: mode 0666 less the umask (640 under 027); a symbolic link is refused, or its target replaced with --follow-symlinks"

# --- install --------------------------------------------------------------
dest=$work/dest
make -s -C "$top/tools" O="$build/tools/modhash" \
	UAPI_HEADER="$build/src/patched/include/uapi/linux/module_hashes.h" \
	install DESTDIR="$dest" PREFIX=/usr > "$work/install.log" 2>&1
[[ -x $dest/usr/bin/modhash ]] && "$dest/usr/bin/modhash" --help > /dev/null &&
	have "$dest"/usr/share/man/man1/modhash{,-list,-check,-diff,-export}.1
tap $? "make install DESTDIR PREFIX=/usr puts bin/modhash and the man pages"

ok=0
for page in "$dest"/usr/share/man/man1/modhash*.1; do
	[[ -f $page ]] || { ok=1; continue; }
	warnings=$(MANWIDTH=80 man -l --warnings "$page" 2>&1 > /dev/null)
	[[ -z $warnings ]] || { echo "# $page: $warnings"; ok=1; }
	MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^EXIT STATUS' || { echo "# $page: no EXIT STATUS"; ok=1; }
done
(exit $ok)
tap $? "man -l renders every installed page without warnings, each with an EXIT STATUS section"
