# Baton — two commands on a fresh machine with Python 3.11+ and make:
#   make demo   set up .venv, build the demo warehouse, ask one Chinese and one English question
#   make test   lint, type-check and run the whole test suite (incl. the eval set)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= .baton-demo
STAMP  := $(VENV)/.installed
DEV    := $(VENV)/.installed-dev

.PHONY: demo test lint typecheck eval install clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $(STAMP)

# test tools (pytest, hypothesis, ruff, mypy) only for lint and test; `make demo` does not need them
$(DEV): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(DEV)

install: $(STAMP)

$(DEMO)/baton.toml: | $(STAMP)
	$(BIN)/baton demo init --path $(DEMO)

demo: $(STAMP) $(DEMO)/baton.toml
	$(BIN)/baton ask "上个月各渠道的GMV是多少？" --config $(DEMO)/baton.toml
	$(BIN)/baton ask "What was GMV by channel last month?" --config $(DEMO)/baton.toml

lint: $(DEV)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy src tests

# two workers, one test file each at a time (module fixtures stay in one process)
test: lint
	$(BIN)/pytest -q -n 2 --dist loadfile

eval: $(STAMP) $(DEMO)/baton.toml
	$(BIN)/baton eval --config $(DEMO)/baton.toml

clean:
	rm -rf $(VENV) $(DEMO) .pytest_cache .mypy_cache .ruff_cache
