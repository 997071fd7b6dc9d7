"""The test suite's own rules (CONTRIBUTING.md, "Running the tests").

- Test modules share code through ``tests/helpers/`` only: none imports
  another test module or a conftest (xdist runs them in other processes and
  orders; an import of one test module from another runs its tests' module
  code twice and ties the two files together).
- No test waits a fixed time before it asserts: a page wait
  (``wait_for_timeout``) stands only inside a loop that polls a condition;
  a ``sleep`` outside a loop is only a time that must at least pass (a
  busy machine can only lengthen it) and says so with "at least" on its line.
- The pure pass (``make test-pure``) runs the tests of every compiled package.
- The parallel passes hand out the longest files first
  (``helpers/file_order.py``), by a record that names only files that exist.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from helpers.file_order import RECORD, longest_first, recorded_times
from ligretto._build import COMPILED

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def suite_files() -> Iterator[Path]:
    for path in sorted(TESTS.rglob("*.py")):
        if "helpers" not in path.relative_to(TESTS).parts:
            yield path


def _is_test_module(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def test_no_test_module_imports_another_or_a_conftest() -> None:
    found = []
    for path in suite_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                if node.level or any(_is_test_module(n) for n in names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            elif isinstance(node, ast.Import) and any(_is_test_module(a.name) for a in node.names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == [], f"imports of test modules (share through tests/helpers/): {found}"


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _timed_waits(path: Path) -> Iterator[tuple[int, str, bool]]:
    """Each call of a fixed wait: (line, name, inside a loop)."""
    tree = ast.parse(path.read_text(), str(path))

    def visit(node: ast.AST, in_loop: bool) -> Iterator[tuple[int, str, bool]]:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            in_loop = False  # a function's body runs where it is called
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name in ("wait_for_timeout", "sleep"):
                yield node.lineno, name, in_loop
        looping = in_loop or isinstance(node, ast.For | ast.AsyncFor | ast.While)
        for child in ast.iter_child_nodes(node):
            yield from visit(child, looping)

    yield from visit(tree, False)


def _waits_nothing(line: str) -> bool:
    # sleep(0): a turn of the event loop, no time at all.
    return re.search(r"sleep\(0\)", line) is not None


def test_no_test_waits_a_fixed_time_before_it_asserts() -> None:
    found = []
    for path in [*suite_files(), *sorted((TESTS / "helpers").glob("*.py"))]:
        lines = path.read_text().splitlines()
        for lineno, name, in_loop in _timed_waits(path):
            line = lines[lineno - 1]
            if in_loop or _waits_nothing(line):
                continue
            if name == "sleep" and "at least" in line:
                continue
            found.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert found == [], "fixed waits (wait for a condition instead):\n" + "\n".join(found)


def test_the_pure_pass_runs_the_tests_of_every_compiled_package() -> None:
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(r"^PURE_TESTS \?= (.+)$", makefile, re.M)
    assert match, "the Makefile names no PURE_TESTS"
    pure = set(match.group(1).split())
    packages = {module.split("/")[1] for module in COMPILED}
    assert packages == {"rules", "sim", "bots"}, packages  # a new one: add its tests
    assert {f"tests/{package}" for package in packages} <= pure, pure
    assert "tests/test_build.py" in pure
    assert all((ROOT / path).exists() for path in pure), pure


def test_the_longest_files_go_out_first_and_ties_keep_their_order() -> None:
    times = {"a.py": 10.0, "b.py": 300.0, "c.py": 40.0, "d.py": 40.0}
    # e.py is new: it counts as a file of the median time (40 s).
    files = ["a.py", "e.py", "c.py", "d.py", "b.py"]
    assert longest_first(files, times) == ["b.py", "e.py", "c.py", "d.py", "a.py"]
    assert longest_first(files, {}) == files


def test_the_record_of_file_times_names_only_test_files_that_exist() -> None:
    times = recorded_times(RECORD)
    assert times, f"{RECORD.relative_to(ROOT)} is missing: make file-times writes it"
    gone = [name for name in times if not (ROOT / name).is_file()]
    assert gone == [], f"files no longer there (make file-times): {gone}"
