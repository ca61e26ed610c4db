#!/bin/bash
# make fuzz-host: build the libFuzzer harnesses with clang into build/fuzz and run each for a
# bounded time, several at once, then print executions per second and edge coverage per harness.
#   FUZZ_SECONDS   seconds per harness (default 60)
#   FUZZ_JOBS      harnesses run at the same time (default: the number of CPUs)
#   FUZZ_HARNESSES which ones (default: all of them)
#   CLANG          the compiler (default clang-14)
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
harnesses=${FUZZ_HARNESSES:-"dointvec elf fdt multiboot console shell"}
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
for h in $harnesses; do targets="$targets fuzz_$h"; done
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

echo "fuzz-host: $(echo $harnesses | wc -w) harnesses x ${seconds}s, $jobs at a time (logs in build/fuzz/*.log)"
running=0
for h in $harnesses; do
	rm -f "$out/$h.status"
	run_one "$h" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n 2>/dev/null || wait
		running=$((running - 1))
	fi
done
wait

fail=0
printf '%-10s %10s %12s %8s %8s %8s %s\n' harness execs execs/s cov/edges "" corpus result
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
	printf '%-10s %10s %12s %8s / %-6s %8s %s\n' "$h" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
		"${edges:-?}" "${corp:-?}" "$result"
done
exit $fail
