"""The R4 helpers and the snapshot format stand below the round: they never import it.

``rules/round.py`` imports ``deadlock.py`` and ``snapshot.py``; an import
back (even one only for type checking) would make a circle, and with it a
way to reach into the round's private state. Read from the sources with
``ast``, so it holds for the compiled build too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ligretto.rules

RULES = Path(ligretto.rules.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (functions, ``TYPE_CHECKING``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.add(base)
            # ``from ligretto.rules import round`` names the module too.
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("module", ["deadlock.py", "snapshot.py"])
def test_module_does_not_import_the_round(module: str) -> None:
    imports = imported_modules(RULES / module)
    assert imports  # the file was read
    bad = {name for name in imports if name.endswith(".round")}
    assert not bad, f"rules/{module} imports {sorted(bad)}"
    # ``from ligretto.rules import Round`` reaches the round through the package.
    assert "ligretto.rules.Round" not in imports and ".Round" not in imports


def test_the_check_sees_an_import_of_the_round(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from ligretto.rules.round import Round\n",
        encoding="utf-8",
    )
    assert "ligretto.rules.round" in imported_modules(source)
