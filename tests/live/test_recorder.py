"""A round reaches the Tafel game even when the database is busy for a moment."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ligretto.live.scoring import recorder as recorder_module
from ligretto.live.scoring.keeper import EndCondition, Standing
from ligretto.live.scoring.recorder import TafelRecorder
from ligretto.live.scoring.tafel import TafelScoreKeeper
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


class BusyWhileOpening(TafelScoreKeeper):
    """Opening the game finds the database busy twice (many tables open at once)."""

    failed = 0

    def create_game(self, *args: Any, **kwargs: Any) -> tuple[str, str]:
        if self.failed < 2:
            self.failed += 1
            raise StoreBusyError()
        return super().create_game(*args, **kwargs)


class BusyThroughTheOpening(TafelScoreKeeper):
    """Opening the game finds the database busy at every try the table
    makes as it begins; it is free again by the end of the first round."""

    failed = 0

    def create_game(self, *args: Any, **kwargs: Any) -> tuple[str, str]:
        if self.failed < 1 + len(recorder_module.RETRY_PAUSES):
            self.failed += 1
            raise StoreBusyError()
        return super().create_game(*args, **kwargs)


class BrokenWhileOpening(TafelScoreKeeper):
    """Opening the game fails in a way that may have written it."""

    tries = 0

    def create_game(self, *args: Any, **kwargs: Any) -> tuple[str, str]:
        self.tries += 1
        raise OSError("connection lost")


class AlwaysBusy(TafelScoreKeeper):
    def create_game(self, *args: Any, **kwargs: Any) -> tuple[str, str]:
        raise StoreBusyError()


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TafelService:
    """A Tafel on SQLite, and the recorder's pauses before trying again cut short."""
    monkeypatch.setattr(recorder_module, "RETRY_PAUSES", (0.01, 0.01))
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    return TafelService(engine)


def _record(
    keeper: TafelScoreKeeper, opened: list[str], numbers: tuple[int, ...] = (1,)
) -> list[Standing | None]:
    """Open a game for a table, record one round as each of ``numbers``
    (a number again is a repeat); the Tafel's answers."""

    async def scenario() -> list[Standing | None]:
        answers: list[Standing | None] = []
        recorder = TafelRecorder(keeper, "TEST", lambda fn: fn())
        recorder.open_game(
            ["Anna", "Ben"], EndCondition(), RuleOptions(), lambda game, _token: opened.append(game)
        )
        rnd = Round.deal(2, 5)
        rnd.settle_stuck()
        for number in numbers:
            recorder.record(1, rnd.result(), answers.append, number=number)
            await recorder.settle(10.0)
        return answers

    return asyncio.run(scenario())


def test_a_busy_database_delays_a_round_but_does_not_lose_it(service: TafelService) -> None:
    keeper = BusyOnce(service)
    opened: list[str] = []
    answers = _record(keeper, opened, (1, 1))  # the second is a repeat: not entered twice
    assert keeper.failed == 1
    assert all(a is not None for a in answers)
    assert answers[0] == answers[1]
    assert service.get_game(opened[0]).game.complete_rounds == 1


@pytest.mark.parametrize(
    ("keeper_class", "failures"),
    # Busy at two tries, then free; busy at every try as the table began,
    # so the end of the first round opens the game.
    [(BusyWhileOpening, 2), (BusyThroughTheOpening, 3)],
)
def test_a_game_that_could_not_open_at_once_opens_later_and_gets_its_rounds(
    service: TafelService,
    keeper_class: type[BusyWhileOpening | BusyThroughTheOpening],
    failures: int,
) -> None:
    keeper = keeper_class(service)
    opened: list[str] = []
    answers = _record(keeper, opened, (1, 2))
    assert keeper.failed == failures
    assert all(a is not None for a in answers)
    assert len(opened) == 1  # one game, both rounds on it
    assert service.get_game(opened[0]).game.complete_rounds == 2


def test_a_game_that_never_opens_gives_the_round_no_standing(service: TafelService) -> None:
    opened: list[str] = []
    # The rounds are still shown, without a board; each round's end tried again.
    assert _record(AlwaysBusy(service), opened, (1, 2)) == [None, None]
    assert opened == []


def test_a_game_whose_opening_may_have_been_written_is_not_opened_twice(
    service: TafelService,
) -> None:
    keeper = BrokenWhileOpening(service)
    opened: list[str] = []
    assert _record(keeper, opened, (1, 2)) == [None, None]
    assert keeper.tries == 1
    assert opened == []
