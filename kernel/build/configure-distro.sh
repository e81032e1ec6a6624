#!/bin/sh
# Usage: configure-distro.sh TREE OBJ
# Configure the out-of-tree build OBJ of TREE as the "distro" kernel:
#  1. Debian's own 6.12 amd64 configuration, as the linux-config-6.12
#     package ships it ($DEBIAN_KERNEL_CONFIG), brought to this tree with
#     olddefconfig (the series' new options take their defaults: off);
#  2. its module set reduced by make localmodconfig to the modules of
#     kernel/configs/distro-modules.txt and distro-guest.lsmod;
#  3. kernel/configs/distro.config on top: the allowlist and the other
#     deviations from Debian, and the built-in options cut for build time,
#     each with its reason.  Fail, naming the option, when Kconfig did not
#     keep a value the fragment asks for.
# Then the trusted certificates go into OBJ (trusted-keys.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
configs=$here/../configs
tree=$1
obj=$2
debian_config=${DEBIAN_KERNEL_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
[ -f "$debian_config" ] ||
	{ echo "$0: $debian_config: no such file (install linux-config-6.12)" >&2; exit 1; }

kconfig() {
	make -s -C "$tree" O="$obj" "$@" </dev/null
}

mkdir -p "$obj"
obj=$(cd "$obj" && pwd)
xz -dc "$debian_config" > "$obj/.config"
kconfig olddefconfig

# localmodconfig reads lsmod's output: a header line, then a name per line.
{
	echo "Module                  Size  Used by"
	grep -v -e '^#' -e '^$' "$configs/distro-modules.txt" | sed 's/$/ 0 0/'
	sed 1d "$configs/distro-guest.lsmod"
} > "$obj/distro.lsmod"
# Options the series adds are asked for again by localmodconfig's
# oldconfig step; with no terminal the defaults are taken, and its
# questions (and streamline_config.pl's notes) would only fill the log.
if ! kconfig LSMOD="$obj/distro.lsmod" localmodconfig >"$obj/localmodconfig.log" 2>&1; then
	cat "$obj/localmodconfig.log" >&2
	exit 1
fi

# Kconfig warns of each option the fragment sets again: expected here.
cat "$configs/distro.config" >> "$obj/.config"
if ! kconfig olddefconfig 2>"$obj/olddefconfig.log"; then
	cat "$obj/olddefconfig.log" >&2
	exit 1
fi
grep -v 'warning: override: reassigning to symbol' "$obj/olddefconfig.log" >&2 || true
"$here/check-config.sh" "$obj/.config" "$configs/distro.config"
"$here/trusted-keys.sh" "$obj"
