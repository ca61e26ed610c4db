# Quality targets (issue 6), included by the top-level Makefile:
#   make lint        cppcheck + clang-tidy over lib/ mm/ kernel/ arch/ (qemu/lint.sh, .clang-tidy)
#   make fuzz-host   libFuzzer harnesses of tests/fuzz, FUZZ_SECONDS each (default 60)
#   make fuzz        fuzz-host, then the console fuzzer against every preset in QEMU
#                    (qemu/fuzz_console.py, when present)
# The corpus replay of tests/fuzz (label fuzz-replay) is part of `make test` through CTest.
FUZZ_SECONDS ?= 60
export FUZZ_SECONDS
LINT_PRESETS := arm64-4k-va48 arm-vmsplit-3g x86_64 x86

.PHONY: lint fuzz-host fuzz deps-lint deps-fuzz

deps-lint:
	@sh qemu/deps.sh cppcheck clang-tidy

deps-fuzz:
	@sh qemu/deps.sh clang-14 libfuzzer-14-dev

# Each file is linted with its preset's generated config.h: configure those presets first.
lint: deps-lint $(addprefix build/,$(addsuffix /CMakeCache.txt,$(LINT_PRESETS)))
	@bash qemu/lint.sh

fuzz-host: deps-fuzz
	@bash tests/fuzz/run.sh

fuzz: fuzz-host
	@if [ -f qemu/fuzz_console.py ]; then \
	   $(MAKE) --no-print-directory images && $(PYTHON) qemu/fuzz_console.py; \
	 else echo "make fuzz: no in-guest console fuzzer yet (qemu/fuzz_console.py)"; fi
