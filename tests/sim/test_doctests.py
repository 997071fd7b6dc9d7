"""The examples in the bots' and the simulator's docstrings run as tests."""

import doctest
import importlib

import pytest

MODULES = [
    "ligretto.bots",
    "ligretto.bots.bot",
    "ligretto.sim.seeds",
    "ligretto.sim.run",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
