# Two entry points, each doing all of its own set-up on a fresh machine:
#   make site   builds the site into site/
#   make test   runs every test, browser tests included
VENV := .venv
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTHON ?= python3
# Material for MkDocs prints an end-of-life banner on every build; it is not a build warning.
export NO_MKDOCS_2_WARNING := 1

.PHONY: site test chromium clean

site: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

test: $(STAMP) chromium
	$(VENV)/bin/ruff check generator tests benchmarks
	$(VENV)/bin/ruff format --check generator tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest

# Pinned versions come from constraints.txt; the stamp reinstalls when either file changes.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "cloudqual needs Python 3.11 or newer as $(PYTHON)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $@

# Browser tests drive Debian's chromium; Playwright's own browser download is not used.
chromium:
	@command -v chromium >/dev/null || { \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf $(VENV) site
