# The two commands (README): `make run` and `make test`. Both create the
# virtual environment on first use, pinned by constraints.txt.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test lint typecheck pytest bench fuzz venv clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/ligretto serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy --strict src tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src

# pytest exits 5 when it collected no tests: that is a failure, not a pass,
# and make turns every non-zero exit into a failed target.
pytest: $(STAMP)
	@$(VENV)/bin/pytest $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

test: lint pytest

# A longer schema-driven fuzz of the JSON API than the one in `make test`.
FUZZ_EXAMPLES ?= 500
fuzz: $(STAMP)
	LIGRETTO_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(VENV)/bin/pytest -q tests/web/test_api_fuzz.py

bench: $(STAMP)
	@for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
