"""R2: an online table's deals cannot be foreseen from the deals before them.

Each deal's seed is kept (and published with the round's replay). Drawn
from the table's own generator, a Mersenne Twister, enough published seeds
would give away the generator's state and so the next deals; a table now
draws each deal's seed from the operating system's secrets. A table whose
settings fix a seed (the tests) still deals the same rounds every run.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from helpers.live_wire import FAST, started_two_player_table
from ligretto.live.settings import TableSettings
from ligretto.rules import Round, RuleOptions


def _recording(seen: list[int]) -> Callable[[int, int, RuleOptions], Round]:
    def dealer(players: int, seed: int, options: RuleOptions) -> Round:
        seen.append(seed)
        return Round.deal(players, seed, options)

    return dealer


def test_r2_a_deal_is_seeded_from_secrets_not_from_the_tables_generator(
    make_client: Callable[[TableSettings], TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []

    def randbits(bits: int) -> int:
        assert bits == 63
        drawn.append(4_242_424_242 + len(drawn))
        return drawn[-1]

    monkeypatch.setattr("ligretto.live.lifecycle.secrets.randbits", randbits)
    seen: list[int] = []
    client = make_client(dataclasses.replace(FAST, seed=None, dealer=_recording(seen)))
    _table, anna, ben, _ = started_two_player_table(client)
    anna.__exit__(None, None, None)
    ben.__exit__(None, None, None)
    assert seen and seen == drawn[: len(seen)]


def test_r2_a_table_with_a_fixed_seed_deals_the_same_rounds(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    seen: list[int] = []
    client = make_client(dataclasses.replace(FAST, dealer=_recording(seen)))
    _table, anna, ben, _ = started_two_player_table(client)
    anna.__exit__(None, None, None)
    ben.__exit__(None, None, None)
    assert FAST.seed is not None
    assert seen[0] == random.Random(FAST.seed).getrandbits(63)
