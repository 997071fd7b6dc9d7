"""The examples in the rules engine's docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

# the modules whose docstrings have examples
MODULES = ["cards", "deadlock", "interning", "layout", "options", "result", "round", "snapshot"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"ligretto.rules.{name}")
    failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failures == 0
