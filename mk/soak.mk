# make soak: 100,000 exec/exit cycles per preset under QEMU (tools/soak.py, kernel/soak.c), then
# the free-frame count and the VMA pool must be what they were. Not part of `make test`.
#   SOAK_PRESETS="x86_64 arm64-4k-va48"  which presets (default: all twelve)
#   SOAK_CYCLES=100000  SOAK_COMPAT_CYCLES=20000 (compat path of arm64-* and x86_64)
#   SOAK_JOBS=$(NPROC) guests at a time   SOAK_TIMEOUT=1800 seconds allowed per soak command
# Logs: build/host/soak/<preset>.log.
SOAK_PRESETS ?= $(PRESETS)
export SOAK_CYCLES SOAK_COMPAT_CYCLES SOAK_JOBS SOAK_TIMEOUT

.PHONY: soak
soak: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(addprefix image-,$(SOAK_PRESETS))
	@$(PYTHON) tools/soak.py $(SOAK_PRESETS)
