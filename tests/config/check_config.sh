#!/usr/bin/env bash
# Configure-time range checks of ARCH_MMAP_RND_BITS / ARCH_MMAP_RND_COMPAT_BITS, as Kconfig's
# `range` would do them: an out-of-range value stops the configure step with a message naming
# the preset, the value and the range; an in-range one becomes the boot default (checked by
# booting the image and reading vm.mmap_rnd_bits). Usage: check_config.sh SOURCE_DIR WORK_DIR
set -u
src=$1
work=$2
fail=0
mkdir -p "$work"

# expect_refused PRESET VAR VALUE MESSAGE
expect_refused() {
	local out
	if out=$(cmake -S "$src" -B "$work/$1-$2-$3" --preset "$1" "-D$2=$3" 2>&1); then
		echo "FAIL: $1 with $2=$3 configured, but it is out of range"
		fail=1
	elif ! tr -s ' \n' '  ' <<<"$out" | grep -qF "$4"; then  # CMake wraps long messages
		echo "FAIL: $1 with $2=$3: no message \"$4\" in:"
		echo "$out" | sed 's/^/  /'
		fail=1
	else
		echo "ok: $1 refuses $2=$3: $4"
	fi
	rm -rf "${work:?}/$1-$2-$3"
}

expect_refused x86 ARCH_MMAP_RND_BITS 17 "rndbits: preset x86: ARCH_MMAP_RND_BITS=17 is out of range; allowed values are 8..16"
expect_refused x86 ARCH_MMAP_RND_BITS 7 "rndbits: preset x86: ARCH_MMAP_RND_BITS=7 is out of range; allowed values are 8..16"
expect_refused arm64-4k-va48 ARCH_MMAP_RND_BITS 34 "rndbits: preset arm64-4k-va48: ARCH_MMAP_RND_BITS=34 is out of range; allowed values are 18..33"
expect_refused arm64-64k-va42 ARCH_MMAP_RND_COMPAT_BITS 17 "rndbits: preset arm64-64k-va42: ARCH_MMAP_RND_COMPAT_BITS=17 is out of range; allowed values are 7..16"
expect_refused x86 ARCH_MMAP_RND_COMPAT_BITS 8 "rndbits: preset x86: ARCH_MMAP_RND_COMPAT_BITS is set, but this preset has no 32-bit compat path"
expect_refused arm-vmsplit-1g ARCH_MMAP_RND_BITS abc "rndbits: preset arm-vmsplit-1g: ARCH_MMAP_RND_BITS=abc is out of range; allowed values are 8..14"

# An in-range value is the new boot default.
dir="$work/arm-vmsplit-1g-bits12"
if ! cmake -S "$src" -B "$dir" --preset arm-vmsplit-1g -DARCH_MMAP_RND_BITS=12 >/dev/null ||
   ! cmake --build "$dir" -j2 >/dev/null; then
	echo "FAIL: arm-vmsplit-1g with ARCH_MMAP_RND_BITS=12 did not build"
	exit 1
fi
out=$(printf 'sysctl vm.mmap_rnd_bits\raslr info\rpoweroff\r' |
      timeout 60 qemu-system-arm -M virt -cpu cortex-a15 -m 128M -nodefaults -display none \
	      -no-reboot -serial stdio -semihosting-config enable=on,target=native \
	      -kernel "$dir/rndbits.elf" 2>&1)
if grep -q "^vm.mmap_rnd_bits = 12" <<<"$out" &&
   grep -q "vm.mmap_rnd_bits *12 (default 12, range 8..14)" <<<"$out"; then
	echo "ok: arm-vmsplit-1g built with ARCH_MMAP_RND_BITS=12 boots with vm.mmap_rnd_bits = 12"
else
	echo "FAIL: ARCH_MMAP_RND_BITS=12 is not the boot default; the console said:"
	echo "$out" | tail -20 | sed 's/^/  /'
	fail=1
fi
rm -rf "$dir"
exit $fail
