# ASLR plots and the teaching walkthrough (issue 5, items 5 and 7), included by the top-level Makefile:
#   make qemu-<preset> plot   boot the preset with rng.seed=1, run aslr sample, aslr tradeoff and
#                             aslr attack --exec --fork (tries against the bits, both curves), draw
#                             PNGs into build/plots/<preset>/ (tools/plot.py; gnuplot from gnuplot-nox)
#                             PLOT_ARGS="--region all -32 --bits 12 --samples 8192" passes options on
#   make docs                 regenerate the transcripts and plots of docs/teaching*.md from real runs
#   make docs-check           fail if docs/teaching.md is not what the kernel prints now (timings aside)
PLOT_ARGS ?=
DOCS := docs/teaching.md docs/teaching-arm64.md docs/teaching-x86_64.md

# `plot` is an action on a preset, like run or test (the Makefile's check of qemu-<preset> goals
# accepts the words in PRESET_ACTIONS).
PRESET_ACTIONS += plot
.PHONY: plot docs docs-check

ifneq ($(PRESET),)
plot: build deps-plot
	@$(PYTHON) tools/plot.py $(PRESET) $(PLOT_ARGS)
else
plot:
	@echo "say which preset: make qemu-<preset> plot (e.g. make qemu-arm64 plot); presets: $(PRESETS)" >&2
	@exit 2
endif

# The presets the walkthrough boots, built first (quietly when they are up to date).
DOCS_PRESETS = $(shell $(PYTHON) tools/gen_docs.py --presets $(DOCS))

docs: deps deps-plot
	@$(MAKE) --no-print-directory -j$(NPROC) $(addprefix image-,$(sort $(DOCS_PRESETS)))
	@$(PYTHON) tools/gen_docs.py $(DOCS)

docs-check: deps deps-plot
	@$(MAKE) --no-print-directory -j$(NPROC) $(addprefix image-,$(sort $(DOCS_PRESETS)))
	@$(PYTHON) tools/gen_docs.py --check $(DOCS)
