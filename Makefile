# The two commands a reader of the README needs: `make serve` and `make test`.
# Every target installs what it needs first (a Python venv and MathJax from npm) and is
# quick when nothing changed: the install steps are keyed on pyproject.toml and the npm lock.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PY_STAMP := $(VENV)/.installed-stamp
JS_STAMP := node_modules/.installed-stamp
# torch 2.13.0 is a local CPU wheel on these machines; an unpinned torch pulls GBs of CUDA.
TORCH  := torch==2.13.0
export NO_MKDOCS_2_WARNING := 1

# cffconvert validates CITATION.cff (tests/test_citation_cff.py) from a venv of its own: its
# one release, 2.0.0, needs jsonschema < 4, older than the docs stack's.
CFF_VENV  := $(VENV)/tools/cffconvert
CFF_STAMP := $(CFF_VENV)/.installed-stamp
CFFCONVERT := cffconvert==2.0.0
# `make linkcheck` checks this built site (default: `make site` first), reports here
LINKCHECK_SITE ?=
LINKCHECK_REPORT ?= linkcheck-report.txt

.PHONY: deps system-deps serve site offline pdf figures test linkcheck bench reader-deps clean

deps: $(PY_STAMP) $(JS_STAMP) $(CFF_STAMP)

$(PY_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet "$(TORCH)" -e ".[docs,test]"
	touch $@

$(JS_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(CFF_STAMP): Makefile
	test -x $(CFF_VENV)/bin/python || $(PYTHON) -m venv $(CFF_VENV)
	$(CFF_VENV)/bin/python -m pip install --quiet "$(CFFCONVERT)"
	touch $@

# What the build and the tests need from Debian, installed when missing (as root: .ci/run runs
# it on a fresh machine): Chromium (the browser tests, `make pdf`), libcairo2 (CairoSVG, which
# draws the social cards' icon), Java (the W3C HTML checker, npm's vnu-jar: tests/test_html.py;
# before `npm ci`, whose vnu-jar otherwise looks for a Java to download) and tesseract
# (tests/test_cards.py reads the cards back).
system-deps:
	@need=""; \
	[ -x /usr/bin/chromium ] || need="$$need chromium"; \
	command -v java >/dev/null 2>&1 || need="$$need default-jre-headless"; \
	command -v tesseract >/dev/null 2>&1 || need="$$need tesseract-ocr"; \
	ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2 ' || need="$$need libcairo2"; \
	if [ -n "$$need" ]; then \
	    echo "installing from Debian:$$need"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$need >/dev/null; \
	fi

serve: deps  ## install, build the figures, serve on http://127.0.0.1:8000 with live reload
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
pdf: site  ## print the post and the notes pages as one PDF, mlnotes.pdf (after a strict build)
	$(PY) -m mlnotes_site.printer site --output mlnotes.pdf

figures: deps  ## rebuild the figures whose inputs changed (ARGS="--force" or figure names)
	$(PY) -m mlnotes_site.figure_builder $(ARGS)

test: deps  ## unit tests, doctests (modules and pages), figure scripts, strict build, browser tests
	$(VENV)/bin/pytest

# External links: they need the network, so `make test` does not check them; CI does, weekly
# (.github/workflows/linkcheck.yml). Known-good exceptions: scripts/dev/linkcheck_exceptions.txt.
linkcheck: $(if $(LINKCHECK_SITE),deps,site)  ## check the built site's external links (LINKCHECK_SITE=<dir>: that site, else `make site` first); report: linkcheck-report.txt
	$(PY) scripts/dev/linkcheck.py $(or $(LINKCHECK_SITE),site) --report $(LINKCHECK_REPORT)

bench: deps reader-deps  ## build, determinism, computation, page and reader (Lighthouse) benchmarks (never asserted in tests)
	$(PY) scripts/dev/bench.py $(ARGS)
	$(PY) scripts/dev/bench_pages.py --json bench-results/pages.json
	$(PY) scripts/dev/bench_loop.py $(LOOP_ARGS)
	$(PY) scripts/dev/bench_reader.py --json bench-results/reader.json $(READER_ARGS)

# The reader table (scripts/dev/bench_reader.py) serves the site with Debian's nginx and runs
# Lighthouse (npm, a devDependency that `deps` installs) in Debian's Chromium. nginx-light is
# bookworm's smallest nginx; a release without it gets the plain nginx package.
reader-deps:
	@if [ ! -x /usr/sbin/nginx ] || [ ! -x /usr/bin/chromium ]; then \
	    apt-get update -qq; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    [ -x /usr/bin/chromium ] || apt-get install -y -qq chromium >/dev/null; \
	    [ -x /usr/sbin/nginx ] || apt-get install -y -qq nginx-light >/dev/null || apt-get install -y -qq nginx >/dev/null; \
	fi

clean:
	rm -rf site offline mlnotes-offline.zip mlnotes.pdf linkcheck-report.txt .cache docs/figures docs/javascripts/mathjax
