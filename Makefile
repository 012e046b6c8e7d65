# The README's two commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install chromium bench lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,postgres]"
	touch $@

install: $(VENV)/.installed

# Debian's Chromium for the browser tests (never a Playwright browser download).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

run: install
	mkdir -p data
	$(PY) -m app.migrate
	HOST=$(HOST) PORT=$(PORT) $(PY) -m app

test: install chromium
	$(PY) -m pytest -n 2 $(ARGS)

bench: install
	$(PY) -m bench

lint: install
	$(VENV)/bin/ruff check app tests bench

clean:
	rm -rf $(VENV)
