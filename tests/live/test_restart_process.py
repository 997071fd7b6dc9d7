"""Tables outlive the server process (issue 11; docs/online-play.md, "Tables
outlive the server"; docs/protocol.md, "After a server restart").

Each test runs ``ligretto serve`` as a real process, opens a table through
the JSON API — Anna (the host, seat 0), Ben (joins by name, seat 1) and an
``easy`` bot (seat 2), a game of two agreed rounds — and plays through the
WebSocket protocol with a real client: the people send the first legal
action of their newest view, one at a time. Every view a seat receives is
kept by ``(round_no, seq)``. Then the server is stopped (SIGTERM) or killed
(SIGKILL) and started again on the same data, and the seats come back with
their newest seat tokens.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from helpers.live_client import MOVES_PER_SECOND, Person, api
from helpers.logged_server import LoggedServer, running
from ligretto.live.journal import INTERVAL

# The compiled pass only: what a process of its own adds (signals, the
# journal's files, a restart) is no compiled code, and restoring a table
# from its journal is tested in both builds in-process (test_race_restart).
pytestmark = [pytest.mark.slow, pytest.mark.server_process]

END = {"mode": "rounds", "rounds": 2}
# An easy bot: at least a third of a second between two of its moves
# (bots/timing.py), so the people can leave right after one of them.
BOT = {"seat": 2, "strategy": "stack-first", "level": "easy"}
BOT_SEAT = 2
# A round is far from over after this many of the people's moves (a stack
# of ten cards needs ten plays by one person).
MID_ROUND = 14


@dataclass
class Game:
    server: LoggedServer
    code: str
    anna: Person
    ben: Person

    @property
    def people(self) -> tuple[Person, Person]:
        return (self.anna, self.ben)

    def info(self) -> tuple[int, Any]:
        return api("GET", f"{self.server.url}/api/tables/{self.code}")


def started_game(server: LoggedServer) -> Game:
    status, created = api(
        "POST",
        f"{server.url}/api/tables",
        {"seats": 3, "name": "Anna", "end": END, "bots": [BOT]},
    )
    assert status == 201, created
    anna = Person(created["ws_url"], "Anna")
    anna.host_token = created["host_token"]
    welcome = anna.join(host_token=created["host_token"])
    assert (welcome["type"], welcome["seat"], welcome["host"]) == ("welcome", 0, True)
    ben = Person(created["ws_url"], "Ben")
    welcome = ben.join(name="Ben")
    assert (welcome["type"], welcome["seat"]) == ("welcome", 1)
    anna.send("start")
    game = Game(server, created["code"], anna, ben)
    for person in game.people:
        person.wait_for_phase("playing")
    return game


def play(game: Game, round_no: int, moves: int | None = None) -> int:
    """The people move in turn until ``moves`` of theirs were accepted (the
    last answer is in: nothing is in flight) or round ``round_no`` is over."""
    accepted = 0
    while moves is None or accepted < moves:
        if any(round_no in p.round_over for p in game.people):
            break
        moved = False
        for person in game.people:
            if person.move():
                accepted += 1
                moved = True
                if moves is not None and accepted >= moves:
                    break
        if not moved:
            for person in game.people:
                person.receive(0.05)
    return accepted


def play_to_end(game: Game) -> list[dict[str, Any]]:
    """Play on until ``game_over``; the host starts each next round at once.
    Returns the host's ``round_over`` messages in order."""
    anna = game.anna
    while True:
        round_no = int(anna.table["round_no"])
        for person in game.people:
            person.wait_for_phase("playing", timeout=20)
        play(game, round_no)
        over = anna.round_over.get(round_no) or anna.receive_until("round_over", timeout=20)
        if over["game_over"]:
            return [anna.round_over[n] for n in sorted(anna.round_over)]
        anna.send("start")
        for person in game.people:
            deadline = time.monotonic() + 20
            while int(person.table.get("round_no", 0)) <= round_no:
                assert time.monotonic() < deadline, f"{person.name}: no round {round_no + 1}"
                person.receive(0.1)


def leave_after_a_bot_move(game: Game) -> tuple[int, int]:
    """Wait for the bot's next move, then both people disconnect at once
    (the bot's next move is a third of a second away at least; with nobody
    connected the bots pause). Returns the newest (round_no, seq)."""
    anna, ben = game.people
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline, "the bot made no move"
        message = anna.receive(0.5)
        if message is not None and message["type"] == "events" and message["seat"] == BOT_SEAT:
            break
    while ben.newest < anna.newest:
        assert time.monotonic() < deadline, "Ben did not see the bot's move"
        ben.receive(0.5)
    ben.close()
    anna.close()
    assert ben.newest == anna.newest
    deadline = time.monotonic() + 10
    while True:  # the server has seen both go
        status, info = game.info()
        assert status == 200, info
        if not any(seat["connected"] for seat in info["seats"] if seat["kind"] == "human"):
            return anna.newest
        assert time.monotonic() < deadline, "the server still counts a connection"
        time.sleep(0.05)


def rejoin_after_restart(person: Person) -> tuple[tuple[int, int], dict[str, Any]]:
    """Take the seat again with the newest token; the first view's key and view."""
    old_token = person.token
    welcome = person.rejoin()
    assert welcome["type"] == "welcome", welcome
    assert welcome["seat"] == (0 if person.name == "Anna" else 1)
    assert welcome["token"] not in (None, old_token)  # a fresh token, as on every join
    if person.name == "Anna":
        assert welcome["host"] is True
    first = person.receive_until("view")
    return (first["round_no"], first["seq"]), first["view"]


def assert_resumes(game: Game) -> None:
    """Both seats got a ``countdown`` with ``resume: true``; then the round plays on."""
    for person in game.people:
        countdowns = [m for m in person.received if m["type"] == "countdown"]
        if not countdowns:
            countdowns = [person.receive_until("countdown")]
        assert all(m["resume"] is True for m in countdowns), countdowns
        assert {m["round_no"] for m in countdowns} == {game.anna.newest[0]}
    for person in game.people:
        person.wait_for_phase("playing")
        assert person.table["resuming"] is False


def assert_on_the_tafel(game: Game, rounds: list[dict[str, Any]]) -> None:
    """Every round played is on the table's Tafel game, and the game is decided."""
    assert [r["round_no"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) >= 2
    tafel_game = game.anna.table["tafel_game"]
    status, body = api("GET", f"{game.server.url}/api/games/{tafel_game}")
    assert status == 200, body
    assert body["rounds_count"] == len(rounds)
    assert [r["n"] for r in body["rounds"]] == [r["round_no"] for r in rounds]
    assert all(r["complete"] for r in body["rounds"])
    assert body["finished"] is True
    assert body["totals"] == dict(zip(body["players"], rounds[-1]["totals"], strict=True))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoggedServer]:
    yield from running(tmp_path)


@pytest.fixture
def server_on(database_url: str, tmp_path: Path) -> Iterator[LoggedServer]:
    """On SQLite and on PostgreSQL (a fresh schema; ``database_url`` in tests/conftest.py)."""
    yield from running(tmp_path, database_url=database_url)


def test_sigterm_mid_round_loses_nothing_and_the_game_plays_to_its_end(
    server_on: LoggedServer,
) -> None:
    """A graceful stop writes everything: after the restart the code
    answers, the newest seat tokens (and the host token) take the seats
    again, the round comes back in a ``resume`` countdown, and each seat's
    first view is exactly the last one it saw before the stop."""
    game = started_game(server_on)
    assert play(game, 1, MID_ROUND) == MID_ROUND
    last = leave_after_a_bot_move(game)
    seen = {p.name: dict(p.views) for p in game.people}
    assert last[0] == 1

    server_on.stop()
    server_on.start()

    status, info = game.info()
    assert status == 200, info
    assert (info["phase"], info["resuming"], info["round_no"]) == ("countdown", True, 1)
    for person in game.people:
        key, view = rejoin_after_restart(person)
        assert key == last
        assert view == seen[person.name][last]
    assert_resumes(game)
    assert_on_the_tafel(game, play_to_end(game))


# Moves per second at this table at most: the two people's pace
# (MOVES_PER_SECOND each, one move in flight) and the easy bot's (its
# quickest moves are a third of a second apart: 3 a second).
MOVE_RATE = 2 * MOVES_PER_SECOND + 3
# What the journal has not written yet when the process dies: what was
# noted since the last batch was taken — one INTERVAL — plus the batch
# that is being written (written in WRITE_ALLOWANCE at most here, twice:
# the one before it delays when the next is taken).
WRITE_ALLOWANCE = 0.1
LOSS_BOUND = math.ceil(MOVE_RATE * (INTERVAL + 2 * WRITE_ALLOWANCE))


def test_sigkill_while_moves_flow_loses_at_most_the_unwritten_batch(
    server: LoggedServer,
) -> None:
    """A crash loses at most what the journal had not written: after
    SIGKILL mid-round, each seat's restored ``seq`` is at most the last one
    it saw, its restored view is exactly the view it saw at that ``seq``,
    and at most LOSS_BOUND moves are lost: at MOVE_RATE moves a second
    (two people at MOVES_PER_SECOND = 16, the easy bot at 3) that is
    ceil(35 * (0.05 + 2 * 0.1)) = 9 moves — one 50 ms interval of the
    journal plus a batch in flight, each write allowed 100 ms."""
    game = started_game(server)
    assert play(game, 1, MID_ROUND) == MID_ROUND  # the last answer is in
    server.kill()
    for person in game.people:
        person.drain_until_closed()
    last = {p.name: p.newest for p in game.people}
    seen = {p.name: dict(p.views) for p in game.people}
    assert last["Anna"][0] == last["Ben"][0] == 1

    server.start()

    status, info = game.info()
    assert status == 200, info
    assert (info["phase"], info["resuming"]) == ("countdown", True)
    restored = []
    for person in game.people:
        key, view = rejoin_after_restart(person)
        assert key[0] == 1
        assert key <= last[person.name]
        assert view == seen[person.name][key]
        lost = last[person.name][1] - key[1]
        assert 0 <= lost <= LOSS_BOUND == 9, (lost, LOSS_BOUND)
        restored.append(key)
    assert restored[0] == restored[1]  # nothing moves in the countdown
    assert_resumes(game)
    assert_on_the_tafel(game, play_to_end(game))


def test_a_table_that_cannot_be_restored_is_closed_and_keeps_its_rounds(
    server: LoggedServer,
) -> None:
    """A stored state of another format (99) is not restored wrong: joining
    is refused with ``table_closed`` and the socket closes with 4410; the
    table page answers 410 and says it could not be restored; its Tafel
    game keeps the round that was finished."""
    game = started_game(server)
    play(game, 1)
    over = game.anna.round_over.get(1) or game.anna.receive_until("round_over", timeout=20)
    assert over["game_over"] is False
    game.anna.send("start")
    for person in game.people:
        deadline = time.monotonic() + 20
        while person.table.get("round_no") != 2 or person.phase != "playing":
            assert time.monotonic() < deadline
            person.receive(0.1)
    play(game, 2, 4)
    tafel_game = game.anna.table["tafel_game"]
    leave_after_a_bot_move(game)
    server.stop()

    database = sqlite3.connect(server.data_dir / "ligretto.db")
    with database:
        (state,) = database.execute(
            "SELECT state FROM live_tables WHERE code = ?", (game.code,)
        ).fetchone()
        changed = json.loads(state)
        assert changed["format"] == 1
        changed["format"] = 99
        database.execute(
            "UPDATE live_tables SET state = ? WHERE code = ?", (json.dumps(changed), game.code)
        )
    database.close()
    server.start()

    refused = game.anna.rejoin()
    assert (refused["type"], refused["code"]) == ("refused", "table_closed")
    assert "could not be restored" in refused["reason"]
    assert game.anna.drain_until_closed() == 4410
    status, page = api("GET", f"{server.url}/play/{game.code}")
    assert status == 410
    assert "could not be restored" in page
    assert api("GET", f"{server.url}/api/tables/{game.code}")[0] == 404
    status, body = api("GET", f"{server.url}/api/games/{tafel_game}")
    assert status == 200, body
    assert body["rounds_count"] == 1
    assert body["rounds"][0]["complete"] is True
