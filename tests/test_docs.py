"""The docs cannot drift silently from the code.

- ``docs/architecture.md`` names every module of the package (by its path
  below ``src/ligretto/``, e.g. ``live/table.py``), the scripts of the pages
  included (``web/static/…``);
- every file path the docs name in backticks exists, and every
  ``ligretto.…`` name they give is a module (or a name defined in one).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ligretto"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: The docs that describe the code as it is now (the CHANGELOG tells history).
DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])

SUFFIXES = (".py", ".js", ".html", ".css", ".md", ".cfg", ".toml", ".ini", ".sh", ".json", ".txt")
#: Where a path in the docs may be rooted: the checkout, the package, its web
#: folder (``static/…``, ``templates/…``), the docs folder.
BASES = (ROOT, ROOT / "src", PACKAGE, PACKAGE / "web", ROOT / "docs")
#: Spans that look like paths or module names and are neither: files the
#: server, a user or the build makes, a format's name, an address range.
NOT_PATHS = frozenset(
    {
        "ligretto.db",
        "export.json",
        "ligretto.round/1",
        "ligretto.replay/1",
        "ligretto.positions/1",
        "10.0.0.0/24",
        "src/ligretto/_compiled.json",  # written by the compiled build (setup.py)
    }
)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^[\w.-]+(?:/[\w.-]+)*/?$")
DOTTED = re.compile(r"^ligretto(?:\.\w+)+$")


def documented_modules() -> list[str]:
    modules = [
        *(path for path in PACKAGE.rglob("*.py") if path.name != "__init__.py"),
        *(PACKAGE / "web" / "static").rglob("*.js"),
    ]
    return sorted(
        str(path.relative_to(PACKAGE))
        for path in modules
        if "migrations" not in path.relative_to(PACKAGE).parts
    )


def test_architecture_names_every_module() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = [module for module in documented_modules() if module not in text]
    assert missing == [], "docs/architecture.md does not name these modules"


def spans(path: Path) -> Iterator[str]:
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield from CODE_SPAN.findall(line)


def looks_like_path(span: str) -> bool:
    if not PATH.match(span) or span.startswith(("http", "-", ".")) or "//" in span:
        return False
    return "/" in span.rstrip("/") or span.endswith(SUFFIXES)


def exists(span: str, doc: Path) -> bool:
    if "/" not in span.rstrip("/"):
        # A bare file name: somewhere in the checkout (outside the venv).
        return any(
            ".venv" not in found.parts for found in ROOT.rglob(span) if found.is_file()
        ) or any((base / span).exists() for base in (*BASES, doc.parent))
    return any((base / span).exists() for base in (*BASES, doc.parent))


def defines(module: Path, name: str) -> bool:
    """``name`` is defined in ``module``, or imported there to be handed on."""
    pattern = re.compile(
        rf"^\s*(?:async\s+def|def|class)\s+{name}\b|^\s*{name}\s*[:=]"
        rf"|^\s*from \S+ import .*\b{name}\b|^\s+{name},?\s*$",
        re.M,
    )
    return bool(pattern.search(module.read_text(encoding="utf-8")))


def resolves(dotted: str) -> bool:
    """``ligretto.live.table.Table``: a module, or a name defined in one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = PACKAGE.parent.joinpath(*parts[:cut])
        module = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if module.exists():
            rest = parts[cut:]
            return not rest or defines(module, rest[0])
    return False


def broken_references() -> Iterator[str]:
    for doc in DOCS:
        for span in spans(doc):
            name = doc.relative_to(ROOT)
            if span in NOT_PATHS:
                continue
            if DOTTED.match(span):
                if not resolves(span):
                    yield f"{name}: `{span}`"
            elif looks_like_path(span) and not exists(span, doc):
                yield f"{name}: `{span}`"


def test_every_path_the_docs_name_exists() -> None:
    assert sorted(set(broken_references())) == []


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("ligretto.rules.round", True),
        ("ligretto.rules.round.Round", True),
        ("ligretto.rules.round.NoSuchThing", False),
        ("ligretto.no_such_part", False),
    ],
)
def test_dotted_names_resolve_only_when_they_exist(span: str, expected: bool) -> None:
    assert resolves(span) is expected


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("src/ligretto/rules/round.py", True),
        ("live/table.py", True),
        ("static/js/board.js", True),
        ("src/ligretto/no/such.py", False),
        ("no_such_module.py", False),
    ],
)
def test_paths_exist_only_when_they_do(span: str, expected: bool) -> None:
    assert looks_like_path(span)
    assert exists(span, ARCHITECTURE) is expected
