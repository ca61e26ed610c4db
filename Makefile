# rndbits — a thin front over CMake presets, QEMU and CTest. Forms:
#   make qemu-<preset> run|build|test|debug|cmdline    one preset (APPEND="..." = kernel command line,
#                           PROGS="a.out dir/b" = your programs as /bin/a.out /bin/b, INITRD=x.cpio;
#                           BUILD=debug = run|build|debug|cmdline the -Og build, docs/debugging.md)
#   make test                                           build all twelve presets + host, run every test
#   make test-host                                      the tests of no preset (CI's host job)
#     (test forms: JUNIT=path.xml writes JUnit XML; HOST=0 does not build the host unit tests)
#   make progs                                          build the test corpus (tests/progs) into build/progs
#   make clean
#   make lint | fuzz-host | fuzz | ubsan | docs | docs-check | qemu-<preset> plot   (mk/*.mk)
# qemu-arm, qemu-arm64, qemu-x86 and qemu-x86_64 are the default presets of each ISA.
# The real work is in CMakePresets.json, qemu/rndbits-qemu and tests/CMakeLists.txt.

NPROC  := $(shell nproc 2>/dev/null || echo 2)
PYTHON := /usr/bin/python3
RQ     := $(PYTHON) qemu/rndbits-qemu

# The presets, their aliases (arm, arm64, x86, x86_64: the default preset of each ISA) and
# DEFAULT_PRESETS are CMakePresets.json's, read by the harness into build/presets.mk once each
# time that file changes (make remakes an included makefile, then starts again). The reader is
# Python: without it, the package check comes first.
include build/presets.mk
build/presets.mk: CMakePresets.json qemu/rndbits_qemu/machine.py qemu/rndbits-qemu
	@[ -x $(PYTHON) ] || sh qemu/deps.sh
	@mkdir -p $(@D)
	@$(RQ) presets --make >$@.tmp && mv $@.tmp $@
CTEST  := ctest --preset host -j$(NPROC)
GDB_PORT ?= 1234
PRESET_ACTIONS := run build test debug cmdline
# JUNIT=path.xml: `make test` and `make qemu-<preset> test` also write JUnit XML there (suite
# rndbits, or rndbits.<preset>; failure messages from the tests' output), whatever the outcome.
JUNIT_CTEST = $(abspath build/host/ctest-junit.xml)
CTEST_JUNIT = $(if $(JUNIT),--output-junit $(JUNIT_CTEST))
junit_write = $(if $(JUNIT),$(RQ) junit $(JUNIT_CTEST) $(JUNIT) --suite $(1),:)
# HOST=0: `make qemu-<preset> test` without building the host unit tests (a CI matrix job, when
# the host job runs those): build/host is only configured, for CTest's list of tests.
HOST ?= 1
HOST_TARGET = $(if $(filter 0,$(HOST)),build/host/CMakeCache.txt,image-host)
# What `make test-host` runs: every test that belongs to no preset but lint and ubsan (which
# have targets of their own). With the twelve presets' tests it is all of `make test`.
HOST_LABELS := ^(host|harness|fuzz-replay|config)$$
export APPEND
# PROGS="path/a.out other": the files packed into a cpio newc initrd (bare files as /bin/NAME,
# DEST=SRC at DEST); INITRD=x.cpio: a ready archive. For run, debug, cmdline and test (README.md,
# "Bring your own program").
export PROGS INITRD
# TIMEOUT=seconds bounds `run` (QEMU killed, exit status 124) and is written into `cmdline`.
export TIMEOUT
# BUILD=debug: the preset's debug build (-Og -g3, no LTO: RNDBITS_DEBUG=ON) in build/debug/<preset>/,
# for gdb (docs/debugging.md). The gdb tests (label gdb) of GDB_PRESETS use it, so `make test` and
# `make qemu-<one of them> test` build it too.
BUILD ?=
ifneq ($(filter-out debug,$(BUILD)),)
  $(error BUILD=$(BUILD): the only other build is BUILD=debug)
endif
BUILD_PREFIX := $(if $(BUILD),debug-)
RQB := $(RQ)$(if $(BUILD), --build-root build/debug)
# (the presets of the gdb rows in tests/CMakeLists.txt)
GDB_PRESETS := arm-vmsplit-3g arm64-4k-va48 x86 x86_64

# The preset a `make qemu-<preset> ACTION` call is about (empty for `make test`, `make clean`).
QEMU_GOALS := $(filter qemu-%,$(MAKECMDGOALS))
ifneq ($(words $(QEMU_GOALS)),0)
  ifneq ($(words $(QEMU_GOALS)),1)
    $(error one preset at a time, not $(QEMU_GOALS))
  endif
  PRESET := $(patsubst qemu-%,%,$(QEMU_GOALS))
  PRESET := $(or $(alias.$(PRESET)),$(PRESET))
  # (Before build/presets.mk exists PRESETS is empty: make makes it and reads this again.)
  ifeq ($(if $(PRESETS),$(filter $(PRESET),$(PRESETS)),none),)
    $(error unknown preset $(PRESET); presets: $(PRESETS) (aliases: $(ALIASES)))
  endif
endif

.DEFAULT_GOAL := help
.PHONY: help deps deps-debug deps-plot run build test test-host debug cmdline clean images progs $(QEMU_GOALS)

help:
	@sed -n '2,11p' Makefile | sed 's/^# \{0,1\}//'
	@echo "presets: $(PRESETS)"

# Every action first makes sure the Debian packages are there (quiet when they are).
deps:
	@sh qemu/deps.sh

deps-debug:
	@sh qemu/deps.sh gdb-multiarch

deps-plot:
	@sh qemu/deps.sh gnuplot-nox

$(QEMU_GOALS):
	@$(if $(filter $(PRESET_ACTIONS),$(MAKECMDGOALS)),:,\
	  echo "say what to do with $(PRESET): make $@ $(subst $(eval) ,|,$(strip $(PRESET_ACTIONS)))" >&2; exit 2)

# Configure a preset once (again when the presets change); cmake --build re-runs CMake itself
# when a CMakeLists.txt changes. Each nested build is a Ninja of NPROC jobs (Ninja 1.11 takes no
# job slots from make: make -j2 test runs two at once, a little more than two cores' worth).
.PRECIOUS: build/%/CMakeCache.txt
# A build directory CMake cannot reuse is configured afresh: its toolchain file is gone (they
# moved from cmake/ to arch/<isa>/; CMake would go on including the old path, CMakeSystem.cmake)
# or another generator made it (Unix Makefiles before Ninja: CMake refuses to switch).
stale_cache = { tc=$$(sed -n 's/^include("\(.*\)")$$/\1/p' $(1)/CMakeFiles/*/CMakeSystem.cmake \
	2>/dev/null | head -n 1); [ -n "$$tc" ] && [ ! -f "$$tc" ]; } || { [ -f $(1)/CMakeCache.txt ] && \
	! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$$' $(1)/CMakeCache.txt; }
build/%/CMakeCache.txt: CMakePresets.json | deps
	@echo cmake --preset $*
	@cmake --preset $* $$(if $(call stale_cache,build/$*); then echo --fresh; fi) >/dev/null

# The user programs a preset embeds (build/user/<isa>-<page>k, shared by the presets of one ISA
# and page size; compiled in the ISA's project build/user/<isa>, user/CMakeLists.txt) are built
# here first, one make target per tree (user-<tree>, the trees in build/presets.mk; not .PHONY,
# like image-%), in make's job slots: the preset's own build then finds its tree up to date.
# Left to the presets, the first to start builds it while the others that share it wait on its
# lock, each holding a job slot, and none of them can start its kernel.
.SECONDEXPANSION:
user-%: | deps
	@cmake -DSOURCE=$(CURDIR)/user -DBINARY=$(CURDIR)/build/user/$(firstword $(subst -, ,$*)) \
	  $(userdefs.$*) -P user/build_tree.cmake
user_tree = $$(addprefix user-,$$(user.$$*))
.SECONDARY: $(addprefix user-,$(USER_TREES))

# (image-<preset> is not .PHONY: make skips pattern rules for phony targets; no such file exists.)
image-%: build/%/CMakeCache.txt $(user_tree) | deps
	@if $(call stale_cache,build/$*); then cmake --preset $* --fresh >/dev/null; fi
	cmake --build build/$* -j$(NPROC)

# The debug build of a preset (BUILD=debug): same preset, one cache variable, its own directory.
# (These patterns, and the ubsan ones below, win over the ones above: make picks the rule with
# the shorter stem.)
.PRECIOUS: build/debug/%/CMakeCache.txt
build/debug/%/CMakeCache.txt: CMakePresets.json | deps
	cmake --preset $* -B build/debug/$* -DRNDBITS_DEBUG=ON \
	  $$(if $(call stale_cache,build/debug/$*); then echo --fresh; fi) >/dev/null

image-debug-%: build/debug/%/CMakeCache.txt $(user_tree) | deps
	cmake --build build/debug/$* -j$(NPROC)

# The UBSan build of a preset (make ubsan, mk/quality.mk): the same, with RNDBITS_UBSAN=ON.
.PRECIOUS: build/ubsan/%/CMakeCache.txt
build/ubsan/%/CMakeCache.txt: CMakePresets.json | deps
	@echo cmake --preset $* -B build/ubsan/$* -DRNDBITS_UBSAN=ON
	@cmake --preset $* -B build/ubsan/$* -DRNDBITS_UBSAN=ON \
	  $$(if $(call stale_cache,build/ubsan/$*); then echo --fresh; fi) >/dev/null

image-ubsan-%: build/ubsan/%/CMakeCache.txt $(user_tree) | deps
	@if $(call stale_cache,build/ubsan/$*); then \
	  cmake --preset $* -B build/ubsan/$* -DRNDBITS_UBSAN=ON --fresh >/dev/null; fi
	cmake --build build/ubsan/$* -j$(NPROC)

images: $(addprefix image-,$(PRESETS))

# The test corpus (tests/progs): each ABI's programs built once into build/progs/<abi>/ with
# Debian's cross toolchains, and Debian's busybox-static of each ISA fetched (qemu/deps.sh
# makes the packages' architectures known to apt). Transcripts' `progs:` headers pack them.
progs: deps
	@cmake -G Ninja -S tests/progs -B build/progs \
	  $$(if $(call stale_cache,build/progs); then echo --fresh; fi) >/dev/null
	@cmake --build build/progs -j$(NPROC)

ifneq ($(PRESET),)

build: deps
	@$(MAKE) --no-print-directory -j$(NPROC) image-$(BUILD_PREFIX)$(PRESET)

run: build
	@$(RQB) run $(PRESET)

debug: build deps-debug
	@$(RQB) debug $(PRESET) --port $(GDB_PORT)

cmdline: deps
	@$(RQB) cmdline $(PRESET)

test: deps $(if $(filter $(PRESET),$(GDB_PRESETS)),deps-debug)
	@$(MAKE) --no-print-directory -j$(NPROC) image-$(PRESET) $(HOST_TARGET) progs \
	  $(addprefix image-debug-,$(filter $(PRESET),$(GDB_PRESETS)))
	@rc=0; $(CTEST) -L '^$(PRESET)$$' $(CTEST_JUNIT) || rc=$$?; $(call junit_write,rndbits.$(PRESET)); exit $$rc

else

build: deps
	@$(MAKE) --no-print-directory -j$(NPROC) images

# A preset that fails to build does not hide the others' results: build what builds (-k), run
# every test (those of a preset without an image fail and say so), then fail if anything did.
test: deps deps-lint deps-debug
	@build=0; $(MAKE) --no-print-directory -k -j$(NPROC) images image-host progs \
	   $(addprefix image-debug-,$(GDB_PRESETS)) $(addprefix image-ubsan-,$(UBSAN_PRESETS)) || build=$$?; \
	 rc=0; $(CTEST) $(CTEST_JUNIT) || rc=$$?; $(call junit_write,rndbits); \
	 [ $$rc = 0 ] && [ $$build = 0 ] || { \
	   [ $$build = 0 ] || echo "make test: some images did not build (see above)" >&2; exit 1; }

run debug cmdline:
	@echo "say which preset: make qemu-<preset> $@ (e.g. make qemu-arm64 $@); presets: $(PRESETS)" >&2
	@exit 2

endif

test-host: deps
	@$(MAKE) --no-print-directory -j$(NPROC) image-host
	@rc=0; $(CTEST) -L '$(HOST_LABELS)' $(CTEST_JUNIT) || rc=$$?; $(call junit_write,rndbits.host); exit $$rc

clean:
	rm -rf build

# Further targets live beside their subject, in mk/*.mk (quality: lint, fuzz-host, fuzz, ubsan;
# plots and docs: qemu-<preset> plot, docs, docs-check). A file there may add words to
# PRESET_ACTIONS to make them actions on a preset.
-include $(sort $(wildcard mk/*.mk))
