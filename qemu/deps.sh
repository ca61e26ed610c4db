#!/bin/sh
# Make sure the Debian packages rndbits builds and tests with are installed (python3-yaml: the
# harness test that parses the CI templates, .github/workflows/ci.yml and .gitlab-ci.yml).
#   qemu/deps.sh [EXTRA_PACKAGE...]     (the Makefile runs it before anything else)
# Installed: silent, status 0. Missing and root: apt-get update + install, then status 0.
# Missing and not root: prints the command to run as root and exits with status 1.
# One dpkg-query call, so it is cheap enough to run on every make invocation.
set -u

# The test corpus (tests/progs) adds the cross C libraries (glibc for arm64, armhf and i386;
# musl; newlib for arm-none-eabi) and dpkg-deb for Debian's busybox-static of each ISA, which
# apt-get downloads: those architectures must be known to apt (see FOREIGN below).
PACKAGES="cmake ninja-build make gcc gcc-arm-none-eabi binutils-arm-none-eabi gcc-aarch64-linux-gnu
binutils-aarch64-linux-gnu gcc-i686-linux-gnu binutils-i686-linux-gnu qemu-system-arm
qemu-system-x86 libcmocka-dev python3 python3-yaml coreutils
libc6-dev libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
libc6-dev-i386-cross musl-tools libnewlib-arm-none-eabi dpkg-dev"
# The architectures whose busybox-static the corpus fetches, besides the machine's own.
CORPUS_ARCHES="arm64 armhf i386 amd64"

if ! command -v dpkg-query >/dev/null 2>&1; then
	[ -n "${RNDBITS_DEPS_QUIET:-}" ] ||
		echo "qemu/deps.sh: no dpkg-query (not Debian?): not checking packages" >&2
	exit 0
fi

# Foreign architectures apt must know for `apt-get download busybox-static:ARCH`: adding one
# changes no installed package, it only makes `apt-get update` fetch that architecture's lists.
native=$(dpkg --print-architecture)
known=" $native $(dpkg --print-foreign-architectures | tr '\n' ' ') "
foreign=
for a in $CORPUS_ARCHES; do
	case "$known" in
	*" $a "*) ;;
	*) foreign="$foreign $a" ;;
	esac
done

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
[ -z "$missing" ] && [ -z "$foreign" ] && exit 0

add_arches=
for a in $foreign; do
	add_arches="${add_arches}dpkg --add-architecture $a && "
done
cmd="apt-get install -y --no-install-recommends$missing"
[ -n "$missing" ] || cmd=true
if [ "$(id -u)" -ne 0 ]; then
	[ -z "$missing" ] || echo "rndbits: missing Debian packages:$missing" >&2
	[ -z "$foreign" ] || echo "rndbits: architectures apt does not know (for busybox-static):$foreign" >&2
	echo "rndbits: as root, run:" >&2
	echo "  ${add_arches}apt-get update && $cmd" >&2
	exit 1
fi
[ -z "$missing" ] || echo "rndbits: installing missing Debian packages:$missing" >&2
[ -z "$foreign" ] || echo "rndbits: adding architectures for busybox-static:$foreign" >&2
export DEBIAN_FRONTEND=noninteractive
for a in $foreign; do
	dpkg --add-architecture "$a" || exit 1
done
# An index that fails to download (a mirror mid-sync, one architecture missing on the security
# mirror) makes apt-get update exit non-zero although the others were fetched: say so and let
# the install decide, it fails by itself if a package it needs is really out of reach.
apt-get update || echo "rndbits: apt-get update reported errors (above); installing anyway" >&2
$cmd
