# Two commands on a fresh machine: `make demo` and `make test`.
# Each creates .venv when missing and installs what it needs.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test test-launchpadlib lint bench bench-smoke venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint,bench]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/tour.py

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q -p no:cacheprovider
	$(BIN)/python -m tests.lazr.launchpadlib_suite

# launchpadlib's own test suite, with wadlclient installed as lazr.restfulclient.
test-launchpadlib: $(STAMP)
	$(BIN)/python -m tests.lazr.launchpadlib_suite


bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

bench-smoke: $(STAMP)
	$(BIN)/python -m benchmarks.run --smoke

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
