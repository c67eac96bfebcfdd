# Set-up on a fresh machine: `make demo` (main job) and `make test` (the test suite).
# Each target creates the virtualenv .venv and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: demo test test-fast bench tournament results benchmark clean compiled test-compiled docs

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.demo: pyproject.toml | $(PY)
	$(PIP) install -q -e ".[tournament]" "torch==2.13.0"
	touch $@

$(VENV)/.test: pyproject.toml | $(PY)
	$(PIP) install -q -e ".[dev,tournament,train,bench,ray,openspiel,image,textarena,docs]" "torch==2.13.0"
	touch $@

demo: $(VENV)/.demo
	$(PY) -m bean_env.demo

test: $(VENV)/.test
	$(PY) -m pytest -q -n 2 --dist loadfile

test-fast: $(VENV)/.test
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not slow"

bench: $(VENV)/.test
	$(PY) benchmarks/engine_speed.py
	$(PY) benchmarks/throughput.py
	$(PY) benchmarks/train_speed.py
	$(PY) benchmarks/vector_speed.py
	$(PY) benchmarks/mcts_speed.py

# A tournament: make tournament ARGS="bean_duel heuristic mcts --games 40"
tournament: $(VENV)/.test
	$(PY) benchmarks/tournament.py $(ARGS)

# Regenerate docs/results.md (the strength ladder; about 10-15 minutes on 2 cores)
results: $(VENV)/.test
	$(PY) benchmarks/tournament.py ladder --out docs/results.md

# Regenerate docs/benchmark.md and docs/benchmark.json (the evaluation protocol; hours on 2 cores at full
# scale with mcts, e.g. make benchmark ARGS="--scale 0.2"), then the README's results table from it
benchmark: $(VENV)/.test
	$(PY) -m bean_env.training.benchmark --out docs/benchmark.md --json docs/benchmark.json --progress $(ARGS)
	$(PY) -m bean_env.training.results_table docs/benchmark.json --into README.md docs/results.md

# The documentation site, built in strict mode (a broken link or reference fails) into site/
$(VENV)/.docs: pyproject.toml | $(PY)
	$(PIP) install -q -e ".[docs]"
	touch $@

docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

# The optional compiled build (mypyc, see setup.py) in its own virtualenv, never in place in the tree.
# test-compiled runs the engine and env tests (golden traces included) against it: `python -P` keeps
# the working tree off sys.path, so the installed compiled package is the one imported.
CVENV ?= .venv-compiled
CPY := $(CVENV)/bin/python
# (the speed-benchmark smoke tests run the repo tree and need the bench extra: pure build only)
COMPILED_TESTS ?= tests/engine tests/envs tests/takeover tests/mafia tests/golden \
	--ignore=tests/envs/test_speed_benchmarks.py

$(CPY):
	$(PYTHON) -m venv $(CVENV)
	$(CVENV)/bin/pip install -q --upgrade pip

compiled: | $(CPY)
	$(CVENV)/bin/pip install -q "mypy==2.4.0" "setuptools>=77" wheel "numpy>=1.24"  # the encoder imports numpy: mypyc type-checks against it
	rm -rf build/compiled
	BEAN_ENV_COMPILE=1 $(CVENV)/bin/pip install -q --no-build-isolation ".[dev,image]"

test-compiled: compiled
	BEAN_ENV_EXPECT_COMPILED=1 $(CPY) -P -m pytest -q -n 2 --dist loadfile -p no:cacheprovider $(COMPILED_TESTS)

clean:
	rm -rf $(VENV) $(CVENV) .pytest_cache
