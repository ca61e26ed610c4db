#!/bin/sh
# Make sure the Debian packages rndbits builds and tests with are installed (python3-yaml: the
# harness test that parses the CI templates, .github/workflows/ci.yml and .gitlab-ci.yml).
#   qemu/deps.sh [EXTRA_PACKAGE...]     (the Makefile runs it before anything else)
# Installed: silent, status 0. Missing and root: apt-get update + install, then status 0.
# Missing and not root: prints the command to run as root and exits with status 1.
# One dpkg-query call, so it is cheap enough to run on every make invocation.
set -u

PACKAGES="cmake make gcc gcc-arm-none-eabi binutils-arm-none-eabi gcc-aarch64-linux-gnu
binutils-aarch64-linux-gnu gcc-i686-linux-gnu binutils-i686-linux-gnu qemu-system-arm
qemu-system-x86 libcmocka-dev python3 python3-yaml coreutils"

if ! command -v dpkg-query >/dev/null 2>&1; then
	[ -n "${RNDBITS_DEPS_QUIET:-}" ] ||
		echo "qemu/deps.sh: no dpkg-query (not Debian?): not checking packages" >&2
	exit 0
fi

# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' $PACKAGES "$@" 2>/dev/null |
	awk '$1 == "installed" { print $2 }')
missing=
for p in $PACKAGES "$@"; do
	case " $(echo $installed) " in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "rndbits: missing Debian packages:$missing" >&2
	echo "rndbits: install them as root with:" >&2
	echo "  apt-get update && $cmd" >&2
	exit 1
fi
echo "rndbits: installing missing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update && $cmd
