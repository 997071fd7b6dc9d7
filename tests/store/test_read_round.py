"""Reading one round reads that round, not the whole game (and answers the same)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, event

from ligretto.store import TafelService, repository
from ligretto.tafel import NoSuchRoundError


@pytest.fixture
def statements(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements the engine runs while the test does."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    yield seen
    event.remove(engine, "before_cursor_execute", record)


def _long_game(service: TafelService, rounds: int) -> tuple[str, str]:
    created = service.create_game(["Anna", "Ben", "Cleo"], target=1000)
    gid, token = created.stored.id, created.edit_token
    for n in range(1, rounds + 1):
        stacks = [0, 1 + n % 10, 1 + (3 * n) % 10]
        service.open_round(gid, token, stacks)
        middle = [2, (n * 7) % 12, 2]
        service.complete_round(gid, token, n, middle, confirm=True)
    return gid, token


def test_one_round_answers_exactly_as_the_whole_game_does(engine: Engine) -> None:
    service = TafelService(engine)
    gid, token = _long_game(service, 12)
    service.open_round(gid, token, [3, 0, 4])  # round 13 pending
    whole = service.get_game(gid)
    rounds = whole.describe()["rounds"]
    for n in range(1, 14):
        one = service.get_round(gid, n)
        assert one.describe() == rounds[n - 1], n
        assert one.version == whole.version
    assert rounds[12]["totals"] is None and rounds[11]["totals"] is not None
    assert any(r["confirmed"] for r in rounds)


def test_reading_one_round_of_a_long_game_loads_only_that_round(
    engine: Engine, statements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TafelService(engine)
    gid, _token = _long_game(service, 150)

    def never(*_args: Any) -> None:
        raise AssertionError("every round was read")

    monkeypatch.setattr(repository, "read_rounds", never)
    statements.clear()
    one = service.get_round(gid, 75)
    # The game row, round 75's row and one aggregate that returns one row.
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 3, selects
    assert one.round.number == 75 and one.totals is not None
    monkeypatch.undo()
    assert one.describe() == service.get_game(gid).describe()["rounds"][74]


def test_a_round_that_does_not_exist_is_refused_like_before(engine: Engine) -> None:
    service = TafelService(engine)
    gid, _token = _long_game(service, 2)
    for n in (0, 3, -1, 10**30):
        with pytest.raises(NoSuchRoundError) as refused:
            service.get_round(gid, n)
        assert refused.value.message == f"there is no round {n}: the game has 2 round(s)"
