"""The examples in the rules engine's docstrings are true."""

from __future__ import annotations

import doctest

import pytest

from helpers.doctests import run_examples

# the modules whose docstrings have examples
MODULES = [
    "cards",
    "deadlock",
    "interning",
    "layout",
    "options",
    "result",
    "round",
    "snapshot",
    "values",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failures, attempted = run_examples(f"ligretto.rules.{name}", optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failures == 0
