"""Replays end to end on a real ``ligretto serve`` (issue 30, "Done when").

Anna (the host) and Ben play over their own WebSockets, as clients that
decide from the view they were sent, beside two of the server's bots, a
game of two rounds.  Until they have raced, they keep their cards and only
turn their hands while the bots build the middle; once (in round 1, or in
round 2 if the deal gave no chance before), when Anna and Ben can both play
the same card (colour and number) onto the same pile, both send it at once:
the one that arrives second loses the race (R3) and is told by whom and
by how many ms.  Checked: a round being played is never served; both
rounds are kept, and each replay document rebuilds the round
(``Round.replay``) to the result the Tafel game scored; the replay page
steps through the race's round at phone size in de, en and nb and shows the race
with its margin; the Tafel board links each round to its replay.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import websockets
from playwright.sync_api import expect

from helpers.browser import LOCALES, PHONES, NewPage, Shoot
from ligretto.bots import make_bot
from ligretto.live.client import view_from_dict
from ligretto.rules.actions import Play
from ligretto.rules.replay_file import replay_round
from ligretto.rules.view import TableView
from ligretto.serve_process import ServeProcess

pytestmark = pytest.mark.slow

#: How long the two rounds may take, with the server's own timing (a
#: countdown, the scores shown between the rounds).
GAME_LIMIT = 240.0
HOLD_S = 5.0
"""How long Anna and Ben only turn cards while the middle stands still."""


@dataclass
class Seat:
    """One person's WebSocket: the latest view, and what the server said."""

    ws: Any
    seat: int | None = None
    view: TableView | None = None
    playing: bool = False
    ref: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    round_over: list[dict[str, Any]] = field(default_factory=list)
    tafel_game: str | None = None

    async def send(self, kind: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"v": 1, "type": kind, **fields}))

    async def move(self, action: str) -> None:
        self.ref += 1
        await self.send("move", action=action, ref=self.ref)

    async def read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "welcome":
                self.seat = message["seat"]
                self.tafel_game = message["table"]["tafel_game"]
            elif kind == "table":
                self.playing = message["table"]["phase"] == "playing"
                self.tafel_game = message["table"]["tafel_game"] or self.tafel_game
            elif kind == "refused":
                self.refused.append(message)
            elif kind == "round_over":
                self.playing = False
                self.view = None
                self.round_over.append(message)
            if "view" in message and message["view"] is not None:
                self.view = view_from_dict(message["view"])


@dataclass
class Played:
    """What the game left behind, for the checks."""

    base: str
    code: str
    tafel_game: str
    refused_while_playing: tuple[int, dict[str, Any]]
    page_while_playing: int
    race: dict[str, Any] | None
    race_round: int
    round_overs: list[dict[str, Any]]


def same_play(a: TableView, b: TableView) -> tuple[Play, Play] | None:
    """A play both seats can make: the same card onto the same open pile."""
    for mine in a.plays:
        if mine.pile is None:
            continue
        for theirs in b.plays:
            if theirs.pile == mine.pile and theirs.card == mine.card:
                return mine, theirs
    return None


async def play_game(base: str) -> Played:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        opened = await http.post(
            "/api/tables",
            json={
                "seats": 4,
                "name": "Anna",
                "bots": [
                    {"seat": 2, "strategy": "greedy", "level": "expert"},
                    {"seat": 3, "strategy": "stack-first", "level": "expert"},
                ],
                "end": {"mode": "rounds", "rounds": 2},
            },
        )
        assert opened.status_code == 201, opened.text
        code, host = opened.json()["code"], opened.json()["host_token"]
        ws_url = f"ws{base[4:]}/play/{code}/ws"
        async with (
            websockets.connect(ws_url) as anna_ws,
            websockets.connect(ws_url) as ben_ws,
        ):
            anna, ben = Seat(anna_ws), Seat(ben_ws)
            readers = [asyncio.create_task(s.read()) for s in (anna, ben)]
            await anna.send("join", host_token=host)
            await ben.send("join", name="Ben")
            while anna.seat is None or ben.seat is None:
                await asyncio.sleep(0.05)
            await anna.send("start")
            bots = {id(anna): make_bot("watchful", "expert"), id(ben): make_bot("greedy", "hard")}
            rng = random.Random(30)
            refused_while_playing: tuple[int, dict[str, Any]] | None = None
            page_while_playing = 0
            race: dict[str, Any] | None = None
            race_round = 0
            loop = asyncio.get_running_loop()
            deadline = loop.time() + GAME_LIMIT
            last_middle = [0, loop.time()]  # the middle's card count, and since when
            rounds_begun = 1
            while not (anna.round_over and anna.round_over[-1]["game_over"]):
                assert loop.time() < deadline, "the game did not end in time"
                await asyncio.sleep(0.1)  # ten moves a second at most: within the rate limit
                if len(anna.round_over) == rounds_begun:
                    # The host starts the next round at once (the "start"
                    # after a round), without the pause between rounds.
                    await anna.send("start")
                    rounds_begun += 1
                if not (anna.playing and anna.view and ben.view):
                    continue
                if refused_while_playing is None:
                    # R3 hidden information: a round being played is never served.
                    answer = await http.get(f"/api/tables/{code}/rounds/1/replay")
                    refused_while_playing = (answer.status_code, answer.json())
                    page = await http.get(f"/play/{code}/rounds/1/replay")
                    page_while_playing = page.status_code
                if race is None:
                    # Round 1 mostly; should the deal give Anna and Ben no
                    # card in common there, round 2 (the game is two rounds).
                    both = same_play(anna.view, ben.view)
                    if both is not None:
                        # Both send the same card to the same pile at once:
                        # the server takes them in arrival order (R3).
                        await asyncio.gather(anna.move(str(both[0])), ben.move(str(both[1])))
                        for _ in range(40):
                            told = [r for s in (anna, ben) for r in s.refused if r.get("race")]
                            if told:
                                race, race_round = told[0], len(anna.round_over) + 1
                                break
                            await asyncio.sleep(0.05)
                        # Else a bot took the pile first: the next chance, then.
                        continue
                # Until the race, Anna and Ben keep their cards and only turn
                # their hands, so that the same card comes up in both while
                # the bots open and build the piles; should the middle stand
                # still (the bots stuck), they play too, so the round ends.
                middle = sum(pile.count for pile in anna.view.middle)
                if middle != last_middle[0]:
                    last_middle[:] = [middle, loop.time()]
                holding = race is None and loop.time() - last_middle[1] < HOLD_S
                for seat in (anna, ben):
                    if seat.view is not None and seat.playing:
                        if holding:
                            action = seat.view.turn_or_recycle()
                        else:
                            action = bots[id(seat)].strategy.choose(seat.view, rng)
                        if action is not None:
                            await seat.move(str(action))
            for reader in readers:
                reader.cancel()
        assert refused_while_playing is not None and anna.tafel_game is not None
        return Played(
            base,
            code,
            anna.tafel_game,
            refused_while_playing,
            page_while_playing,
            race,
            race_round,
            anna.round_over,
        )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    data = tmp_path_factory.mktemp("serve-replays")
    server = ServeProcess(data / "data", log=data / "server.log")
    try:
        base = server.start()
        yield asyncio.run(play_game(base))
    finally:
        server.stop()


def test_a_served_game_keeps_both_rounds_and_each_replay_rebuilds_its_score(
    played: Played,
) -> None:
    status, body = played.refused_while_playing
    assert (status, body["code"]) == (409, "round_not_finished")
    assert played.page_while_playing == 409
    assert [m["replay"] for m in played.round_overs] == [1, 2]
    with httpx.Client(base_url=played.base, timeout=30) as http:
        assert http.get(f"/api/tables/{played.code}/rounds").json() == {"rounds": [1, 2]}
        game = http.get(f"/api/games/{played.tafel_game}").json()
        for n, over in zip((1, 2), played.round_overs, strict=True):
            doc = http.get(f"/api/tables/{played.code}/rounds/{n}/replay").json()
            result = replay_round(doc).result()  # Round.replay of the kept log
            assert result.to_dict() == doc["result"]
            assert [s.stack for s in result.seats] == over["stacks"]
            assert [s.middle for s in result.seats] == over["middle"]
            scored = game["rounds"][n - 1]
            # The board's round, by player in seating order (T2, T3).
            assert list(scored["stacks"].values()) == over["stacks"]
            assert list(scored["middle"].values()) == over["middle"]
            assert doc["tafel_round"] == n
        board = http.get(f"/g/{played.tafel_game}").text
    for n in (1, 2):
        assert f'href="/play/{played.code}/rounds/{n}/replay"' in board


def test_the_race_is_told_to_its_loser_and_kept_in_its_round(played: Played) -> None:
    race = played.race
    assert race is not None and race["code"] == "pile_taken"
    told = race["race"]
    assert told["name"] in ("Anna", "Ben") and told["margin_ms"] >= 0
    with httpx.Client(base_url=played.base, timeout=30) as http:
        doc = http.get(f"/api/tables/{played.code}/rounds/{played.race_round}/replay").json()
    kept = [r for r in doc["races"] if r["action"] == race["action"]]
    assert kept and kept[0]["refused_by_seat"] == told["by"]
    assert kept[0]["margin_ms"] == told["margin_ms"]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_replay_page_steps_through_the_races_round_and_shows_it(
    played: Played, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    assert played.race is not None
    margin = played.race["race"]["margin_ms"]
    page = new_page(PHONES["360"], locale=LOCALES[lang])
    page.goto(f"{played.base}/play/{played.code}/rounds/{played.race_round}/replay?lang={lang}")
    root = page.locator("#replay")
    expect(root).to_have_attribute("data-ready", "1")
    expect(root).to_have_attribute("data-position", "0")
    page.locator("#replay-step").click()
    expect(root).to_have_attribute("data-position", "1")
    # Play by play to the one Anna and Ben raced for (the bots may have
    # lost races before): its line names both and the margin.
    race_line = page.locator("#replay-race")
    # (A tie, 0 ms, is told without a margin.)
    told = re.compile(rf"(Anna.*Ben|Ben.*Anna).*\b{margin} ms" if margin else "Anna.*Ben|Ben.*Anna")
    for _ in range(400):
        if race_line.is_visible() and told.search(race_line.inner_text()):
            break
        page.locator("#replay-next-play").click()
    expect(race_line).to_be_visible()
    expect(race_line).to_have_text(told)
    expect(page.locator(".replay-middle .card.race-won")).to_have_count(1)
    shoot(page, f"replay-serve-{lang}-race")
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth")


@pytest.mark.parametrize("lang", LOCALES)
def test_the_online_games_board_links_its_rounds_replays(
    played: Played, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONES["360"], locale=LOCALES[lang])
    page.goto(f"{played.base}/g/{played.tafel_game}?lang={lang}")
    links = page.locator("table.rounds a.replay-link")
    expect(links).to_have_count(2)
    expect(links.first).to_be_visible()
    assert (links.first.get_attribute("aria-label") or "").strip()
    shoot(page, f"board-replays-{lang}")
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth")
    links.first.click()
    expect(page).to_have_url(f"{played.base}/play/{played.code}/rounds/1/replay")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "1")
