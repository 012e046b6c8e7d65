# The README's two commands: `make run` and `make test` (CI adds `make test-postgres`); `make share`
# is `make run` for the table's network.
# Installs come from the hashed lock files in requirements/ (see requirements/README.md):
# `make run` installs only what the app needs (run.lock); `make test` adds the test tools (dev.lock).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --require-hashes
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run share test test-long test-postgres bytecode install install-dev chromium postgresql bench bench-load lighthouse lint lock clean

# A stock Debian's python3 has no venv module until python3-venv is installed (as Chromium and
# PostgreSQL are below, for the tests).
$(VENV)/bin/python:
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-venv; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: requirements/run.lock | $(VENV)/bin/python
	$(PIP) -r requirements/run.lock
	touch $@

$(VENV)/.dev-installed: requirements/dev.lock | $(VENV)/bin/python
	$(PIP) -r requirements/dev.lock
	touch $(VENV)/.run-installed $@

install: $(VENV)/.run-installed
install-dev: $(VENV)/.dev-installed

# Debian's Chromium for the browser tests (never a Playwright browser download).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

# Debian's PostgreSQL server binaries: the tests start throwaway clusters of their own with them
# (tests/support/postgres.py); nothing is configured or started system-wide.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql; }

run: install
	mkdir -p data
	$(PY) -m app.store.migrate
	HOST=$(HOST) PORT=$(PORT) $(PY) -m app

# `make run` on every interface: a phone or tablet on the table's network opens the game's play and
# watch links (the share panel and the start-up line give the address); the admin link stays here.
# On a shared network, a quota of new games and imports per device and hour (docs/limits.md).
GAMES_PER_HOUR ?= 30
share:
	GAMES_PER_HOUR=$(GAMES_PER_HOUR) $(MAKE) run HOST=0.0.0.0

# The long property and fuzz tests try a quarter of their examples here (tests/support/examples.py);
# `make test-long` tries them all (FUZZ_EXAMPLES=full).
# The app is compiled once first: every real server a test starts (and each xdist worker) then
# loads its bytecode instead of compiling 140 modules again, even where PYTHONDONTWRITEBYTECODE
# is set (py_compile writes regardless; importing only reads).
# --dist worksteal: each worker starts on one half of the tests in their order (so a file's
# module-scoped server, the browser and the shared server start on one worker, not both), and a
# worker that runs out takes half of what the other has left, so no slow tail waits on one worker.
# `env -u PYTHONDONTWRITEBYTECODE`: pytest keeps each test module with its asserts rewritten in
# __pycache__ only when bytecode may be written; where that variable is set (as on some CI images),
# every worker of every run rewrote and compiled all 130 test modules again (13 s of CPU per worker).
# Now the second run (`make test-postgres` after `make test`) and every later one reads them.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n 2 --dist worksteal

bytecode: install-dev
	$(PY) -m compileall -q app

test: install-dev chromium postgresql bytecode
	$(PYTEST) $(ARGS)

test-long:
	FUZZ_EXAMPLES=full $(MAKE) test

# The tests marked `db` again, on a throwaway PostgreSQL cluster (started, then removed): those
# that touch the database layer and live updates (the store, steps and undo, stale edits, export,
# import and backup, the live stream, the admin list, health, and the real-server tests whose
# server serves the database under test: not those that serve a SQLite file in both passes, nor
# the share-address one). What differs on PostgreSQL is there: types, NUL characters, row locks,
# transactions, LISTEN/NOTIFY. The other web tests (pages, forms, rules, fuzzers) go through the
# same store calls and ran once on SQLite; the two-process tests always run on PostgreSQL, in
# `make test` (tests/e2e/test_processes.py starts its own cluster).
# tests/e2e first: its ten real-server tests are the pass's longest (the 120 imports, the 60
# hanging bodies, the races: seconds each on PostgreSQL), so they start at once on one worker
# while the other takes the short web tests, and short web tests are what is left at the end;
# listed last, one of them could start last and hold the run while the other worker sat idle.
test-postgres: install-dev postgresql bytecode
	$(PY) -m tests.support.postgres run -- $(PYTEST) -m db tests/e2e tests/web tests/rulesets $(ARGS)

bench: install-dev
	$(PY) -m bench

bench-load: install-dev postgresql
	$(PY) -m bench load $(ARGS)

# Lighthouse's mobile performance audit (4x CPU slowdown, slow 4G, simulated) of the home page, a
# 2038 game in each phase and the zone and d20 games, against Debian's Chromium: scores, total
# blocking time and layout shift into test-artifacts/lighthouse.json (bench/lighthouse.py). A few
# minutes, so not part of `make test`. Lighthouse is pinned in tools/lighthouse (npm ci: its lock).
lighthouse: install-dev chromium
	cd tools/lighthouse && npm ci --no-audit --no-fund --loglevel=error
	$(PY) -m bench.lighthouse $(ARGS)

lint: install-dev
	$(VENV)/bin/ruff check app tests bench
	$(VENV)/bin/mypy

# Regenerate the locks after changing pyproject.toml's dependencies (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --extra postgres --generate-hashes --no-annotate --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 --no-header -o requirements/run.lock
	uv pip compile pyproject.toml --extra postgres --extra dev --generate-hashes --no-annotate --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 --no-header -o requirements/dev.lock

clean:
	rm -rf $(VENV)
