"""The examples in the bots' and the simulator's docstrings run as tests."""

import pytest

from helpers.doctests import run_examples

MODULES = [
    "ligretto.bots",
    "ligretto.bots.bot",
    "ligretto.bots.timing",
    "ligretto.sim.decks",
    "ligretto.sim.house",
    "ligretto.sim.seeds",
    "ligretto.simulate.run",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = run_examples(name)
    assert result.attempted > 0 and result.failed == 0
