# Set-up on a fresh machine: `make demo` (main job) and `make test` (the test suite).
# Each target creates the virtualenv .venv and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: demo test test-fast bench tournament results clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.demo: pyproject.toml | $(PY)
	$(PIP) install -q -e ".[tournament]" "torch==2.13.0"
	touch $@

$(VENV)/.test: pyproject.toml | $(PY)
	$(PIP) install -q -e ".[dev,tournament,train,bench,ray,openspiel,image,textarena]" "torch==2.13.0"
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

# A tournament: make tournament ARGS="bean_duel heuristic mcts --games 40"
tournament: $(VENV)/.test
	$(PY) benchmarks/tournament.py $(ARGS)

# Regenerate docs/results.md (the strength ladder; about 10-15 minutes on 2 cores)
results: $(VENV)/.test
	$(PY) benchmarks/tournament.py ladder --out docs/results.md

clean:
	rm -rf $(VENV) .pytest_cache
