#!/bin/bash
# Usage: install-deps.sh LABEL PACKAGE...
# Install with apt-get the Debian packages of the list that are missing
# (as root, on Debian 12), telling the user which and how long it takes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
label=$1
shift
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
	echo "$label: all $# installed"
	exit 0
fi
# A function step.sh can run: exported to its bash.
apt_install() {
	apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
export -f apt_install
"$here/step.sh" "$label: installing ${missing[*]}" "3 min" "${LOG_DIR:-/tmp}/apt.log" \
	apt_install "${missing[@]}"
