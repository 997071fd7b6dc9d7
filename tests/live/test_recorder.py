"""A round reaches the Tafel game even when the database is busy for a moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

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
