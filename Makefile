# The commands: `make serve`, `make test` and `make play`. Each bootstraps .venv from
# pyproject.toml with what it needs: serve the [server] extra only, test everything ([dev]),
# play the base install (engines, command line, terminal games).
# --no-compile: pip would byte-compile every file of every package it installs (torch and ray
# are thousands), about half of the install's CPU time; Python compiles what is imported, once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-server
BASE_STAMP := $(VENV)/.installed-base
GAME ?= stop
ARGS ?=

.PHONY: cluster play serve test lint typecheck unit checks venv clean sysdeps vendor \
	compiled compiled-if-able test-compiled

# The browser tests drive Debian's Chromium; Playwright must never fetch a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "stoptable needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP) $(SERVE_STAMP) $(BASE_STAMP)

$(SERVE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile --disable-pip-version-check -e '.[server]'
	@touch $(SERVE_STAMP) $(BASE_STAMP)

$(BASE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile --disable-pip-version-check -e .
	@touch $(BASE_STAMP)

venv: $(STAMP)

play: $(BASE_STAMP)
	$(BIN)/stoptable play $(GAME) $(ARGS)

serve: $(SERVE_STAMP)
	$(BIN)/stoptable serve $(ARGS)

# Several processes on one machine (protocol.md §9): a throwaway PostgreSQL, redis-server,
# N=3 servers and HAProxy on one port (it prints the address); Ctrl-C stops everything.
cluster: $(SERVE_STAMP) sysdeps
	$(BIN)/stoptable cluster $(ARGS)

# System packages some tests need (PostgreSQL for the store tests, Redis and HAProxy for the
# cluster tests, Debian's chromium for the browser tests in tests/web, node for the card-art
# test of tests/games/stop/test_svg.py). Installed with apt-get only when running as root on
# Debian (as CI does); elsewhere those tests skip with a reason (STOPTABLE_REQUIRE_ALL=1: they
# fail).
SYSPKGS := postgresql redis-server haproxy chromium fonts-ipafont-gothic fonts-noto-color-emoji \
	nodejs
sysdeps:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		missing=""; for p in $(SYSPKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
		if [ -n "$$missing" ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		fi; \
	fi

# Refresh the vendored browser libraries (src/stoptable/web/vendor) from npm; needs Node.
vendor:
	sh scripts/vendor.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# Twice as many test workers as cores (at most 8): a third of the suite's time is waiting
# (browsers, servers, sockets, a subprocess), so two workers a core keep the cores busy;
# with one a core they were idle about 40% of the time. TEST_WORKERS=N overrides it.
TEST_WORKERS ?= $(shell n=$$(( $$(nproc) * 2 )); [ $$n -gt 8 ] && n=8; echo $$n)
unit: $(STAMP) sysdeps
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# Everything `make test` runs goes side by side, so that no core waits: lint, the type check,
# the compiled build the suite checks (build/compiled-O0: the same mypyc translation as `make
# compiled`, its C at -O0, about 90 s; a no-op when current; said and skipped where there is
# no compiler) and the suite itself, once the system packages are in. The suite's compiled
# test waits for that build (a lock file, scripts/build_compiled.py) instead of making it
# again. The suite prints its progress as it goes, each check its output whole when it ends;
# any of them failing fails `make test`. `make checks` runs the checks alone.
checks:
	@$(MAKE) --no-print-directory --output-sync=target -j4 lint typecheck sysdeps compiled-if-able

compiled-if-able: $(STAMP)
	$(BIN)/python scripts/build_compiled.py --if-able --quiet --opt-level 0

test: $(STAMP)
	@$(MAKE) --no-print-directory --output-sync=target -j3 lint typecheck compiled-if-able & \
	checks=$$!; $(MAKE) --no-print-directory unit; suite=$$?; wait $$checks; checks=$$?; \
	if [ $$suite != 0 ] || [ $$checks != 0 ]; then \
		echo "make test: failed (suite exit $$suite, checks exit $$checks)"; exit 1; fi

# The optional compiled build (mypyc; needs a C compiler): build/compiled, run by putting it
# first on PYTHONPATH. The pure build stays what .venv imports (docs/architecture.md).
compiled: $(STAMP)
	$(BIN)/python scripts/build_compiled.py

# All 1,000 pinned seeded games of each game under the compiled build (they must match the
# pure build's digests), then the game, bot, live-table, RL and simulator tests compiled.
test-compiled: compiled
	PYTHONPATH=build/compiled $(BIN)/python scripts/pin_games.py
	PYTHONPATH=build/compiled $(BIN)/python -m pytest -n 2 --dist loadfile -p no:cacheprovider \
		tests/games tests/bots tests/live tests/rl tests/sim tests/test_compiled.py

clean:
	rm -rf build $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
