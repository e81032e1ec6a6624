#!/bin/bash
# Usage: check-generator.sh BUILD_DIR VARIANT...
# The allowlist generator (scripts/module-hashes.c of the patched tree,
# built as BUILD_DIR/tools/module-hashes), on modules of the first
# VARIANT's build, and its use by kbuild in the build of each VARIANT
# (hashes, btf), in TAP.
set -uo pipefail
build=$(cd "$1" && pwd)
shift
variants=$*
gen=$build/tools/module-hashes
obj=$build/src/patched/obj-$1
work=$build/tmp/generator
rm -rf "$work"
mkdir -p "$work/tree/a" "$work/tree/b"
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/allowlist.sh"
. "$(dirname "$0")/../lib/module-file.sh"
btf_checks=0
[[ " $variants " == *" btf "* ]] && btf_checks=1
tap_plan $((11 + 7 * $# + btf_checks))

cd "$work/tree"
cp "$obj/lib/crc7.ko" a/x.ko
cp "$obj/lib/crc8.ko" b/y.ko
printf 'a/x.o\nb/y.o\n' > modules.order
# the stripped forms, as Makefile.modfinal makes them
strip --strip-debug -o a/x.ko.stripped a/x.ko
strip --strip-debug -o b/y.ko.stripped b/y.ko

"$gen" -a sha256 -f built,stripped -o "$work/list" modules.order
tap $? "hashes a modules.order"
expected=$(sha256sum a/x.ko b/y.ko a/x.ko.stripped b/y.ko.stripped | cut -d' ' -f1 | sort -u)
[[ $(list_digests "$work/list") == "$expected" ]]
tap $? "-f built,stripped: the sorted, unique sha256 of each x.ko and x.ko.stripped"
"$gen" -a sha256 -f stripped -o "$work/list-stripped" modules.order &&
	[[ $(list_digests "$work/list-stripped") == "$(sha256sum a/x.ko.stripped b/y.ko.stripped | cut -d' ' -f1 | sort)" ]] &&
	"$gen" -a sha256 -o "$work/list-built" modules.order &&
	[[ $(list_digests "$work/list-built") == "$(sha256sum a/x.ko b/y.ko | cut -d' ' -f1 | sort)" ]]
tap $? "-f stripped hashes only x.ko.stripped, the default only x.ko: one digest per module"
mv a/x.ko.stripped "$work/x.saved"
"$gen" -a sha256 -f built,stripped -o "$work/nostripped" modules.order 2> "$work/nostripped.err"
rc=$?
mv "$work/x.saved" a/x.ko.stripped
[[ $rc == 1 && ! -e $work/nostripped ]] && grep -q 'a/x.ko.stripped: No such file' "$work/nostripped.err"
tap $? "a missing stripped form: exit 1 naming the file, nothing written"
"$gen" -a sha256 -f built,debug -o "$work/badform" modules.order 2> "$work/badform.err"
[[ $? == 2 && ! -e $work/badform ]] && grep -q 'debug: unknown form' "$work/badform.err"
tap $? "an unknown form is a usage error (exit 2), nothing written"
header=$(head -c 20 "$work/list" | od -An -v -tx1 | tr -d ' \n')
count=$(printf '%08x' "$(echo "$expected" | wc -l)")
le_count=${count:6:2}${count:4:2}${count:2:2}${count:0:2}
[[ $header == 4b4d4f4448415348010004002000000"0"$le_count ]]
tap $? "header: KMODHASH, version 1, HASH_ALGO_SHA256, 32-byte digests, count"

"$gen" -j 1 -a sha256 -f built,stripped -o "$work/list1" modules.order &&
	"$gen" -j 8 -a sha256 -f built,stripped -o "$work/list8" modules.order &&
	PARALLELISM=3 "$gen" -a sha256 -f built,stripped -o "$work/listp" modules.order &&
	cmp -s "$work/list1" "$work/list8" && cmp -s "$work/list1" "$work/listp"
tap $? "the output does not depend on the number of threads (-j 1, -j 8, PARALLELISM=3)"

"$gen" -a sha512 -o "$work/list512" modules.order &&
	[[ $(list_digests "$work/list512" 128) == "$(sha512sum a/x.ko b/y.ko | cut -d' ' -f1 | sort)" ]] &&
	[[ $(od -An -tu2 -j10 -N4 "$work/list512" | tr -s ' ') == " 6 64" ]]
tap $? "sha512: HASH_ALGO_SHA512 (6), 64-byte digests"

: > "$work/empty.order"
"$gen" -a sha256 -o "$work/empty" "$work/empty.order" 2> "$work/empty.err" &&
	[[ $(stat -c %s "$work/empty") == 20 && ! -s $work/empty.err ]]
tap $? "an empty modules.order gives a valid empty list, silently"

printf 'a/x.o\nc/missing.o\n' > "$work/missing.order"
cp "$work/list" "$work/kept"
"$gen" -a sha256 -o "$work/kept" "$work/missing.order" 2> "$work/missing.err"
rc=$?
[[ $rc == 1 ]] && grep -q 'c/missing.ko' "$work/missing.err" && cmp -s "$work/list" "$work/kept" &&
	[[ -z $(find "$work" -name 'kept.tmp*') ]]
tap $? "a missing module: exit 1 naming it, the old output untouched, no temporary left"
sed 's/^/# /' "$work/missing.err"

"$gen" -a md5 -o "$work/md5" modules.order 2>/dev/null
[[ $? == 2 && ! -e $work/md5 ]]
tap $? "an unknown algorithm is a usage error (exit 2), nothing written"

# kbuild: an incremental rebuild restores a removed module and the list,
# also with module BTF, where the modules are encoded against the BTF of
# vmlinux made before them (patch 6).  Same compiler and settings as the
# build itself (kmake.sh), so that nothing else is rebuilt.
top=$(cd "$(dirname "$0")/../.." && pwd)
for variant in $variants; do
	vobj=$build/src/patched/obj-$variant
	kout=$build/out/$variant

	# The stripped forms modfinal made are what strip --strip-debug
	# makes, the list holds both forms, and no strip runs in the step.
	bad=
	while read -r o; do
		strip --strip-debug -o "$work/check.ko" "$vobj/${o%.o}.ko" &&
			cmp -s "$work/check.ko" "$vobj/${o%.o}.ko.stripped" || bad="$bad ${o%.o}"
	done < "$vobj/modules.order"
	[[ -z $bad && -s $vobj/modules.order ]]
	tap $? "kbuild, $variant: modfinal made each x.ko.stripped, byte for byte strip --strip-debug of x.ko${bad:+ (wrong:$bad)}"
	step=$(allowlist_step "$vobj") && [[ $step == *" -f built,stripped" && $step != *strip\ * ]] &&
		grep -q 'jobserver-exec' "$vobj/..module-hashes.bin.cmd" &&
		(cd "$vobj" && $step -o "$work/again.bin" modules.order) &&
		[[ $(list_digests "$work/again.bin") == "$(cd "$vobj" && sed 's/\.o$//' modules.order |
			while read -r m; do sha256sum "$m.ko" "$m.ko.stripped"; done | cut -d' ' -f1 | sort -u)" ]] &&
		cmp -s "$work/again.bin" "$vobj/.module-hashes.bin"
	tap $? "kbuild, $variant: the step (-f built,stripped, through jobserver-exec) hashes the two forms and nothing else"

	# A host <linux/module_hashes.h> (an older or newer format) must not
	# shadow the tree's: kbuild's own command for the generator, run again
	# with a poisoned header first on the system include path
	# (C_INCLUDE_PATH is searched before /usr/include and before any
	# -idirafter directory), builds a generator that makes the same list.
	mkdir -p "$work/poison/linux"
	echo '#error "the host header was used, not the tree'"'"'s"' > "$work/poison/linux/module_hashes.h"
	gencmd=$(sed -n 's/^savedcmd_scripts\/module-hashes := //p' "$vobj/scripts/.module-hashes.cmd")
	gencmd=${gencmd/-Wp,-MMD,scripts\/.module-hashes.d/}
	gencmd=${gencmd/-o scripts\/module-hashes /-o $work/module-hashes-poisoned }
	[[ $gencmd == *"-o $work/module-hashes-poisoned "* ]] &&
		(cd "$vobj" && C_INCLUDE_PATH=$work/poison bash -c "$gencmd") > "$work/poison.out" 2>&1 &&
		# shellcheck disable=SC2086 # the step's options are words
		(cd "$vobj" && "$work/module-hashes-poisoned" ${step#*/scripts/module-hashes} -o "$work/poisoned.bin" modules.order) &&
		cmp -s "$work/poisoned.bin" "$vobj/.module-hashes.bin"
	tap $? "kbuild, $variant: a host <linux/module_hashes.h> first on the include path does not change the generator"
	grep -m 3 'error' "$work/poison.out" | sed 's/^/# /'

	# modules_install INSTALL_MOD_STRIP=1 installed those very files
	bad=
	while read -r o; do
		installed=$(find "$kout/modules-stripped/lib/modules" -path "*/kernel/${o%.o}.ko*" | head -n 1)
		[[ -n $installed ]] && cmp -s <(module_bytes "$installed") "$vobj/${o%.o}.ko.stripped" || bad="$bad ${o%.o}"
	done < "$vobj/modules.order"
	[[ -z $bad ]]
	tap $? "kbuild, $variant: modules_install INSTALL_MOD_STRIP=1 installed x.ko.stripped as it is${bad:+ (differs:$bad)}"

	# Any other strip option would install modules the list does not know:
	# refused before anything is removed or copied.
	rm -rf "$work/inst"
	KERNEL_CC=$(cat "$kout/compiler") "$top/kernel/build/kmake.sh" "$build/src/patched" "$variant" \
		INSTALL_MOD_PATH="$work/inst" INSTALL_MOD_STRIP=--strip-all modules_install > "$work/inst.out" 2>&1
	rc=$?
	[[ $rc != 0 && ! -e $work/inst/lib/modules ]] &&
		grep -q 'INSTALL_MOD_STRIP=--strip-all: the module allowlist (CONFIG_MODULE_HASHES) only knows modules stripped with INSTALL_MOD_STRIP=1' "$work/inst.out"
	tap $? "kbuild, $variant: modules_install INSTALL_MOD_STRIP=--strip-all stops with that reason and installs nothing"
	[[ $rc != 0 ]] || tail -n 5 "$work/inst.out" | sed 's/^/# /'
	cp "$vobj/.module-hashes.bin" "$work/before.bin"
	rm "$vobj/lib/crc7.ko"
	KERNEL_CC=$(cat "$build/out/$variant/compiler") "$top/kernel/build/kmake.sh" \
		"$build/src/patched" "$variant" -j"$(nproc)" bzImage modules > "$work/make.out" 2>&1
	[[ -f $vobj/lib/crc7.ko ]] && cmp -s "$work/before.bin" "$vobj/.module-hashes.bin" &&
		cmp -s "$vobj/vmlinux" "$build/out/$variant/vmlinux"
	rc=$?
	tap $rc "kbuild, $variant: rm lib/crc7.ko; make rebuilds it, the same list, the same vmlinux"
	[[ $rc == 0 ]] || sed 's/^/# /' "$work/make.out" | tail -n 20

	# Nothing changed since: another make must link nothing and run no
	# pahole, so vmlinux, the temporary links, the BTF-only link, the BTF
	# pahole writes (.tmp_vmlinux*.btf.o) and the list keep their mtimes.
	touch "$work/marker"
	sleep 1
	KERNEL_CC=$(cat "$build/out/$variant/compiler") "$top/kernel/build/kmake.sh" \
		"$build/src/patched" "$variant" -j"$(nproc)" bzImage modules > "$work/noop.out" 2>&1
	rc=$?
	rewritten=$(find "$vobj" -maxdepth 1 -newer "$work/marker" \( -name vmlinux -o -name '.tmp_vmlinux*' -o -name '.btf*' -o -name '.module-hashes*' \) -printf '%f ')
	[[ $rc == 0 && -z $rewritten ]]
	tap $? "kbuild, $variant: a second make with nothing changed links nothing and runs no pahole"
	[[ -z $rewritten ]] || echo "# rewritten: $rewritten"
done
if [[ $btf_checks == 1 ]]; then
	readelf -S -W "$build/src/patched/obj-btf/lib/crc7.ko" | grep -q ' \.BTF '
	tap $? "kbuild, btf: the rebuilt crc7.ko has its BTF"
fi
