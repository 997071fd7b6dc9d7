"""R3 races told at an online table: who was faster, by how much, and how often.

Two people race for one pile on a table with a manual clock, so the
arrival times (and with them the margin) are exactly what the test says.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable
from typing import Any

from helpers.live_table import settled
from helpers.live_wire import FAST
from ligretto.live.clock import ManualClock
from ligretto.live.connection import Connection
from ligretto.live.protocol import Join, Move, RaceWon, RoundOver
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

HOST = "host-token-1234"


class Outbox(Connection):
    """A connection that keeps every message it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.messages.append(json.loads(text))

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.messages) if m["type"] == kind)


def dealer(stack: list[str]) -> Callable[[int, int, RuleOptions], Round]:
    """Pile 0 is R1; both seats have R2 open at row position 0 (a race, R3);
    seat 0's stack is ``stack`` (its last card on top, refilling the row)."""

    def deal(players: int, seed: int, options: RuleOptions) -> Round:
        row = [["R2"], ["B3"], ["B4"], ["B5"], ["B6"]]
        other = ["Y10", "Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "G9"]
        return Round.from_snapshot(
            {
                "players": players,
                "options": options.to_dict(),
                "seats": [{"stack": stack, "row": row}, {"stack": other, "row": row}],
                "middle": [{"id": 0, "cards": [{"card": "R1", "owner": 1}]}],
            },
            seed=seed,
            fill_hand=True,
        )

    return deal


async def playing(stack: list[str]) -> tuple[Table, ManualClock, Outbox, Outbox]:
    """Anna (seat 0, host) and Ben (seat 1) at a table whose round is on."""
    clock = ManualClock()
    settings = dataclasses.replace(FAST, dealer=dealer(stack), clock=clock)
    table = Table(
        "RACE",
        seats=2,
        options=RuleOptions(),
        end=EndCondition(),
        host_token=HOST,
        host_name="Anna",
        settings=settings,
    )
    table.start_task()
    anna, ben = Outbox(), Outbox()
    table.submit(anna, Join(type="join", token=HOST))
    table.submit(ben, Join(type="join", name="Ben"))
    table.call(table.begin_game)
    await settled(table)
    clock.advance()  # "Ligretto!" (no countdown in FAST)
    await settled(table)
    assert table.phase == "playing"
    return table, clock, anna, ben


def move(action: str, ref: int) -> Move:
    return Move(type="move", action=action, ref=ref)


def test_r3_the_loser_of_a_race_is_told_who_was_faster_and_by_how_much() -> None:
    async def scenario() -> dict[str, Any]:
        table, clock, anna, ben = await playing(["Y10", "Y9", "Y8", "R3"])
        table.submit(anna, move("play R2 row0 p0", 1))
        clock.advance(0.040)
        table.submit(ben, move("play R2 row0 p0", 2))
        await settled(table)
        await table.stop()
        assert anna.last("events")["ref"] == 1
        # The winner is told too, with the loser and the same margin.
        won = [m for m in anna.messages if m["type"] == "race_won"]
        assert won == [
            {"v": 1, "type": "race_won", "round_no": 1, "loser": 1, "name": "Ben", "margin_ms": 40}
        ]
        RaceWon.model_validate(won[0])
        assert not [m for m in ben.messages if m["type"] == "race_won"]
        return ben.last("refused")

    refused = asyncio.run(scenario())
    assert refused["code"] == "pile_taken" and refused["ref"] == 2
    assert refused["race"] == {"by": 0, "name": "Anna", "margin_ms": 40}


def test_r3_a_card_refused_after_the_pile_moved_on_twice_is_no_race() -> None:
    """Anna plays R2 and then R3: Ben's R2 would not have fitted just before
    her last play, so he was late, not beaten in a race."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        table, clock, anna, ben = await playing(["Y10", "Y9", "Y8", "R3"])
        table.submit(anna, move("play R2 row0 p0", 1))
        table.submit(anna, move("play R3 row0 p0", 2))  # the stack refilled row 0 with R3
        clock.advance(0.010)
        table.submit(ben, move("play R2 row0 p0", 3))
        await settled(table)
        late = ben.last("refused")
        table.submit(ben, move("play B3 row1 p0", 4))  # never fitted: illegal
        await settled(table)
        illegal = ben.last("refused")
        await table.stop()
        assert table.state.round.races == []  # nor in the replay
        return late, illegal

    late, illegal = asyncio.run(scenario())
    assert late["code"] == "pile_taken" and late["ref"] == 3
    assert late["race"] is None
    assert illegal["code"] == "illegal" and illegal["race"] is None


def test_r3_round_over_counts_each_seats_races_won_and_lost() -> None:
    """Ben loses one race to Anna (his second try at the same card counts
    once); Anna's last stack card then ends the round (R4)."""

    async def scenario() -> tuple[dict[str, Any], Table]:
        table, clock, anna, ben = await playing(["Y10", "R3"])
        table.submit(anna, move("play R2 row0 p0", 1))
        clock.advance(0.025)
        table.submit(ben, move("play R2 row0 p0", 2))
        table.submit(ben, move("play R2 row0 p0", 3))
        table.submit(anna, move("play R3 row0 p0", 4))  # her stack empties: Ligretto Stop
        await settled(table)
        await table.stop()
        # Ben's second try at the same card is the same race: Anna hears of it once.
        assert [m["margin_ms"] for m in anna.messages if m["type"] == "race_won"] == [25]
        return ben.last("round_over"), table

    over, table = asyncio.run(scenario())
    RoundOver.model_validate(over)
    assert over["caller"] == 0
    assert over["races"] == {"won": [1, 0], "lost": [0, 1]}
    assert over["game_races"] == {"won": [1, 0], "lost": [0, 1]}
    assert table.state.game.races_won == [1, 0]
    # The replay keeps the same race, once, with the margin the refusal told.
    assert table.state.round.races == [
        {
            "t_ms": 25,
            "seat": 1,
            "action": "play R2 row0 p0",
            "refused_by_seat": 0,
            "margin_ms": 25,
        }
    ]


def test_a_round_without_races_counts_zero_for_every_seat() -> None:
    async def scenario() -> dict[str, Any]:
        table, _clock, anna, _ben = await playing(["Y10", "R3"])
        table.submit(anna, move("play R2 row0 p0", 1))
        table.submit(anna, move("play R3 row0 p0", 2))
        await settled(table)
        await table.stop()
        return anna.last("round_over")

    over = asyncio.run(scenario())
    assert over["races"] == {"won": [0, 0], "lost": [0, 0]}
    assert over["game_races"] == {"won": [0, 0], "lost": [0, 0]}
