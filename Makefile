# Every target builds .venv on first use, so a fresh clone needs one command.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench lint docs seeds clean verdicts peers model refiner bench-vision

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion variants
	$(BIN)/companion deal klondike --seed 1
	$(BIN)/companion moves klondike --seed 1
	$(BIN)/companion check klondike --seed 1 s s

# pdftoppm (Debian's poppler-utils) lets the setup-sheet tests render pages and read their QR
# codes: installed here where we are root with apt-get, else those tests skip with the reason.
test: $(STAMP)
	-@command -v pdftoppm >/dev/null || ! command -v apt-get >/dev/null || [ "$$(id -u)" != 0 ] || \
		{ apt-get install -y -qq poppler-utils >/dev/null 2>&1 || { apt-get update -qq && \
		apt-get install -y -qq poppler-utils >/dev/null 2>&1; }; } || \
		echo "note: poppler-utils could not be installed; the PDF rendering tests will skip"
	$(BIN)/python -m pytest -q -n auto

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/sheets.py
	$(BIN)/python bench/recorder.py
	$(BIN)/python bench/solver.py

# The card recognizer's model in models/, rebuilt from generated scenes (CPU only; see
# models/README.md for how long it takes): a small convolutional network trained with JAX and
# written as ONNX (the training tools, `pip install .[train]`, are installed into .venv first;
# nothing at run time needs them) on 1000 scenes and GAPS more of Gaps (the smallest indices)
# whose rank glyphs are drawn in many free typefaces (FONTS=extra: synth.EXTRA_TRAIN_FONTS,
# installed here first where apt-get is and they are missing; FONTS=train: the five DejaVu
# faces only), and DESIGNS scenes a published design that may be trained on (Kennard's four
# CC0 decks, fetched into vision-data/ and rasterised with the [designs] extra; Knoll's and
# Spatz's public-domain decks, committed in models/designs/), EPOCHS passes;
# then the refiner beside it (`make refiner` alone: REFINE_SCENES scenes of their own, the same
# fonts, 64 hidden units; about 8 minutes on one core).
SCENES ?= 1000
DESIGNS ?= 150
GAPS ?= 300
EPOCHS ?= 14
REFINE_SCENES ?= 300
FONTS ?= extra
EXTRA_FONT_PACKAGES = fonts-noto-core fonts-roboto-unhinted fonts-open-sans fonts-lato \
	fonts-cantarell fonts-texgyre fonts-crosextra-carlito fonts-crosextra-caladea fonts-inter \
	fonts-oxygen fonts-dejavu-extra
model: $(STAMP)
	-[ "$(FONTS)" != extra ] || ! command -v apt-get >/dev/null || \
		dpkg -s $(EXTRA_FONT_PACKAGES) >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq --no-install-recommends $(EXTRA_FONT_PACKAGES))
	$(BIN)/python -m pip install --quiet -e '.[train,designs]'
	$(BIN)/python -m companion.vision.convnet --scenes $(SCENES) --gaps $(GAPS) --designs $(DESIGNS) --epochs $(EPOCHS) --fonts $(FONTS) --out models
	$(MAKE) refiner

refiner: $(STAMP)
	$(BIN)/python -m companion.vision.refine_train --scenes $(REFINE_SCENES) --fonts $(FONTS) --out models

# Photo-reading benchmark: scenes drawn with fonts never used in training, then with published
# deck designs fetched from npm and PyPI (per design, and the held-out sources pooled apart).
bench-vision: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[designs]'
	$(BIN)/python bench/vision.py
	$(BIN)/python bench/vision_designs.py

# ruff on everything; mypy on rules/ and solver/, strictly (pyproject.toml's [tool.mypy]).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The pages of docs/ generated from the code: the command reference from the click commands,
# the variants' rules from the rules data (tests fail until they are regenerated).
docs: $(STAMP)
	$(BIN)/python -m companion.cli.reference --write docs/commands.md
	$(BIN)/python -m companion.render.rulebook --write docs/variants.md

# Regenerate the deal fingerprints in seeds/ (only after a deliberate deal_version bump).
seeds: $(STAMP)
	$(BIN)/python -m companion.seeds --write seeds

# Fill the verdict column of seeds/*.tsv with the solver's verdicts: NODES positions a deal
# (a budget independent of the machine's load), at most TIMEOUT seconds. A proved verdict
# already there is kept; one that contradicts it stops the run.
# Golf's and Accordion's searches run on numbers and strings, some 300,000-600,000 positions
# a second, and need up to 2.4 million (a Golf deal proved lost, seeds 1-1000): a budget of
# their own, FAST_NODES.
TIMEOUT ?= 60
NODES ?= 40000
FAST_NODES ?= 5000000
verdicts: $(STAMP)
	$(BIN)/python -m companion.solver.survey --verdicts seeds --timeout $(TIMEOUT) --nodes $(NODES)
	for v in golf accordion; do $(BIN)/python -m companion.solver.survey --verdicts seeds \
		--variant $$v --timeout $(TIMEOUT) --nodes $(FAST_NODES) || exit 1; done

# The independent solvers the solver tests and bench compare against (skipped when absent).
peers: $(STAMP)
	-command -v apt-get >/dev/null && (dpkg -s libfreecell-solver0 >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq libfreecell-solver0))
	$(BIN)/python -m pip install --quiet -e '.[solvers]'

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .benchmarks .mypy_cache build *.egg-info
