"""Whole bot games on the table actor: nothing hidden leaks, the Tafel keeps score."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from helpers.live_table import settled
from helpers.live_wire import FAST
from ligretto.live.clock import ManualClock
from ligretto.live.connection import Connection
from ligretto.live.encoder import view_dict
from ligretto.live.protocol import EventsMessage, Join, Move, Ping, ViewMessage
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.scoring.tafel import TafelScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.settings import TableSettings
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.store import TafelService, make_engine, migrate

CARD = re.compile(r"^[RGBYHDCS](10|[1-9])$")
SEAT_KEYS = {
    "seat",
    "stack_top",
    "stack_count",
    "row",
    "discard_top",
    "discard_count",
    "hand_count",
    "middle_count",
}
VIEW_KEYS = {"viewer", "players", "options", "middle", "seats", "is_over", "caller", "deadlock"}


def _top(cards: list[str]) -> str | None:
    return cards[-1] if cards else None


def _place(snap: dict[str, Any], seat: int, source: str) -> str | None:
    """The open card at ``row2``/``stack``/``discard`` of ``seat`` in the snapshot."""
    cards = snap["seats"][seat]
    if source == "stack":
        return _top(cards["stack"])
    if source == "discard":
        return _top(cards["discard"])
    return _top(cards["row"][int(source[3:])])


def check_view(view: dict[str, Any], snap: dict[str, Any]) -> None:
    """Every card in a view lies open at that very place of the real table (R3)."""
    assert set(view) == VIEW_KEYS | {"actions"}
    for shown, real in zip(view["seats"], snap["seats"], strict=True):
        assert set(shown) == SEAT_KEYS
        assert shown["stack_top"] == _top(real["stack"])
        assert shown["stack_count"] == len(real["stack"])
        assert shown["discard_top"] == _top(real["discard"])
        assert shown["discard_count"] == len(real["discard"])
        assert shown["hand_count"] == len(real["hand"])
        for cell, real_cell in zip(shown["row"], real["row"], strict=True):
            assert set(cell) == {"top", "depth"}
            assert cell["top"] == _top(real_cell) and cell["depth"] == len(real_cell)
    for pile in view["middle"]:
        assert set(pile) == {"id", "colour", "top", "count", "closed"}
        real_pile = [c["card"] for c in snap["middle"][pile["id"]]["cards"]]
        assert pile["top"] == real_pile[-1] and pile["count"] == len(real_pile)
    viewer = view["viewer"]
    for action in view["actions"]:
        assert viewer is not None, "a watcher has no actions"
        if action["kind"] in ("play", "store"):
            source = action["source"]
            place = f"row{action['slot']}" if source == "row" else source
            assert _place(snap, viewer, place) == action["card"]


def check_event(text: str, snap: dict[str, Any]) -> None:
    words = text.split()
    if not words[0].isdigit():
        assert not any(CARD.match(w) for w in words)
        return
    seat, verb, args = int(words[0]), words[1], words[2:]
    if verb in ("played", "opened"):
        pile = [c["card"] for c in snap["middle"][int(args[2][1:])]["cards"]]
        assert args[0] in pile
    elif verb == "refilled":
        assert _place(snap, seat, args[0]) == args[1]
    elif verb == "turned":
        assert _place(snap, seat, "discard") == args[1]
    elif verb == "stored":
        assert _place(snap, seat, args[2]) == args[0]
    else:
        assert not any(CARD.match(w) for w in args), text


def check_message(text: str, snap: dict[str, Any] | None) -> str:
    message = json.loads(text)
    kind: str = message["type"]
    if kind in ("view", "events"):
        assert snap is not None
        check_view(message["view"], snap)
        for event in message.get("events", []):
            check_event(event, snap)
    else:

        def strings(value: Any) -> list[str]:
            if isinstance(value, str):
                return [value]
            if isinstance(value, dict):
                return [s for v in value.values() for s in strings(v)]
            if isinstance(value, list):
                return [s for v in value for s in strings(v)]
            return []

        assert not any(CARD.match(s) for s in strings(message)), text
    return kind


class Recorder(Connection):
    """A connection that checks each message against the table at send time.

    With ``plays=True`` it also plays like a quick person: after each view
    it answers with a move chosen from its legal actions, through the same
    queue as every client.
    """

    def __init__(self, table: Table, *, plays: bool = False) -> None:
        super().__init__()
        self.table = table
        self.plays = plays
        self.kinds: list[str] = []
        self.round_overs: list[dict[str, Any]] = []
        self.refusals: list[str] = []
        self.views = 0
        self._waiting = False
        self._ref = 0

    def send(self, text: str) -> None:
        rnd = self.table.round
        self.kinds.append(check_message(text, None if rnd is None else rnd.snapshot()))
        message = json.loads(text)
        if "view" in message:
            # The table's fast encoding is exactly the documented message
            # around the engine's own view of this recipient (R3).
            assert rnd is not None
            model = EventsMessage if message["type"] == "events" else ViewMessage
            assert model.model_validate_json(text).model_dump() == message
            assert message["view"] == view_dict(rnd.view(self.seat))
            self.views += 1
        if self.kinds[-1] == "round_over":
            self.round_overs.append(message)
        elif self.kinds[-1] == "refused":
            self.refusals.append(message["code"])
        if self.plays and "view" in message and message.get("ref") in (None, self._ref):
            if message.get("ref") == self._ref:
                self._waiting = False
            if not self._waiting:
                self._play_soon(message["view"]["actions"])
        if self.plays and message.get("ref") == self._ref and self.kinds[-1] == "refused":
            self._waiting = False

    def _play_soon(self, actions: list[dict[str, Any]]) -> None:
        plays = [a for a in actions if a["kind"] != "turn"]
        choice = plays[0] if plays else (actions[0] if actions else None)
        if choice is None:
            return
        self._waiting = True
        self._ref += 1
        move = Move(type="move", action=choice["text"], ref=self._ref)
        asyncio.get_running_loop().call_later(0.003, self.table.submit, self, move)


@pytest.fixture
def tafel(tmp_path: Path) -> TafelScoreKeeper:
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    return TafelScoreKeeper(TafelService(engine))


BOTS = [("stack-first", "expert"), ("greedy", "hard"), ("watchful", "medium"), ("random", "easy")]


async def play_game(
    options: RuleOptions, players: int, end: EndCondition, scorekeeper: TafelScoreKeeper
) -> tuple[Table, Recorder, Recorder]:
    settings = dataclasses.replace(FAST, bot_pace=0.0005, seed=11)
    # Seat 0 is a quick person playing through a connection; the others
    # are bots of every strategy.
    table = Table(
        "TEST",
        seats=players,
        options=options,
        end=end,
        host_token="host-token-1234",
        host_name="Anna",
        bots=[BotSpec(seat, *BOTS[seat % len(BOTS)]) for seat in range(1, players)],
        scorekeeper=scorekeeper,
        settings=settings,
    )
    watcher = Recorder(table)
    task = table.start_task()
    person = Recorder(table, plays=True)
    table.submit(watcher, Join(type="join"))
    table.submit(person, Join(type="join", token="host-token-1234"))
    table.call(table.begin_game)
    for _ in range(3000):
        await asyncio.sleep(0.01)
        if table.phase == "game_over":
            break
    await table.stop()
    assert task.done()
    assert person.kinds.count("events") == table.moves_applied
    # Refusals a fast player meets are races and the end of the round only.
    assert set(person.refusals) <= {"pile_taken", "round_over", "not_started"}
    return table, watcher, person


@pytest.mark.parametrize(
    ("options", "players"),
    [
        (RuleOptions(), 4),
        (RuleOptions(deck="cards", row_refill="manual", recycle_shuffle=False), 3),
        (RuleOptions(row_storage=True, deadlock="reshuffle"), 2),
    ],
    ids=["defaults", "cards-manual-kept", "storage-reshuffle"],
)
def test_no_message_of_a_bot_game_carries_a_hidden_card(
    options: RuleOptions, players: int, tafel: TafelScoreKeeper
) -> None:
    table, watcher, person = asyncio.run(
        play_game(options, players, EndCondition("rounds", rounds=2), tafel)
    )
    assert table.phase == "game_over"
    assert watcher.kinds.count("round_over") == 2
    assert watcher.kinds.count("events") == table.moves_applied > 20
    # Both the seated person and the watcher got (and checked) every view.
    assert person.views == watcher.views == table.moves_applied + 2


def test_every_round_goes_onto_the_tafel_game_until_its_outcome(
    tafel: TafelScoreKeeper,
) -> None:
    table, watcher, _ = asyncio.run(
        play_game(RuleOptions(), 4, EndCondition("target", target=30), tafel)
    )
    assert table.phase == "game_over" and table.tafel_game is not None
    game = tafel.service.get_game(table.tafel_game).game
    assert game.finished
    assert len(game.rounds) == len(watcher.round_overs) >= 1
    for stored, shown in zip(game.rounds, watcher.round_overs, strict=True):
        assert list(stored.stacks) == shown["stacks"]
        assert list(stored.middle or ()) == shown["middle"]
        # R5: one point per middle card, minus two per stack card.
        assert shown["points"] == [
            m - 2 * s for m, s in zip(shown["middle"], shown["stacks"], strict=True)
        ]
    last = watcher.round_overs[-1]
    assert last["game_over"] is True
    assert last["totals"] == list(game.totals)
    assert [game.players[w] for w in last["winners"]] == list(game.winners)
    assert max(game.totals) >= 30


def anna_and_a_bot(settings: TableSettings, strategy: str, level: str) -> tuple[Table, Recorder]:
    """A running two-seat table: Anna (joined, not playing by herself) and a bot.

    The first round is on its way; call from inside the event loop.
    """
    table = Table(
        "DUET",
        seats=2,
        options=RuleOptions(),
        end=EndCondition(),
        host_token="host-token-1234",
        host_name="Anna",
        bots=[BotSpec(1, strategy, level)],
        settings=settings,
    )
    person = Recorder(table)
    table.start_task()
    table.submit(person, Join(type="join", token="host-token-1234"))
    table.call(table.begin_game)
    return table, person


def test_an_away_timer_outlives_the_round_it_was_set_in() -> None:
    """Leaving while the scores are shown: the next round must not stall."""

    async def scenario() -> tuple[bool, bool]:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, away_after=0.1, bot_pace=100.0, clock=clock)
        table, person = anna_and_a_bot(settings, "greedy", "easy")
        await settled(table)
        clock.advance(0.05)
        table.left(person)
        table.call(table.deal)  # a new round starts before the timer fires
        await settled(table)
        clock.advance(0.05)
        await settled(table)
        before = table.seats[0].away
        clock.advance(0.2)
        await settled(table)
        after = table.seats[0].away
        await table.stop()
        return before, after

    assert asyncio.run(scenario()) == (False, True)


def test_watchers_are_limited_and_the_one_too_many_is_told_so() -> None:
    from ligretto.live.seating import MAX_WATCHERS

    async def scenario() -> list[str]:
        table = Table(
            "MANY",
            seats=2,
            options=RuleOptions(),
            end=EndCondition(),
            host_token="host-token-1234",
        )
        table.start_task()
        watchers = [Recorder(table) for _ in range(MAX_WATCHERS + 1)]
        for watcher in watchers:
            table.submit(watcher, Join(type="join"))
        await settled(table)
        await table.stop()
        assert len(table.watchers) == MAX_WATCHERS
        return watchers[-1].refusals

    assert asyncio.run(scenario()) == ["table_full"]


def test_a_bot_that_loses_a_race_plans_again() -> None:
    """R3: the bot's card stays where it was and the bot looks again; it must not stall."""
    from helpers.live_wire import race_position

    async def scenario() -> list[tuple[int | None, str]]:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, bot_pace=0.05, dealer=race_position, clock=clock)
        # The bot wants R2 onto pile 0 as well.
        table, person = anna_and_a_bot(settings, "greedy", "expert")
        await settled(table)
        clock.advance()  # "Ligretto!" (no countdown in FAST)
        await settled(table)
        assert table.phase == "playing"
        table.submit(person, Move(type="move", action="play R2 row0 p0", ref=1))
        assert table.round is not None
        for _ in range(10_000):
            if any(seat == 1 for seat, _ in table.round.log):
                break
            clock.advance(0.01)
            await settled(table)
        log = [(seat, str(action)) for seat, action in table.round.log]
        await table.stop()
        return log

    log = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert log[0] == (0, "play R2 row0 p0")
    assert (1, "play R2 row0 p0") not in log  # that pile was gone: it did something else


class Outbox(Connection):
    """A connection that keeps what it was sent, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


def test_a_message_to_an_idle_table_is_handled_at_once_and_otherwise_in_order() -> None:
    """The transport's step handles a message when nothing waits before it;
    behind a waiting command it queues, so the order stays the order of
    arrival (R3)."""

    async def scenario() -> None:
        table = Table("ONCE", seats=2, options=RuleOptions(), end=EndCondition(), host_token="h")
        before_start = Outbox()
        table.submit(before_start, Ping(type="ping", t=1.0))
        assert before_start.texts == []  # no actor yet: queued for it
        table.start_task()
        await settled(table)
        assert len(before_start.texts) == 1
        idle = Outbox()
        table.submit(idle, Ping(type="ping", t=2.0))
        assert len(idle.texts) == 1 and '"pong"' in idle.texts[0]  # at once
        order: list[str] = []
        table.call(lambda: order.append("call"))  # waits in the queue
        behind = Outbox()
        table.submit(behind, Ping(type="ping", t=3.0))
        assert behind.texts == []  # behind the call, not before it
        table.call(lambda: order.append(f"after the ping: {len(behind.texts)}"))
        await settled(table)
        assert order == ["call", "after the ping: 1"]
        await table.stop()
        stopped = Outbox()
        table.submit(stopped, Ping(type="ping", t=4.0))
        assert stopped.texts == []  # the table is gone: nothing handles it

    asyncio.run(scenario())
