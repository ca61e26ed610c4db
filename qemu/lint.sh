#!/bin/bash
# make lint: cppcheck and clang-tidy (checks in .clang-tidy) over lib/ mm/ kernel/ arch/, each
# file in the configuration it is really built in: the generic code as a 64-bit (arm64-4k-va48)
# kernel and, for cppcheck, as a 32-bit (arm-vmsplit-3g) one; each arch's code with its own
# preset's config.h and include path. Prints one line per finding (file:line: tool: check: message) and fails if
# there is any; and the layers' include graph (tools/check-layers.py: no cycle between lib, core,
# mm and kernel). Git-tracked files only, so someone's unfinished new file does not count.
#   LINT_JOBS  parallel clang-tidy processes (default: the number of CPUs)
#   TIDY_CHUNK files per clang-tidy process (default 8)
#   LINT_TOOLS "cppcheck clang-tidy" (default both)
#   LINT_DEEP=1  the static analyzer in its deep mode (minutes; the default shallow mode inlines
#              less and takes seconds: mm/pgtable.c goes from ~8 s to 0.3 s)
set -u
cd "$(dirname "$0")/.."
jobs=${LINT_JOBS:-$(nproc 2>/dev/null || echo 2)}
tools=${LINT_TOOLS:-"cppcheck clang-tidy"}
tidy=${CLANG_TIDY:-$(command -v clang-tidy-14 || command -v clang-tidy)}
out=build/lint
mkdir -p "$out"
rm -f "$out"/*.txt

# Known false positives, kept short; each says why.
cppcheck_suppressions=(
	# Linker-section tables (__start_X/__stop_X) and image bounds (__kernel_start/__kernel_end)
	# are one object the compiler cannot see: comparing or subtracting them is the point.
	--suppress=comparePointers
)
tidy_suppressions=(
	# pt_walk records at least one step (every format has >= 1 level, behind geo()), so
	# steps[nr_steps - 1] is initialized; the analyzer cannot see through geo().
	"mm/pgtable.c clang-analyzer-core.CallAndMessage"
)

# group | preset | isa | cppcheck platform | clang target flags | files
groups=(
	"generic64|arm64-4k-va48|arm64|unix64|--target=aarch64-linux-gnu -mgeneral-regs-only|lib mm kernel"
	"generic32|arm-vmsplit-3g|arm|unix32|--target=armv7a-none-eabi -marm -mfloat-abi=soft|lib mm kernel"
	"arm64|arm64-4k-va48|arm64|unix64|--target=aarch64-linux-gnu -mgeneral-regs-only|arch/arm64 drivers"
	"arm|arm-vmsplit-3g|arm|unix32|--target=armv7a-none-eabi -marm -mfloat-abi=soft|arch/arm drivers"
	"x86_64|x86_64|x86|unix64|--target=x86_64-linux-gnu -mno-red-zone -mcmodel=kernel|arch/x86/*.c arch/x86/64"
	"x86|x86|x86|unix32|--target=i686-linux-gnu|arch/x86/*.c arch/x86/32"
)

list_sources() {
	# shellcheck disable=SC2086
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -- $1 | grep '\.c$'
	else
		find $1 -maxdepth 1 -name '*.c' | sort
	fi
}

config_of() {
	local preset=$1 cfg=build/$1/include/generated/config.h
	if [ ! -f "$cfg" ]; then
		cmake --preset "$preset" >/dev/null || {
			echo "lint: cannot configure $preset" >&2
			exit 1
		}
	fi
	echo "$cfg"
}

TIDY_CHUNK=${TIDY_CHUNK:-8}
analyzer="-Xclang -analyzer-config -Xclang mode=shallow"
[ -n "${LINT_DEEP:-}" ] && analyzer=
start=$(date +%s)
tidy_jobs=$out/tidy-jobs
: >"$tidy_jobs"
for g in "${groups[@]}"; do
	IFS='|' read -r name preset isa platform target dirs <<<"$g"
	cfg=$(config_of "$preset") || exit 1
	mapfile -t files < <(list_sources "$dirs")
	[ ${#files[@]} -gt 0 ] || continue
	incs=(-Iinclude "-Iarch/$isa/include" "-Ibuild/$preset/include")
	if [[ " $tools " == *" cppcheck "* ]]; then
		cppcheck -q --enable=warning,performance,portability --std=c11 --inline-suppr \
			-j"$jobs" --platform="$platform" -D__GNUC__=12 -U__ASSEMBLER__ -ULINKER_SCRIPT \
			--include="$cfg" "${incs[@]}" "${cppcheck_suppressions[@]}" \
			--template='{file}:{line}: cppcheck: {id}: {message}' "${files[@]}" \
			2>"$out/cppcheck-$name.txt" >/dev/null
	fi
	# The static analyzer is most of the time (mm/pgtable.c alone takes seconds): the generic
	# code goes through clang-tidy once, as the 64-bit kernel; cppcheck sees it as 32-bit too.
	# A clang-tidy process costs ~0.13 s of CPU before it reads a line (it maps and relocates
	# libLLVM and libclang-cpp): one per file was ~18 of the ~65 CPU-s. So each runs a chunk of
	# up to TIDY_CHUNK files of one group (same flags); small enough chunks that the parallel
	# processes stay balanced when one file (mm/pgtable.c) takes seconds.
	if [[ " $tools " == *" clang-tidy "* && $name != generic32 ]]; then
		for ((i = 0; i < ${#files[@]}; i += TIDY_CHUNK)); do
			echo "$name-$i|${files[*]:i:TIDY_CHUNK}|-std=gnu11 -ffreestanding -fno-builtin $target -include $cfg ${incs[*]} $analyzer"
		done >>"$tidy_jobs"
	fi
done

if [[ " $tools " == *" clang-tidy "* ]]; then
	[ -n "$tidy" ] || {
		echo "lint: no clang-tidy (apt-get install --no-install-recommends clang-tidy)" >&2
		exit 1
	}
	export tidy out
	# One clang-tidy per chunk, in parallel. A crash (killed by a signal: status > 128) would
	# hide the findings of the chunk's other files, so that chunk runs again a file at a time.
	# (Findings and compiler errors exit 1 and still report every file.)
	# shellcheck disable=SC2016
	tr '\n' '\0' <"$tidy_jobs" | xargs -0 -P"$jobs" -I{} bash -c '
		IFS="|" read -r key files flags <<<"$1"
		# shellcheck disable=SC2086
		"$tidy" --quiet $files -- $flags >"$out/tidy-$key.txt" 2>&1
		[ $? -gt 128 ] || exit 0
		for f in $files; do
			# shellcheck disable=SC2086
			"$tidy" --quiet "$f" -- $flags >"$out/tidy-$key-$(echo "$f" | tr / _).txt" 2>&1
		done
	' _ {}
fi

# Findings: one line each, relative paths, without the suppressed ones, each once.
{
	cat "$out"/cppcheck-*.txt 2>/dev/null | grep -E '^[^ ]+:[0-9]+: cppcheck: '
	cat "$out"/tidy-*.txt 2>/dev/null |
		sed -n -E "s|^$PWD/||; s|^([^ :]+):([0-9]+):[0-9]+: (warning\|error): (.*) \[([^]]+)\]$|\1:\2: clang-tidy: \5: \4|p"
} | sort -u >"$out/all.txt"
cp "$out/all.txt" "$out/findings.txt"
for s in "${tidy_suppressions[@]}"; do
	read -r file check <<<"$s"
	grep -v -F "$file:" "$out/findings.txt" >"$out/keep.txt"
	grep -F "$file:" "$out/findings.txt" | grep -v -F "clang-tidy: $check:" >>"$out/keep.txt"
	sort -u "$out/keep.txt" >"$out/findings.txt"
done

# No include cycle between the kernel's layers (tools/check-layers.py; docs/architecture.md).
if ! /usr/bin/python3 tools/check-layers.py >"$out/layers.txt"; then
	grep -v '^layers: no cycle' "$out/layers.txt" >>"$out/findings.txt"
fi

n=$(wc -l <"$out/findings.txt")
secs=$(($(date +%s) - start))
cat "$out/findings.txt"
echo "lint: $n finding(s) in ${secs}s ($tools; $(wc -l <"$tidy_jobs") clang-tidy runs of up to $TIDY_CHUNK files; details in $out/)"
[ "$n" -eq 0 ]
