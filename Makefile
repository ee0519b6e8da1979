# Two commands on a fresh machine: `make demo` and `make test`.
# Each creates .venv when missing and installs what it needs: `make demo` the
# client and the example service only, `make test` every development extra.
# `make docs` builds the API reference (warnings are errors); `make package`
# builds the sdist and wheel, checks them, installs the wheel into a clean venv,
# and builds them again with the oldest hatchling pyproject.toml accepts.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DIGEST := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# Two stamps, each naming the pyproject.toml it was installed from: the demo's (the
# client and the example service) and the whole development set's (every extra).
# The whole set includes the demo's, so installing it stamps both.
DEMO_STAMP := $(VENV)/.demo-$(DIGEST)
STAMP  := $(VENV)/.installed-$(DIGEST)

.PHONY: launchpad-typed demo test redis-server test-launchpadlib test-restfulclient lint docs package bench bench-smoke soak fuzz venv clean

# make demo: only what the tour needs, the client and the example service ([server]).
$(DEMO_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[server]'
	rm -f $(VENV)/.demo-*
	touch $(DEMO_STAMP)

# make test and the others: every development extra (tests, lint, benchmarks, docs, packaging).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint,bench,docs,package]'
	rm -f $(VENV)/.installed-* $(VENV)/.demo-*
	touch $(STAMP) $(DEMO_STAMP)

venv: $(STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/python examples/tour.py

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples mkdocs_hooks.py
	$(BIN)/mypy

# The Redis cache tests start a redis-server of their own: installed here from
# Debian when missing and apt is usable (as root); else those tests say why they skip.
redis-server:
	@command -v redis-server >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 \
	  && [ "$$(id -u)" = 0 ] && { apt-get install -y -qq --no-install-recommends redis-server \
	  || { apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server; }; \
	  } >/dev/null; } || echo "redis-server not installed: the Redis cache tests will skip"

# The suite runs in parallel (pytest-xdist): half again as many worker processes as cores,
# since a test spends about a third of its time waiting (servers, child processes,
# latency) rather than computing; each worker takes the next test when it is free
# (--dist worksteal). On 2 cores: 3 workers.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(max(2, (3 * len(os.sched_getaffinity(0)) + 1) // 2))")

# The suite starts hundreds of Python processes (workers, scripts, servers). Where the
# machine sets PYTHONDONTWRITEBYTECODE, each would compile the project's sources again:
# the tests run without it, reading the bytecode installed with the standard library and
# the packages, and writing the project's own beside its sources (__pycache__, which git
# ignores). A tree of its own (PYTHONPYCACHEPREFIX) made a fresh clone compile the
# standard library and every package again.
TEST_ENV := env -u PYTHONDONTWRITEBYTECODE

test: lint redis-server
	$(TEST_ENV) $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal
	$(TEST_ENV) $(BIN)/python -m tests.lazr.launchpadlib_suite
	$(TEST_ENV) $(BIN)/python -m tests.lazr.restfulclient_suite

# launchpadlib's own test suite, with wadlclient installed as lazr.restfulclient.
test-launchpadlib: $(STAMP)
	$(BIN)/python -m tests.lazr.launchpadlib_suite

# lazr.restfulclient's own test suite (its tests and doctests), on wadlclient.
test-restfulclient: $(STAMP)
	$(BIN)/python -m tests.lazr.restfulclient_suite

# The typed Launchpad package shipped in the wheel, generated from Launchpad's published devel
# WADL (docs/launchpad-typed.md); tests/typed/test_launchpad_typed.py fails when it is out of date.
LAUNCHPAD_WADL := 'from benchmarks.config import launchpad_published_wadl_path as p; print(p("devel"))'
launchpad-typed: $(STAMP)
	$(BIN)/wadlclient stubgen "$$($(BIN)/python -c $(LAUNCHPAD_WADL))" \
		--output src/wadlclient --name launchpad --untyped any --fixups launchpad

docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

# The wheel goes into a venv of its own, without the project on its path:
# what a user who runs `pip install wadlclient` gets.
package: $(STAMP)
	rm -rf dist .package-check
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*
	$(PYTHON) -m venv .package-check
	.package-check/bin/python -m pip install --quiet dist/*.whl
	cd .package-check && bin/python -c "import wadlclient, wadlclient.cli, cookbook_service.seed; print('imports', wadlclient.__version__)"
	cd .package-check && bin/python -c "import wadlclient.launchpad, glob; assert glob.glob('lib/python*/site-packages/launchpadlib-stubs/launchpad.pyi'); assert glob.glob('lib/python*/site-packages/lazr-stubs/restfulclient/resource.pyi'); print('typed Launchpad, launchpadlib-stubs and lazr-stubs installed')"
	cd .package-check && bin/python -c "from wadlclient.testing import LAUNCHPAD_VERSIONS as V, launchpad_wadl as w; assert all(f'api.launchpad.net/{v}/'.encode() in w(v) for v in V); print('testing kit with Launchpad WADL installed:', *V)"
	.package-check/bin/wadlclient --version
	rm -rf .package-check
	$(BIN)/python -m tests.oldest_backend

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

bench-smoke: $(STAMP)
	$(BIN)/python -m benchmarks.run --smoke

# A mirror of 20,000 recipes at 150 ms killed with SIGKILL at random moments and run again,
# JSONL and CSV (issue 42): minutes, so not in `make test` (which runs it at 1,000 recipes);
# fails when an entry is missing or twice. ROUNDS=N kills per format (default 3).
soak: $(STAMP)
	$(BIN)/python -m benchmarks.mirrorkill --rounds $(or $(ROUNDS),3)

# The end-to-end fuzzer from new seeds, for a nightly job (the suite runs one fixed seed).
fuzz: $(STAMP)
	$(BIN)/python -m tests.hostile.fuzz --minutes $(or $(MINUTES),10)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis site dist .package-check
