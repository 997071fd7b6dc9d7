"""A round reaches the Tafel game even when the database is busy for a moment."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ligretto.live import recorder as recorder_module
from ligretto.live.recorder import TafelRecorder
from ligretto.live.scorekeeping import EndCondition, Standing
from ligretto.live.tafel_link import TafelScoreKeeper
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.store import TafelService, make_engine, migrate
from ligretto.store.errors import StoreBusyError


class BusyOnce(TafelScoreKeeper):
    """The first write of a round finds the database busy."""

    failed = 0

    def record_round(
        self, game_id: str, token: str, stacks: list[int], middle: list[int], *, number: int
    ) -> Standing:
        if not self.failed:
            self.failed += 1
            raise StoreBusyError()
        return super().record_round(game_id, token, stacks, middle, number=number)


def test_a_busy_database_delays_a_round_but_does_not_lose_it(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    keeper = BusyOnce(TafelService(engine))

    opened: list[str] = []

    async def scenario() -> list[Standing | None]:
        answers: list[Standing | None] = []
        recorder = TafelRecorder(keeper, "TEST", lambda fn: fn())
        recorder.open_game(
            ["Anna", "Ben"], EndCondition(), RuleOptions(), lambda game, _token: opened.append(game)
        )
        rnd = Round.deal(2, 5)
        rnd.settle_stuck()
        for number in (1, 1):  # the second call is a repeat: not entered twice
            recorder.record(1, rnd.result(), answers.append, number=number)
            await recorder.settle(10.0)
        return answers

    answers = asyncio.run(scenario())
    assert keeper.failed == 1
    assert all(a is not None for a in answers)
    assert answers[0] == answers[1]
    assert keeper.service.get_game(opened[0]).game.complete_rounds == 1


class BusyWhileOpening(TafelScoreKeeper):
    """Opening the game finds the database busy twice (many tables open at once)."""

    failed = 0

    def create_game(self, *args: Any, **kwargs: Any) -> tuple[str, str]:
        if self.failed < 2:
            self.failed += 1
            raise StoreBusyError()
        return super().create_game(*args, **kwargs)


def test_a_game_that_could_not_open_at_once_opens_later_and_gets_its_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder_module, "RETRY_PAUSES", (0.01, 0.01))
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    keeper = BusyWhileOpening(TafelService(engine))
    opened: list[str] = []

    async def scenario() -> Standing | None:
        answers: list[Standing | None] = []
        recorder = TafelRecorder(keeper, "TEST", lambda fn: fn())
        recorder.open_game(
            ["Anna", "Ben"], EndCondition(), RuleOptions(), lambda game, _token: opened.append(game)
        )
        rnd = Round.deal(2, 5)
        rnd.settle_stuck()
        recorder.record(1, rnd.result(), answers.append, number=1)
        await recorder.settle(10.0)
        return answers[0]

    standing = asyncio.run(scenario())
    assert keeper.failed == 2
    assert standing is not None
    assert len(opened) == 1
    assert keeper.service.get_game(opened[0]).game.complete_rounds == 1


class AlwaysBusy(TafelScoreKeeper):
    def create_game(self, *args: Any, **kwargs: Any) -> tuple[str, str]:
        raise StoreBusyError()


def test_a_game_that_never_opens_gives_the_round_no_standing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder_module, "RETRY_PAUSES", (0.01, 0.01))
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    keeper = AlwaysBusy(TafelService(engine))

    async def scenario() -> list[Standing | None]:
        answers: list[Standing | None] = []
        recorder = TafelRecorder(keeper, "TEST", lambda fn: fn())
        recorder.open_game(["Anna", "Ben"], EndCondition(), RuleOptions(), lambda *_: None)
        rnd = Round.deal(2, 5)
        rnd.settle_stuck()
        recorder.record(1, rnd.result(), answers.append, number=1)
        await recorder.settle(10.0)
        return answers

    assert asyncio.run(scenario()) == [None]  # the round is still shown, without a board
