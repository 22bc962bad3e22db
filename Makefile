# chessrate: `make run` starts the main job, `make test` runs every check. Both set up what they need.
VENV ?= .venv
PYTHON ?= python3
PORT ?= 8000
PY := $(VENV)/bin/python
ASSETS := src/chessrate/web/static/vendor/.installed
export VENV PYTHON

.PHONY: run test setup lint assets system-packages

# The web calculator on http://127.0.0.1:$(PORT) (make run PORT=8080), with a demo rating list
# (built once from the real tournament files the package ships) at /list, on the embedded SQLite
# default ./chessrate.db.
run: system-packages setup $(ASSETS) chessrate.db
	$(PY) -m chessrate serve --list-db chessrate.db --port $(PORT)

chessrate.db: | setup
	$(PY) -m chessrate list demo --db chessrate.db

# Debian packages (installed when root), .venv, assets, lint, a throwaway PostgreSQL stopped on
# every exit, the whole suite: see scripts/test.sh.
test:
	scripts/test.sh

# Debian's python3-venv, nodejs and npm: installed when root, otherwise the apt-get line to run.
system-packages:
	@scripts/system_packages.sh run

# .venv with chessrate and its dev tools; a stale or half-made .venv is made again.
setup:
	@scripts/setup_venv.sh

assets: $(ASSETS)

# htmx, uPlot and Swagger UI from the npm registry, pinned by package-lock.json, served locally.
$(ASSETS): package.json package-lock.json scripts/vendor_assets.py | system-packages setup
	npm ci --ignore-scripts --no-audit --no-fund
	$(PY) scripts/vendor_assets.py
	touch $(ASSETS)

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks build_backend
	$(VENV)/bin/ruff format --check src tests benchmarks build_backend
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy build_backend/chessrate_build.py
