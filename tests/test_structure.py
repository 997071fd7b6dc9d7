"""The package's shape: imports point inward only, and nothing imports in a circle.

The import graph is read from the sources with :mod:`ast` (every ``import``
and ``from … import`` of a ``ligretto`` module, wherever it stands, including
``TYPE_CHECKING`` blocks and imports inside functions: a deferred import is
still a dependency). Each part of the package has a layer
(``docs/architecture.md``, "Layers"); a module may import its own part and the
parts of lower layers, never a part beside it or above it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "ligretto"

#: The layers, from the ground up. A part is a top-level subpackage or module
#: of ``ligretto``; parts of one layer do not import each other.
LAYERS: tuple[frozenset[str], ...] = (
    # estimates: means and intervals, standard library only (the Tafel's
    # statistics and the simulator's reports both read them).
    frozenset({"rules", "estimates"}),
    # _build probes the compiled rules module to say which build runs.
    frozenset({"tafel", "bots", "_build"}),
    frozenset({"sim"}),
    # Adapters around the core: the database, the simulator's worker
    # processes and command, starting and stopping a child process, the
    # process's garbage collector policy, the series of /metrics (counted
    # by online play and the web app alike).
    frozenset({"store", "simulate", "child_process", "collector", "metrics"}),
    frozenset({"live"}),
    frozenset({"web"}),
    frozenset({"cli", "serve_process"}),
)


def layer_of(part: str) -> int:
    for number, parts in enumerate(LAYERS):
        if part in parts:
            return number
    raise AssertionError(
        f"ligretto.{part} has no layer: add it to LAYERS here and to docs/architecture.md"
    )


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.relative_to(PACKAGE).parts
    }


def imported(path: Path, name: str, modules: dict[str, Path]) -> Iterator[str]:
    """The ``ligretto`` modules that ``path`` (module ``name``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from ligretto.rules import round`` imports the submodule.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target.startswith("ligretto.") and target != name:
                yield target


def import_graph() -> dict[str, set[str]]:
    modules = source_modules()
    return {name: set(imported(path, name, modules)) for name, path in modules.items()}


def part_of(module: str) -> str:
    return module.split(".")[1]


def is_face(module: str) -> bool:
    """A package's ``__init__``: it hands names on and is drawn as its package."""
    return (SRC / module.replace(".", "/") / "__init__.py").exists()


def test_every_import_points_inward() -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if module != "ligretto"
        for target in targets
        if target != "ligretto"
        and part_of(target) != part_of(module)
        and layer_of(part_of(target)) >= layer_of(part_of(module))
    )
    assert wrong == []


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the graph's components of two or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_in_a_circle() -> None:
    # A package's __init__ only hands its modules' names on; an import of a
    # sibling through it is not a circle of the modules themselves.
    graph = {
        module: {target for target in targets if not is_face(target)}
        for module, targets in import_graph().items()
        if not is_face(module)
    }
    assert strongly_connected(graph) == []


@pytest.mark.parametrize(
    ("graph", "circles"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}, [["a", "b", "c"]]),
    ],
)
def test_the_circle_finder_finds_circles(
    graph: dict[str, set[str]], circles: list[list[str]]
) -> None:
    assert strongly_connected(graph) == circles


#: What the pure core (docs/architecture.md) never imports: I/O, processes,
#: threads, clocks, the event loop, the database, the web and the terminal;
#: nor a cluster (the simulator's runner in simulate/ sends work to one).
IMPURE = frozenset(
    {
        "asyncio", "concurrent", "dask", "distributed", "fastapi", "httpx", "jinja2", "logging",
        "multiprocessing", "os", "pathlib", "rich", "socket", "sqlalchemy",
        "starlette", "subprocess", "sys", "threading", "time", "typer",
        "uvicorn", "websockets",
    }
)  # fmt: skip
CORE = ("rules", "estimates", "tafel", "bots", "sim")


def top_level_imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.module.split(".")[0]


def test_the_core_does_no_io() -> None:
    impure = sorted(
        f"{name} imports {module}"
        for name, path in source_modules().items()
        if name != "ligretto" and part_of(name) in CORE
        for module in set(top_level_imports(path)) & IMPURE
    )
    assert impure == []
