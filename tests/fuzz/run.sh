#!/bin/bash
# make fuzz-host: build the libFuzzer harnesses with clang into build/fuzz and run each for a
# bounded time, several at once, then print executions per second and edge coverage per harness.
#   FUZZ_SECONDS   seconds per harness (default 60)
#   FUZZ_JOBS      harnesses run at the same time (default: the number of CPUs)
#   FUZZ_HARNESSES which ones (default: all of them)
#   CLANG          the compiler (default clang-14)
#   FUZZ_SUMMARY_ONLY=1  print the table of the last run again (no fuzzing)
# New inputs go to build/fuzz/corpus/<name>/ (the committed seeds in tests/fuzz/corpus/<name>/ are
# only read); a crash, leak, timeout or invariant violation leaves its input in
# build/fuzz/artifacts/<name>/ and makes the run fail. To keep one as a regression test, copy it
# into tests/fuzz/corpus/<name>/ (named regression-<what>): fuzz-replay.<name> replays it in
# `make test`.
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
harnesses=${FUZZ_HARNESSES:-"cpio dointvec elf fdt multiboot console shell"}
clang=${CLANG:-clang-14}
out=$root/build/fuzz

command -v "$clang" >/dev/null || {
	echo "fuzz-host: no $clang: apt-get install -y --no-install-recommends clang-14 libfuzzer-14-dev" >&2
	exit 1
}
if [ ! -f "$out/CMakeCache.txt" ]; then
	cmake -S tests/fuzz -B "$out" -DCMAKE_C_COMPILER="$clang" -DRNDBITS_LIBFUZZER=ON \
		-DCMAKE_BUILD_TYPE= >/dev/null || exit 1
fi
targets=
for h in $harnesses; do targets="$targets fuzz_$h cov_$h"; done
# shellcheck disable=SC2086
cmake --build "$out" -j"$jobs" --target $targets >"$out/build.log" 2>&1 || {
	cat "$out/build.log" >&2
	exit 1
}

run_one() {
	h=$1
	mkdir -p "$out/corpus/$h" "$out/artifacts/$h"
	dict=
	[ -f "tests/fuzz/dict/$h.dict" ] && dict="-dict=tests/fuzz/dict/$h.dict"
	# -timeout: an input that takes seconds is a hang (every parser here is linear or close).
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	"$out/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=16384 \
		-print_final_stats=1 -artifact_prefix="$out/artifacts/$h/" $dict \
		"$out/corpus/$h" "tests/fuzz/corpus/$h" >"$out/$h.log" 2>&1
	echo $? >"$out/$h.status"
}

[ "$seconds" -gt 0 ] 2>/dev/null || {
	echo "fuzz-host: FUZZ_SECONDS must be a positive number (libFuzzer takes 0 as no limit)" >&2
	exit 2
}
echo "fuzz-host: $(echo $harnesses | wc -w) harnesses x ${seconds}s, $jobs at a time (logs in build/fuzz/*.log)"
running=0
# FUZZ_SUMMARY_ONLY=1: no fuzzing, only the table of the last run's logs (and the coverage).
[ -n "${FUZZ_SUMMARY_ONLY:-}" ] && harnesses_to_run= || harnesses_to_run=$harnesses
for h in $harnesses_to_run; do
	rm -f "$out/$h.status"
	run_one "$h" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n 2>/dev/null || wait
		running=$((running - 1))
	fi
done
wait

# Line coverage of the file a harness is about (the first it compiles; the fdt harness also
# counts lib/fdt.c), by replaying the whole corpus through the coverage build. Helpers compiled
# alongside (kernel/boot.c for multiboot, console.c for shell) are not counted.
line_coverage() {
	local h=$1 files prof=$out/cov-$h
	command -v llvm-profdata-14 >/dev/null && command -v llvm-cov-14 >/dev/null || return
	files=$(awk -v h="$h" '$1 == h { print $2 }' "$out/sources-under-test.txt" | cut -d, -f1)
	[ "$h" = fdt ] && files="$files lib/fdt.c"
	rm -rf "$prof" && mkdir -p "$prof"
	LLVM_PROFILE_FILE="$prof/%p.profraw" "$out/cov_$h" "$out/corpus/$h" "tests/fuzz/corpus/$h" \
		>/dev/null 2>&1
	llvm-profdata-14 merge -o "$prof/all.profdata" "$prof"/*.profraw 2>/dev/null || return
	# shellcheck disable=SC2086
	llvm-cov-14 report "$out/cov_$h" -instr-profile="$prof/all.profdata" $files 2>/dev/null |
		awk '/^TOTAL/ { print $(NF-3) " of lines, " $NF " of branches"; exit }'
}

fail=0
printf '%-10s %10s %8s %12s %10s  %-30s %s\n' harness execs execs/s edges corpus \
	"coverage of the file" result
for h in $harnesses; do
	log=$out/$h.log
	status=$(cat "$out/$h.status" 2>/dev/null || echo 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	edges=$(sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p')
	result=ok
	if [ "$status" != 0 ]; then
		result="FAILED (status $status): $(ls "$out/artifacts/$h" | head -3 | tr '\n' ' ')"
		fail=1
	fi
	lines=$(line_coverage "$h")
	printf '%-10s %10s %8s %12s %10s  %-30s %s\n' "$h" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}/${edges:-?}" "${corp:-?}" "${lines:-?}" "$result"
done
exit $fail
