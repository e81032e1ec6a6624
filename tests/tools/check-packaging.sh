#!/bin/bash
# Usage: check-packaging.sh BUILD_DIR
# modhash as a packager builds it (issue 31, item 6), in TAP.  Host only,
# under a minute: everything is built into BUILD_DIR/packaging against the
# patched tree's UAPI header (BUILD_DIR/src/patched), and the Debian
# package from tools/make-source-package.sh.
#  - tools/Makefile: the caller's CPPFLAGS, CFLAGS and LDFLAGS (Debian's
#    hardening flags) in every compile and link command and their
#    hardening in the program; a warning fails the build only with
#    WERROR=1, which the project's Makefile sets; "make" builds the
#    program without cmocka; install and uninstall in a DESTDIR;
#  - the bash completion, sourced in a non-interactive bash with
#    bash-completion's helpers: commands, each command's options as its
#    --help lists them, option values, files and directories;
#  - the Debian package: the source package carries the series' header;
#    dpkg-buildpackage builds source and binary, with the flags in every
#    command of its log (as blhc checks them) and the hardening in the
#    packaged program; lintian finds no error or warning (its info and
#    pedantic tags are shown as comments) and does find them in a broken
#    copy; Build-Depends has every library the Makefile links; the packaged
#    modhash runs; a second build elsewhere gives the same .deb bytes.
# A missing tool or build fails the tests that need it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd) || exit 1
. "$top/tests/lib/tap.sh"

tap_plan 23

tools=$top/tools
uapi=$build/src/patched/include/uapi/linux/module_hashes.h
work=$build/packaging
rm -rf "$work"
mkdir -p "$work"
status=0
result() {
	tap "$@"
	[[ $1 == 0 ]] || status=1
}
# show FILE: its last lines as TAP comments
show() {
	tail -n "${2:-15}" "$1" | sed 's/^/# /'
}
# tmake LOG ARGS...: make -C tools ARGS, its output in LOG
tmake() {
	local log=$1
	shift
	make -C "$tools" UAPI_HEADER="$uapi" "$@" > "$log" 2>&1
}
mapfile -t sources < <(cd "$tools" && ls src/*.c)

# flags_missing LOG FLAGS LDFLAGS: what the compile and link commands of
# LOG (one per source file, one per program) lack of FLAGS (compiles)
# and LDFLAGS (links), as blhc looks at a build log; nothing when all is
# there.  Also says when a source file was not compiled at all.
flags_missing() {
	local log=$1 flags=$2 ldflags=$3 line flag src
	for src in "${sources[@]}"; do
		grep -qE -- " -c -o [^ ]+ $src\$" "$log" || echo "no compile of $src"
	done
	grep -qE -- ' -o [^ ]+/modhash ' "$log" || echo "no link of modhash"
	while IFS= read -r line; do
		for flag in $flags; do
			[[ " $line " == *" $flag "* ]] || echo "$flag missing: ${line:0:100}..."
		done
	done < <(grep -E -- ' -c -o [^ ]+ src/[^ ]+\.c$' "$log")
	while IFS= read -r line; do
		for flag in $ldflags; do
			[[ " $line " == *" $flag "* ]] || echo "$flag missing: ${line:0:100}..."
		done
	done < <(grep -E -- ' -o [^ ]+/(modhash|tests/test-[a-z-]+) ' "$log" | grep -v -- ' -c ')
}

# hardening_missing PROGRAM: what of hardening-check's list PROGRAM lacks
hardening_missing() {
	local header segments dynamic symbols
	header=$(readelf -hW "$1" 2>&1)
	segments=$(readelf -lW "$1" 2>&1)
	dynamic=$(readelf -dW "$1" 2>&1)
	symbols=$(readelf --dyn-syms -W "$1" 2>&1)
	grep -q 'Type: *DYN' <<< "$header" || echo "not PIE"
	grep -q GNU_RELRO <<< "$segments" || echo "no RELRO"
	grep -qE 'BIND_NOW|Flags:.* NOW' <<< "$dynamic" || echo "no BIND_NOW (immediate binding)"
	grep -q '__stack_chk_fail' <<< "$symbols" || echo "no stack protector"
	grep -qE '__[a-z]+_chk\b' <<< "$symbols" || echo "not fortified"
}

# comment TEXT: TEXT's lines as TAP comments, nothing for no text
comment() {
	[[ -z $1 ]] || sed 's/^/# /' <<< "$1"
}

# Debian's flags with every hardening feature, as debian/rules asks.
deb_flags() {	# deb_flags NAME: dpkg-buildflags --get NAME, run in the cwd
	DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"
}

# --- 1. the caller's flags --------------------------------------------------
cd "$work" || exit 1
cppflags=$(deb_flags CPPFLAGS)
cflags=$(deb_flags CFLAGS)
ldflags=$(deb_flags LDFLAGS)
tmake "$work/flags.log" -j"$(nproc)" O="$work/flags" \
	CPPFLAGS="$cppflags" CFLAGS="$cflags" LDFLAGS="$ldflags"
rc=$?
missing=$(flags_missing "$work/flags.log" "$cppflags $cflags" "$ldflags")
[[ $rc == 0 && -n $cflags && -n $ldflags && -z $missing ]]
result $? "make CPPFLAGS=... CFLAGS=... LDFLAGS=... (dpkg-buildflags, hardening=+all): each flag in every compile and link command"
[[ $rc == 0 ]] || show "$work/flags.log"
comment "$(head -n 5 <<< "$missing")"

missing=$(hardening_missing "$work/flags/modhash")
[[ -x $work/flags/modhash && -z $missing ]]
result $? "the program built with them is hardened: PIE, RELRO, BIND_NOW, stack protector, fortified"
comment "$missing"

# --- 2. -Werror only when asked ---------------------------------------------
# A header forced into every file that makes gcc warn (-Wunused-variable).
printf 'static int modhash_packaging_probe;\n' > "$work/warn.h"
probe=$work/warn/obj/main.o
tmake "$work/warn.log" O="$work/warn" CPPFLAGS="-include $work/warn.h" "$probe"
rc=$?
[[ $rc == 0 && -f $probe ]] && grep -q "warning: .*modhash_packaging_probe" "$work/warn.log"
result $? "without WERROR a warning is a warning: the build goes on"
[[ $rc == 0 ]] || show "$work/warn.log" 5

rm -rf "$work/warn"
tmake "$work/werror.log" O="$work/warn" CPPFLAGS="-include $work/warn.h" WERROR=1 "$probe"
rc=$?
[[ $rc != 0 && ! -f $probe ]] && grep -q "error: .*modhash_packaging_probe" "$work/werror.log"
result $? "with WERROR=1 the same warning stops the build"

# The project's own build asks for it: the command its Makefile runs.
# Asked without CI=true: under make check in CI, the Makefile exports
# KERNEL_CC, which a nested make under CI=true would take for a knob.
printf 'show-modhash-make:\n\t@echo $(MODHASH_MAKE)\n' > "$work/show.mk"
top_make=$(env -u CI make -s -C "$top" -f Makefile -f "$work/show.mk" show-modhash-make 2>&1)
[[ " $top_make " == *" WERROR=1 "* ]]
result $? "the project's Makefile builds modhash with WERROR=1"
[[ " $top_make " == *" WERROR=1 "* ]] || echo "# MODHASH_MAKE: $top_make"

# --- 3. make without cmocka ---------------------------------------------------
# cmocka made unusable: its header an #error, pkg-config without it.
mkdir -p "$work/no-cmocka/include" "$work/no-cmocka/bin"
printf '#error cmocka is not installed here\n' > "$work/no-cmocka/include/cmocka.h"
cat > "$work/no-cmocka/bin/pkg-config" <<'EOF'
#!/bin/sh
for arg; do [ "$arg" = cmocka ] && { echo "Package cmocka was not found" >&2; exit 1; }; done
exec pkg-config "$@"
EOF
chmod +x "$work/no-cmocka/bin/pkg-config"
no_cmocka=(O="$work/no-cmocka/out" CPPFLAGS="-I$work/no-cmocka/include" PKG_CONFIG="$work/no-cmocka/bin/pkg-config")
tmake "$work/no-cmocka.log" -j"$(nproc)" "${no_cmocka[@]}"
rc=$?
[[ $rc == 0 && -x $work/no-cmocka/out/modhash && ! -e $work/no-cmocka/out/tests ]]
result $? "make (the default target) builds modhash alone with cmocka missing"
[[ $rc == 0 ]] || show "$work/no-cmocka.log" 5

tmake "$work/no-cmocka-tests.log" "${no_cmocka[@]}" tests
[[ $? != 0 ]] && grep -q 'cmocka' "$work/no-cmocka-tests.log"
result $? "... and that cmocka is missing there: make tests fails for it"

# --- 4. install, uninstall ------------------------------------------------
dest=$work/dest
tmake "$work/install.log" O="$work/flags" DESTDIR="$dest" PREFIX=/opt/mh install
rc=$?
ok=0
[[ $rc == 0 && -x $dest/opt/mh/bin/modhash ]] || ok=1
for page in "$tools"/man/*.1; do
	cmp -s "$page" "$dest/opt/mh/share/man/man1/${page##*/}" || { echo "# not installed: ${page##*/}"; ok=1; }
done
cmp -s "$tools/completion/modhash.bash" "$dest/opt/mh/share/bash-completion/completions/modhash" ||
	{ echo "# completion not installed"; ok=1; }
(exit $ok)
result $? "make install DESTDIR PREFIX=/opt/mh: bin/modhash, every man page, share/bash-completion/completions/modhash"
[[ $rc == 0 ]] || show "$work/install.log" 5

# Without UAPI_HEADER or a build: uninstall needs neither.
make -C "$tools" O="$work/none" DESTDIR="$dest" PREFIX=/opt/mh uninstall > "$work/uninstall.log" 2>&1
rc=$?
left=$(find "$dest" ! -type d)
[[ $rc == 0 && -d $dest/opt/mh/bin && -z $left ]]
result $? "make uninstall with the same DESTDIR and PREFIX leaves no file behind"
[[ $rc == 0 ]] || show "$work/uninstall.log" 5
[[ -z $left ]] || sed 's/^/# left: /' <<< "$left"

# --- 5. bash completion --------------------------------------------------
modhash=$work/flags/modhash
completion=$tools/completion/modhash.bash
# completes WORD...: what bash offers for the last WORD of "modhash WORD...",
# sorted, one a line, as bash-completion would load and call it.
completes() {
	bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion || exit 1
		. "$1" || exit 1
		compopt() { :; }	# only valid in a real completion
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		complete -p modhash > /dev/null || exit 1
		_modhash modhash "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort -u
	' _ "$completion" "$modhash" "$@" 2>&1
}
lines() { printf '%s\n' "$@" | sort -u; }

# long_options [COMMAND]: the long options modhash [COMMAND] --help lists on
# its option lines, found by a plain grep, "=" after those that take a value
long_options() {
	"$modhash" "$@" --help | grep -E '^ {1,8}-' | sed -E 's/^ +//; s/  .*//' |
		grep -oE -- '--[a-z0-9-]+(=| [A-Z[])?' | sed -E 's/ .$/=/' | sort -u
}
commands=$("$modhash" --help | awk '/^Commands:/ { on = 1; next } on && NF { print $1 } on && !NF { exit }')
want=$(lines $commands --help $(long_options))
got=$(completes "")
[[ -n $commands && $(wc -l <<< "$commands") -ge 6 && $got == "$want" &&
	$(completes li) == "$(lines list lint-policy)" ]]
result $? "completion: the commands modhash --help lists ($(echo $commands))"
[[ $got == "$want" ]] || sed 's/^/# got: /' <<< "$got"

ok=0
for c in $commands; do
	want=$(long_options "$c")
	got=$(completes "$c" --)
	if [[ -z $want || $got != "$want" ]]; then
		ok=1
		echo "# $c: want $(echo $want); got $(echo $got)"
	fi
done
(exit $ok)
result $? "completion: each command's long options, as its --help lists them (\"=\" after those that take a value)"

ok=0
[[ $(completes list --format=) == "$(lines hex sha256sum json raw)" ]] || { ok=1; echo "# list --format=: $(completes list --format=)"; }
[[ $(completes export -f "") == "$(lines sha256sum keylime)" ]] || { ok=1; echo "# export -f: $(completes export -f "")"; }
[[ $(completes verify-log --bank sha2) == "$(lines sha224 sha256)" ]] || { ok=1; echo "# --bank sha2: $(completes verify-log --bank sha2)"; }
completes check --strip stri | grep -qx strip || { ok=1; echo "# --strip: no program strip"; }
(exit $ok)
result $? "completion: option values (list --format=, export -f, verify-log --bank, a program for --strip)"

mkdir -p "$work/files/dir-a" "$work/files/dir-b"
touch "$work/files/file-a.ko" "$work/files/file-b"
ok=0
[[ $(completes list --modules "$work/files/") == "$(lines "$work/files/dir-a" "$work/files/dir-b")" ]] ||
	{ ok=1; echo "# --modules: $(completes list --modules "$work/files/")"; }
[[ $(completes check "$work/files/") == "$(lines "$work/files/"{dir-a,dir-b,file-a.ko,file-b})" ]] ||
	{ ok=1; echo "# check: $(completes check "$work/files/")"; }
[[ $(completes verify-log --kernel "$work/files/fi") == "$(lines "$work/files/"{file-a.ko,file-b})" ]] ||
	{ ok=1; echo "# --kernel: $(completes verify-log --kernel "$work/files/fi")"; }
(exit $ok)
result $? "completion: directories for --modules, files for arguments and --kernel"

# --- 6. the Debian package ------------------------------------------------
deb=$work/deb
"$tools/make-source-package.sh" "$deb" > "$work/source.log" 2>&1
rc=$?
version=$(dpkg-parsechangelog -l "$tools/debian/changelog" -S Version 2>/dev/null)
tree=$deb/modhash-$version
header=$tree/include/uapi/linux/module_hashes.h
copies=$(cd "$top" && git ls-files | grep 'module_hashes\.h$')
[[ $rc == 0 && -f $deb/modhash_$version.dsc ]] && cmp -s "$header" "$uapi" && [[ -z $copies ]]
result $? "make-source-package.sh: a .dsc whose tree has the patched tree's module_hashes.h, taken from kernel/patches (no copy in git)"
[[ $rc == 0 ]] || show "$work/source.log" 5
[[ -z $copies ]] || echo "# committed copies: $(echo $copies)"

(cd "$tree" && dpkg-buildpackage -us -uc) > "$work/dpkg-buildpackage.log" 2>&1
rc=$?
changes=$deb/modhash_${version}_$(dpkg --print-architecture).changes
package=$deb/modhash_${version}_$(dpkg --print-architecture).deb
[[ $rc == 0 && -f $changes && -f $package ]] &&
	grep -q '^ok ' "$work/dpkg-buildpackage.log" && ! grep -q '^not ok' "$work/dpkg-buildpackage.log"
result $? "dpkg-buildpackage -us -uc builds the source and binary packages, the unit tests passing (dh_auto_test: make check)"
[[ $rc == 0 ]] || show "$work/dpkg-buildpackage.log"

pkgflags() { (cd "$tree" && deb_flags "$1"); }
missing=$(flags_missing "$work/dpkg-buildpackage.log" "$(pkgflags CPPFLAGS) $(pkgflags CFLAGS)" "$(pkgflags LDFLAGS)")
[[ $rc == 0 && -z $missing ]]
result $? "the package's build log: dpkg-buildflags' hardening flags in every compile and link (blhc's check)"
comment "$(head -n 5 <<< "$missing")"

root=$work/root
rm -rf "$root"
dpkg-deb -x "$package" "$root" 2>/dev/null
missing=$(hardening_missing "$root/usr/bin/modhash")
[[ -x $root/usr/bin/modhash && -z $missing ]]
result $? "the packaged /usr/bin/modhash is hardened: PIE, RELRO, BIND_NOW, stack protector, fortified"
comment "$missing"

lintian --pedantic --display-info --fail-on error,warning "$changes" > "$work/lintian.log" 2>&1
rc=$?
grep -qE '^[EW]: ' "$work/lintian.log"
flagged=$?
[[ $rc == 0 && $flagged != 0 && -f $changes ]]
result $? "lintian on the .changes (.dsc, .deb, -dbgsym .deb): no error, no warning"
grep -E '^[EWIPX]: ' "$work/lintian.log" | sed 's/^/# lintian: /'
[[ $rc == 0 ]] || show "$work/lintian.log" 5

# Lintian does look: a source package with a broken control and copyright.
broken=$work/broken
rm -rf "$broken"
mkdir -p "$broken"
dpkg-source -x "$deb/modhash_$version.dsc" "$broken/modhash-$version" > /dev/null 2>&1 &&
	sed -i '/^Standards-Version:/d' "$broken/modhash-$version/debian/control" &&
	sed -i 's/^License: GPL-2$/License: GPL 2/' "$broken/modhash-$version/debian/copyright" &&
	(cd "$broken" && dpkg-source -b "modhash-$version") > /dev/null 2>&1
lintian --fail-on error,warning "$broken/modhash_$version.dsc" > "$work/lintian-broken.log" 2>&1
rc=$?
[[ $rc != 0 ]] && grep -q 'Standards-Version' "$work/lintian-broken.log" &&
	grep -q 'dep5-copyright' "$work/lintian-broken.log"
result $? "lintian reports a copy with no Standards-Version and a bad license name"

"$root/usr/bin/modhash" --help > "$work/help.out" 2>&1
rc=$?
[[ $rc == 0 ]] && grep -q '^Usage: modhash' "$work/help.out" &&
	[[ -f $root/usr/share/bash-completion/completions/modhash && -f $root/usr/share/man/man1/modhash.1.gz &&
		-f $root/usr/share/doc/modhash/copyright ]] &&
	dpkg-deb -f "$package" Depends | grep -q 'libelf1'
result $? "the packaged modhash runs --help; the package has its man pages, completion, copyright, and library Depends"
[[ $rc == 0 ]] || show "$work/help.out" 5

# The description lists each command (a new one needs a line there).
description=$(dpkg-deb -f "$package" Description 2>/dev/null)
ok=0
for c in $commands; do
	grep -q "^ *- $c: " <<< "$description" || { ok=1; echo "# no \"- $c:\" line in debian/control's Description"; }
done
[[ -n $description ]] && (exit $ok)
result $? "the package's description has a line for each command of modhash --help"

# Every library the Makefile links comes from a package in Build-Depends:
# the package of its .pc file (pkg-config) or of its .so (-lNAME).
pc_libs=$(make -s -C "$tools" -pn clean 2>/dev/null | sed -n 's/^PC_LIBS := //p' | head -n 1)
no_pc=$(make -s -C "$tools" -pn clean 2>/dev/null | sed -n 's/^NO_PC_LIBS := //p' | head -n 1)
build_depends=$(awk '/^Build-Depends:/ { on = 1; sub(/^[^:]*:/, ""); print; next }
	on && /^[ \t]/ { print; next } { on = 0 }' "$tools/debian/control")
listed() {	# listed PACKAGE: is PACKAGE in Build-Depends
	local re="(^|[ ,])$1([ ,(<]|\$)"
	[[ -n $1 && $build_depends =~ $re ]]
}
ok=0
[[ -n $pc_libs ]] || ok=1
for lib in $pc_libs cmocka; do
	file=$(pkg-config --variable=pcfiledir "$lib" 2>/dev/null)/$lib.pc
	owner=$(dpkg -S "$file" 2>/dev/null | cut -d: -f1 | head -n 1)
	listed "$owner" || { ok=1; echo "# $lib ($file): package ${owner:-?} not in Build-Depends"; }
done
for lib in $no_pc; do
	file=$(realpath -s "$(gcc -print-file-name="lib${lib#-l}.so")")
	owner=$(dpkg -S "$file" 2>/dev/null | cut -d: -f1 | head -n 1)
	listed "$owner" || { ok=1; echo "# $lib ($file): package ${owner:-?} not in Build-Depends"; }
done
(exit $ok)
result $? "Build-Depends has the package of every library tools/Makefile links ($(echo $pc_libs cmocka $no_pc))"

# A second build from another directory, at another time (dpkg-buildpackage
# takes SOURCE_DATE_EPOCH from the changelog), gives the same bytes.
again=$work/again/elsewhere
"$tools/make-source-package.sh" "$again" > /dev/null 2>&1 &&
	(cd "$again/modhash-$version" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) > "$work/again.log" 2>&1
rc=$?
[[ $rc == 0 ]] && cmp -s "$package" "$again/${package##*/}"
result $? "a second dpkg-buildpackage in another directory gives the same .deb, byte for byte"
[[ $rc == 0 ]] || show "$work/again.log" 5

exit $status
