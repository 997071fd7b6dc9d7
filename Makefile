# The two commands (README): `make run` and `make test`. Both create the
# virtual environment on first use, pinned by constraints.txt.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Python's bytecode caches stay on, whatever the machine says: pytest keeps
# each test module with its asserts rewritten there, and without them every
# test process rewrote all 500 modules again (collecting took 14 s of CPU a
# process against 6 s, 2026-12-08). Some machines set PYTHONDONTWRITEBYTECODE.
unexport PYTHONDONTWRITEBYTECODE

# The rules core is compiled with mypyc when a C compiler is present
# (setup.py; CONTRIBUTING.md "The compiled core"): the build tools are
# installed first, pinned, then the editable package (pure: it compiles
# nothing), and $(CORE) builds the extensions beside their sources, again
# whenever a compiled source changed (--force: without it an edited source
# could leave the old .so in place); ligretto refuses stale ones at import
# (it runs the pure sources). The build and `make lint` take one core each
# for half a minute: `make test` and `make check` run them side by side.
CORE        := $(VENV)/.core-stamp
CORE_SRC    := $(wildcard src/ligretto/rules/*.py src/ligretto/sim/*.py src/ligretto/bots/*.py)
BUILD_TOOLS := setuptools wheel mypy mypy_extensions

.PHONY: run test test-pure check flake-hunt file-times file-cpu lint typecheck pytest bench fuzz venv clean

$(STAMP): pyproject.toml constraints.txt setup.py mypyc.ini
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -c constraints.txt $(BUILD_TOOLS)
	LIGRETTO_PURE_BUILD=1 $(PY) -m pip install --quiet -c constraints.txt --no-build-isolation -e '.[test]'
	touch $(STAMP)

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
# and make turns every non-zero exit into a failed target. Four workers
# (pytest-xdist), two per core of the reference machine, each taking whole
# test files (a module's servers and databases exist once, and two stacks
# never share process names): much of a browser or server test is waiting
# for a page, a socket or a countdown, and a second worker per core fills
# that time (16 min 42 s instead of 22 min 05 s for the compiled pass on
# the 2-core machine, 2026-12-06). The files go out longest first
# (--no-loadscope-reorder keeps the order tests/helpers/file_order.py gives
# them from tests/file_times.json), so that no long file starts last and
# runs alone at the end. PYTEST_ARGS replaces them.
PYTEST_ARGS ?= -n 4 --dist loadfile --no-loadscope-reorder
pytest: $(STAMP) $(CORE)
	@$(VENV)/bin/ligretto version
	@$(VENV)/bin/pytest $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

# The compiled pass and the pure pass run side by side: the compiled pass
# spends most of its time waiting for pages and servers, and the pure one
# fills that time (CONTRIBUTING.md, "Running the tests"). The pure pass's
# output is kept and printed after the compiled one's; make test fails if
# either fails.
PURE_LOG ?= $(VENV)/pure-pass.log
LINT_AND_CORE := $(MAKE) --no-print-directory -j 2 --output-sync=target lint $(CORE)
test: $(STAMP)
	@$(LINT_AND_CORE)
	@PYTEST_ARGS="$(PURE_ARGS)" $(MAKE) --no-print-directory test-pure > $(PURE_LOG) 2>&1 & pure=$$!; \
	  $(MAKE) --no-print-directory pytest; compiled=$$?; \
	  wait $$pure; rc=$$?; \
	  echo "== the pure pass (tests of the compiled code, LIGRETTO_PURE=1), run beside:"; \
	  cat $(PURE_LOG); \
	  if [ $$compiled -ne 0 ] || [ $$rc -ne 0 ]; then \
	    echo "make test: compiled pass exit $$compiled, pure pass exit $$rc" >&2; exit 1; fi

# The tests of the code that is compiled, against the pure Python core
# (LIGRETTO_PURE=1 loads the .py sources of a compiled build): the rules
# engine, the bots and the simulator, what drives them (simulate, live),
# and the check that one seed gives the same rounds in both builds. The
# rest of the suite reaches the compiled code only through these modules'
# public behaviour, which these tests pin, so it runs once, compiled
# (CONTRIBUTING.md, "The compiled core"). PURE_TESTS narrows or widens it.
PURE_TESTS ?= tests/rules tests/bots tests/sim tests/simulate tests/live tests/test_build.py
# Left out: the tests that play hundreds of seeded rounds for a statistic or
# a budget (marker many_rounds). Their rounds are the same in both builds
# (tests/test_build.py compares them seed by seed), so their numbers are too.
# And the tests of `ligretto serve` as a process of its own, stopped and
# killed (marker server_process): the tables inside it are tested in both
# builds in-process.
PURE_MARKS ?= not many_rounds and not server_process
# One worker beside the compiled pass's four.
PURE_ARGS  ?= -n 1 --dist loadfile -p no:cacheprovider
test-pure: $(STAMP)
	@LIGRETTO_PURE=1 $(VENV)/bin/ligretto version
	@LIGRETTO_PURE=1 $(VENV)/bin/pytest $(PYTEST_ARGS) -m "$(PURE_MARKS)" $(PURE_TESTS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

# The developer's quick round (a few minutes): lint and types, the tests
# that need no browser and are not slow, on every core, and then the
# browser test files this change touched (against CHECK_BASE, by default
# the last commit: uncommitted and new files) or BROWSER_TESTS if given.
CHECK_BASE    ?= HEAD
BROWSER_TESTS ?= $(shell git diff --name-only $(CHECK_BASE) -- 'tests/browser/test_*.py' 2>/dev/null; \
                   git ls-files --others --exclude-standard -- 'tests/browser/test_*.py')
check: $(STAMP)
	@$(LINT_AND_CORE)
	@$(VENV)/bin/pytest -q -n auto --dist loadfile --no-loadscope-reorder -m "not browser and not slow"
	@if [ -n "$(strip $(BROWSER_TESTS))" ]; then \
	  echo "browser tests touched by this change: $(strip $(BROWSER_TESTS))"; \
	  $(VENV)/bin/pytest -q -n 2 --dist loadfile $(sort $(BROWSER_TESTS)); \
	else echo "no browser test file touched (BROWSER_TESTS=... names some)"; fi

# Runs the browser, live and deploy tests FLAKE_RUNS times while one busy
# loop per core (stress-ng, else Python) takes the machine's time, and
# names every test that failed in any run (scripts/flake_hunt.py). Without
# screenshots, as .ci/run runs them (LIGRETTO_SHOTS=1 takes them).
FLAKE_RUNS  ?= 5
FLAKE_TESTS ?= tests/browser tests/live tests/deploy
flake-hunt: $(STAMP) $(CORE)
	LIGRETTO_SHOTS=$${LIGRETTO_SHOTS:-0} $(PY) scripts/flake_hunt.py --runs $(FLAKE_RUNS) -- $(PYTEST_ARGS) $(FLAKE_TESTS)

# Runs the compiled pass and records each test file's time in
# tests/file_times.json, the order the next runs hand files out in.
file-times: $(STAMP) $(CORE)
	LIGRETTO_FILE_TIMES_OUT=tests/file_times.json $(VENV)/bin/pytest -q $(PYTEST_ARGS)

# Runs the compiled pass and records the CPU each test file took, with the
# browsers and servers it started (tests/helpers/file_cpu.py; needs a
# writable cgroup, as root): what to cut first when the suite is too slow.
FILE_CPU ?= test-artifacts/file-cpu.json
file-cpu: $(STAMP) $(CORE)
	mkdir -p $(dir $(FILE_CPU))
	LIGRETTO_FILE_CPU_OUT=$(FILE_CPU) $(VENV)/bin/pytest -q $(PYTEST_ARGS)

# A longer schema-driven fuzz of the JSON API than the one in `make test`.
FUZZ_EXAMPLES ?= 500
fuzz: $(STAMP) $(CORE)
	LIGRETTO_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(VENV)/bin/pytest -q tests/web/test_api_fuzz.py

bench: $(STAMP) $(CORE)
	@for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete; rm -f src/ligretto/_compiled.json
