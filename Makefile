# Courtly: every target bootstraps .venv itself, so a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

COMPILED := src/courtly/_compiled.json
COMPILED_SOURCES := $(shell $(PYTHON) tools/compile.py --sources)

.PHONY: run test lint typecheck unit bench clean compiled system-packages

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("Courtly needs Python >= 3.11") if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Play Royal Gambit in the terminal against two heuristic bots.
run: $(STAMP)
	$(BIN)/courtly play royal-gambit --seats human,heuristic,heuristic

## Lint, type-check (strict on src/) and run every test (on the compiled modules, if they build).
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(COMPILED) system-packages
	$(BIN)/python -m pytest -n auto -q

## PostgreSQL for the server's tests, which start their own server (Debian's postgresql):
## installed when missing if run as root (as CI is); otherwise this says how to install it.
PG_INSTALL_HINT := sudo apt-get install postgresql
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

## Engine throughput (random playouts) and ISMCTS search speed of every game, one core;
## writes benchmarks/results/throughput.json and search.json.
bench: $(STAMP) $(COMPILED)
	$(BIN)/python benchmarks/throughput.py --out benchmarks/results/throughput.json
	$(BIN)/python benchmarks/search.py --out benchmarks/results/search.json

## Compile the hot modules with mypyc (tools/compile.py, about two minutes): two to four times
## as fast. Rebuilt when their sources change; without a C compiler Courtly runs as plain Python.
compiled: $(COMPILED)

$(COMPILED): $(STAMP) tools/compile.py $(COMPILED_SOURCES)
	$(BIN)/python tools/compile.py || echo "courtly: the modules did not compile; running as plain Python (slower)"

clean:
	$(PYTHON) tools/compile.py --clean
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache
