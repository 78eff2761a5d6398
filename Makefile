# `make demo` and `make test` each set the project up first (a .venv with the project and its dev
# extras), so both work from a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/python -m promote.demo

# every core: each worker loads the model once and takes the next test as it finishes one
test: setup
	$(BIN)/python -m pytest -n auto

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
