# The per-object entropy report (issue 18 item 3), included by the top-level Makefile:
#   make qemu-<preset> report [PROG="busybox echo hi"] [SAMPLES=2000] [APPEND=rng.seed=1]
#       boot the preset, run `aslr sample SAMPLES --csv --prog PROG` (probe's objects without
#       PROG; a corpus program such as busybox goes into an initrd, `make progs` builds it) and
#       write build/report/<preset>/index.html: the statistics table, per object a histogram
#       and a bit-frequency plot (gnuplot SVG), samples.csv; it opens offline in a browser
PROG ?=
SAMPLES ?= 2000
export PROG SAMPLES

PRESET_ACTIONS += report
.PHONY: report

ifneq ($(PRESET),)
report: build deps-plot $(if $(PROG),progs)
	@$(PYTHON) tools/aslr_report.py $(PRESET)
else
report:
	@echo "say which preset: make qemu-<preset> report [PROG=\"busybox echo hi\"] (e.g. make qemu-arm64 report); presets: $(PRESETS)" >&2
	@exit 2
endif
