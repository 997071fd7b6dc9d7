"""The examples in the Tafel's docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

# the modules whose docstrings have examples
MODULES = ["game", "groups", "limits", "names", "outcome"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"ligretto.tafel.{name}")
    failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failures == 0
