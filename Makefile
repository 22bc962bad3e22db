# chessrate: `make run` starts the main job, `make test` runs every check. Both set up what they need.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ASSETS := src/chessrate/web/static/vendor/.installed

.PHONY: run test setup lint assets

# The web calculator on http://127.0.0.1:8000, with a demo rating list (built once from the real
# tournament files the package ships) at /list, on the embedded SQLite default ./chessrate.db.
run: $(STAMP) $(ASSETS) chessrate.db
	$(PY) -m chessrate serve --list-db chessrate.db

chessrate.db: | $(STAMP)
	$(PY) -m chessrate list demo --db chessrate.db

test: $(STAMP) $(ASSETS) lint
	$(PY) -m pytest -q

assets: $(ASSETS)

# htmx, uPlot and Swagger UI from the npm registry, pinned by package-lock.json, served locally.
$(ASSETS): package.json package-lock.json scripts/vendor_assets.py
	npm ci --ignore-scripts --no-audit --no-fund
	$(PY) scripts/vendor_assets.py
	touch $(ASSETS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)
