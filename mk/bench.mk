# Benchmarks (issue 7), included by the top-level Makefile:
#   make bench                 every preset: boot against QEMU's floor, exec and layout rates
#                              (the built-in hello and the corpus's glibc static hello),
#                              size, frames, idle CPU, and `make test` from a clean copy of the
#                              tree; writes docs/benchmarks.md and prints it (BENCH_TEST=0 skips
#                              the make test timing)
#   make qemu-<preset> bench   one preset, printed only
#   make bench-boot            the boot table alone (every preset, or BENCH_PRESETS=a,b): rewrites
#                              docs/benchmarks.md's header and boot table, keeping the other
#                              presets' rows and the other sections (a shared host: ~1 minute a
#                              preset, run one table at a time)
# BENCH_ARGS="--boots 20 --execs 5000" passes options on to tools/bench.py.
BENCH_ARGS ?=
BENCH_TEST ?= 1
BENCH_PRESETS ?=
comma := ,
FLOOR_IMAGES := build/floor/arm64.elf build/floor/arm.elf build/floor/x86.elf

PRESET_ACTIONS += bench
.PHONY: bench bench-boot floor

# The floor images: the prompt at the first instruction, loaded where the kernel loads.
build/floor/arm64.elf: tools/floor/arm64.S tools/floor/floor.ld | deps
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc -nostdlib -static -Wl,--build-id=none -Wl,--defsym=FLOOR_BASE=0x40200000 \
	  -T tools/floor/floor.ld $< -o $@
build/floor/arm.elf: tools/floor/arm.S tools/floor/floor.ld | deps
	@mkdir -p $(@D)
	arm-none-eabi-gcc -march=armv7-a -marm -nostdlib -static -Wl,--build-id=none \
	  -Wl,--defsym=FLOOR_BASE=0x40200000 -T tools/floor/floor.ld $< -o $@
build/floor/x86.elf: tools/floor/x86.S tools/floor/floor.ld | deps
	@mkdir -p $(@D)
	i686-linux-gnu-gcc -m32 -nostdlib -static -no-pie -Wl,--build-id=none \
	  -Wl,--defsym=FLOOR_BASE=0x100000 -T tools/floor/floor.ld $< -o $@

floor: $(FLOOR_IMAGES)

ifneq ($(PRESET),)
bench: deps floor progs
	@$(MAKE) --no-print-directory -j$(NPROC) image-$(PRESET)
	@$(PYTHON) tools/bench.py --presets $(PRESET) $(BENCH_ARGS)
else
bench: deps floor progs
	@$(MAKE) --no-print-directory -j$(NPROC) images
	@$(PYTHON) tools/bench.py $(if $(filter 1,$(BENCH_TEST)),--test-time) --out docs/benchmarks.md $(BENCH_ARGS)
endif

# Images are built one preset at a time, niced: the host is shared while the boots are timed.
bench-boot: deps floor
	@for p in $(or $(subst $(comma), ,$(BENCH_PRESETS)),$(PRESETS)); do \
	  nice -n 10 $(MAKE) --no-print-directory image-$$p || exit 1; done
	@$(PYTHON) tools/bench.py --boot-only $(if $(BENCH_PRESETS),--presets $(BENCH_PRESETS)) \
	  --out docs/benchmarks.md $(BENCH_ARGS)
