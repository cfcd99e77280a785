# Courtly: every target bootstraps .venv itself, so a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

COMPILED := src/courtly/_compiled.json
COMPILED_SOURCES := $(shell $(PYTHON) tools/compile.py --sources)

.PHONY: run play test lint typecheck unit bench results clean compiled client system-packages

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("Courtly needs Python >= 3.11") if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Courtly's server on its embedded defaults (SQLite in ~/.local/share/courtly): it prints the
## lobby's address, http://127.0.0.1:8000, to open in a browser. `make play` plays in the terminal.
run: $(STAMP) client
	$(BIN)/courtly serve

## Play Royal Gambit in the terminal against two heuristic bots.
play: $(STAMP)
	$(BIN)/courtly play royal-gambit --seats human,heuristic,heuristic

## Lint, type-check (strict on src/) and run every test (on the compiled modules, if they build).
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools examples
	$(BIN)/ruff format --check src tests benchmarks tools examples

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(COMPILED) system-packages client
	$(BIN)/python -m pytest -n auto -q

## The browser client (TypeScript and Preact, built by Vite from its lockfile) into
## src/courtly/web/static/, which `courtly serve` serves and the wheel ships. `npm ci` runs when
## node_modules is missing or the lockfile changed; the build, when a source of the client did.
CLIENT := src/courtly/web/client
CLIENT_DEPS := $(CLIENT)/node_modules/.installed
CLIENT_BUILT := src/courtly/web/static/index.html
CLIENT_SOURCES := $(shell find $(CLIENT)/src -type f 2>/dev/null) $(addprefix $(CLIENT)/,index.html package.json tsconfig.json vite.config.ts)
client: $(CLIENT_BUILT)

$(CLIENT_DEPS): $(CLIENT)/package-lock.json
	@command -v npm >/dev/null || { echo "courtly: the browser client needs Node.js (20.19 or later) and npm: sudo apt-get install nodejs npm"; exit 1; }
	cd $(CLIENT) && npm ci --no-audit --no-fund
	touch $@

$(CLIENT_BUILT): $(CLIENT_DEPS) $(CLIENT_SOURCES)
	cd $(CLIENT) && npm run build
	touch $@

## PostgreSQL for the server's tests, which start their own server (Debian's postgresql), and
## Chromium for the browser tests (Debian's chromium, driven by Playwright: no browser download):
## installed when missing if run as root (as CI is); otherwise this says how to install them.
PG_INSTALL_HINT := sudo apt-get install postgresql
CHROMIUM_INSTALL_HINT := sudo apt-get install chromium
system-packages:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		true; \
	elif [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then \
		echo "courtly: installing PostgreSQL for the server's tests"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; \
	else \
		echo "courtly: PostgreSQL is not installed: its tests are skipped (they fail in CI and as root)."; \
		echo "courtly: install it with: $(PG_INSTALL_HINT)"; \
	fi
	@if [ -x /usr/bin/chromium ]; then \
		true; \
	elif [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then \
		echo "courtly: installing Chromium for the browser tests"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
		echo "courtly: Chromium is not installed: the browser tests are skipped (they fail in CI and as root)."; \
		echo "courtly: install it with: $(CHROMIUM_INSTALL_HINT)"; \
	fi

## Engine throughput (random playouts), ISMCTS search speed, analysis speed, and Courtly's ISMCTS
## against OpenSpiel's in the same run; writes benchmarks/results/*.json.
bench: $(STAMP) $(COMPILED)
	$(BIN)/python benchmarks/throughput.py --out benchmarks/results/throughput.json
	$(BIN)/python benchmarks/search.py --out benchmarks/results/search.json
	$(BIN)/python benchmarks/analysis.py --out benchmarks/results/analysis.json
	$(BIN)/python benchmarks/openspiel.py --out benchmarks/results/openspiel.json

## The README's results: a balance report of every game at its default options, written to
## docs/results/ (HTML, JSON, PNG), and the README's table and findings rewritten from them.
results: $(STAMP) $(COMPILED)
	$(BIN)/python tools/results.py

## Compile the hot modules with mypyc (tools/compile.py, about two minutes): two to four times
## as fast. Rebuilt when their sources change; without a C compiler Courtly runs as plain Python.
compiled: $(COMPILED)

$(COMPILED): $(STAMP) tools/compile.py $(COMPILED_SOURCES)
	$(BIN)/python tools/compile.py || echo "courtly: the modules did not compile; running as plain Python (slower)"

clean:
	$(PYTHON) tools/compile.py --clean
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache $(CLIENT)/node_modules src/courtly/web/static
