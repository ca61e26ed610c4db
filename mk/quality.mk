# Quality targets (issue 6), included by the top-level Makefile:
#   make lint        cppcheck + clang-tidy over lib/ mm/ kernel/ arch/ (qemu/lint.sh, .clang-tidy)
#   make fuzz-host   libFuzzer harnesses of tests/fuzz, FUZZ_SECONDS each (default 60)
#   make fuzz        fuzz-host, then the console fuzzer against every preset in QEMU
#                    (qemu/fuzz_console.py, FUZZ_LINES per preset, FUZZ_SEED), then the
#                    system-call fuzzer (fuzz-sys)
#   make fuzz-sys    user/sysfuzz through tools/fuzz_sys.py: SYSFUZZ_CALLS calls per ABI (native
#                    and compat) and user (root and nobody) on SYSFUZZ_PRESETS, one preset per
#                    ISA plus the compat paths, then SYSFUZZ_ALL_CALLS on every other preset
# The corpus replay of tests/fuzz (label fuzz-replay) is part of `make test` through CTest.
FUZZ_SECONDS ?= 60
export FUZZ_SECONDS
LINT_PRESETS = $(DEFAULT_PRESETS)

.PHONY: lint fuzz-host fuzz fuzz-sys deps-lint deps-fuzz

deps-lint:
	@sh qemu/deps.sh cppcheck clang-tidy

deps-fuzz:
	@sh qemu/deps.sh clang-14 libfuzzer-14-dev llvm-14

# Each file is linted with its preset's generated config.h: configure those presets first.
lint: deps-lint $(addprefix build/,$(addsuffix /CMakeCache.txt,$(LINT_PRESETS)))
	@bash qemu/lint.sh

fuzz-host: deps-fuzz
	@bash tests/fuzz/run.sh

# FUZZ_LINES console lines per preset (default 20,000), FUZZ_SEED the seed (default 1).
FUZZ_LINES ?= 20000
FUZZ_SEED ?= 1
fuzz: fuzz-host images
	@$(PYTHON) qemu/fuzz_console.py --lines $(FUZZ_LINES) --seed $(FUZZ_SEED)
	@$(MAKE) --no-print-directory fuzz-sys

# SYSFUZZ_CALLS per ABI and user on the main presets (default 100,000, in runs of 25,000 calls,
# one seed each from SYSFUZZ_SEED on), SYSFUZZ_ALL_CALLS on the others; SYSFUZZ_FLAGS is passed
# to sysfuzz -f (x86; e.g. ac,df,tf,nt once TF and NT at syscall entry are handled).
comma := ,
empty :=
space := $(empty) $(empty)
SYSFUZZ_PRESETS ?= $(DEFAULT_PRESETS)
SYSFUZZ_CALLS ?= 100000
SYSFUZZ_ALL_CALLS ?= 10000
SYSFUZZ_SEED ?= 1
SYSFUZZ_FLAGS ?=
SYSFUZZ_OTHERS = $(filter-out $(SYSFUZZ_PRESETS),$(PRESETS))
SYSFUZZ_ARGS = --seed $(SYSFUZZ_SEED) $(if $(SYSFUZZ_FLAGS),--flags $(SYSFUZZ_FLAGS))
fuzz-sys: images
	@fail=0; \
	$(PYTHON) tools/fuzz_sys.py --presets $(subst $(space),$(comma),$(SYSFUZZ_PRESETS)) \
	  --calls $(SYSFUZZ_CALLS) $(SYSFUZZ_ARGS) || fail=1; \
	$(if $(SYSFUZZ_OTHERS),$(PYTHON) tools/fuzz_sys.py \
	  --presets $(subst $(space),$(comma),$(SYSFUZZ_OTHERS)) --calls $(SYSFUZZ_ALL_CALLS) \
	  --chunk $(SYSFUZZ_ALL_CALLS) $(SYSFUZZ_ARGS) || fail=1;) \
	exit $$fail

# make ubsan: arm64-4k-va48 and x86_64 kernels built with RNDBITS_UBSAN=ON (undefined behaviour
# traps, reported as an undefined-instruction/brk exception) into build/ubsan/<preset>, then the
# serial transcripts of tests/serial/ubsan.list (those that reach every part of the kernel's C
# code; the list says why those) that select those presets played on them: the CTest tests
# ubsan/<preset>/<name> (label ubsan; tests/serial_tests.cmake reads this list), in parallel,
# logs in build/ubsan/logs/.
# `make test` builds these kernels with the others and runs the same tests.
UBSAN_PRESETS := arm64-4k-va48 x86_64

.PHONY: ubsan
ubsan: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(addprefix image-ubsan-,$(UBSAN_PRESETS)) \
	  build/host/CMakeCache.txt progs
	@rc=0; $(CTEST) -L '^ubsan$$' $(CTEST_JUNIT) || rc=$$?; $(call junit_write,rndbits.ubsan); exit $$rc
