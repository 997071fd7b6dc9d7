# The two commands (README): `make run` and `make test`. Both create the
# virtual environment on first use, pinned by constraints.txt.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

# The rules core is compiled with mypyc when a C compiler is present
# (setup.py; CONTRIBUTING.md "The compiled core"): the build tools are
# installed first, pinned, and the editable install builds the extensions
# beside their sources. $(CORE) rebuilds them whenever a compiled source
# changed (--force: without it an edited source could leave the old .so in
# place); ligretto refuses stale ones at import (it runs the pure sources).
CORE        := $(VENV)/.core-stamp
CORE_SRC    := $(wildcard src/ligretto/rules/*.py src/ligretto/sim/*.py src/ligretto/bots/*.py)
BUILD_TOOLS := setuptools wheel mypy mypy_extensions

.PHONY: run test test-pure lint typecheck pytest bench fuzz venv clean

$(STAMP): pyproject.toml constraints.txt setup.py mypyc.ini
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -c constraints.txt $(BUILD_TOOLS)
	$(PY) -m pip install --quiet -c constraints.txt --no-build-isolation -e '.[test]'
	touch $(STAMP) $(CORE)

$(CORE): $(STAMP) $(CORE_SRC)
	$(PY) setup.py --quiet build_ext --inplace --force
	touch $(CORE)

venv: $(STAMP) $(CORE)

run: $(STAMP) $(CORE)
	$(VENV)/bin/ligretto serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks setup.py
	$(VENV)/bin/ruff format --check src tests benchmarks setup.py
	$(VENV)/bin/mypy --strict src tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src

# pytest exits 5 when it collected no tests: that is a failure, not a pass,
# and make turns every non-zero exit into a failed target. Two workers
# (pytest-xdist), one per core of the reference machine, each taking whole
# test files (a module's servers and databases exist once, and two stacks
# never share process names): about 10 minutes instead of 15 there.
# PYTEST_ARGS replaces them.
PYTEST_ARGS ?= -n 2 --dist loadfile
pytest: $(STAMP) $(CORE)
	@$(VENV)/bin/ligretto version
	@$(VENV)/bin/pytest $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

test: lint pytest

# The same tests against the pure Python core (LIGRETTO_PURE=1 loads the .py
# sources of a compiled build). PURE_TESTS narrows it, e.g. PURE_TESTS=tests/rules.
PURE_TESTS ?=
test-pure: $(STAMP)
	@LIGRETTO_PURE=1 $(VENV)/bin/ligretto version
	@LIGRETTO_PURE=1 $(VENV)/bin/pytest $(PYTEST_ARGS) $(PURE_TESTS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

# A longer schema-driven fuzz of the JSON API than the one in `make test`.
FUZZ_EXAMPLES ?= 500
fuzz: $(STAMP) $(CORE)
	LIGRETTO_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(VENV)/bin/pytest -q tests/web/test_api_fuzz.py

bench: $(STAMP) $(CORE)
	@for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete; rm -f src/ligretto/_compiled.json
