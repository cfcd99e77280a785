# Courtly: every target bootstraps .venv itself, so a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("Courtly needs Python >= 3.11") if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Play Royal Gambit in the terminal against two heuristic bots.
run: $(STAMP)
	$(BIN)/courtly play royal-gambit --seats human,heuristic,heuristic

## Lint, type-check (strict on src/) and run every test.
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -n auto -q

## Engine throughput (random playouts) and ISMCTS search speed of every game, one core;
## writes benchmarks/results/throughput.json and search.json.
bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py --out benchmarks/results/throughput.json
	$(BIN)/python benchmarks/search.py --out benchmarks/results/search.json

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
