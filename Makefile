# The two commands: `make play` and `make test`. Both bootstrap .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GAME ?= stop
ARGS ?=

.PHONY: play serve test lint typecheck unit venv clean browser vendor

# The browser tests drive Debian's Chromium; Playwright must never fetch a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
CHROMIUM ?= /usr/bin/chromium

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "stoptable needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

play: $(STAMP)
	$(BIN)/stoptable play $(GAME) $(ARGS)

serve: $(STAMP)
	$(BIN)/stoptable serve $(ARGS)

# Debian's chromium for tests/web, installed with apt-get where we run as root on Debian;
# elsewhere the browser tests skip with one line (STOPTABLE_REQUIRE_ALL=1 makes that fail).
browser:
	@if [ ! -x $(CHROMIUM) ] && [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null; then \
		echo "installing chromium with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# Refresh the vendored browser libraries (src/stoptable/web/vendor) from npm; needs Node.
vendor:
	sh scripts/vendor.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

unit: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 --dist loadfile

test: lint typecheck unit

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
