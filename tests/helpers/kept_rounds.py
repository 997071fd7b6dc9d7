"""Kept bot rounds, and what the replay page drew of them before the engine did.

``old_page_tables`` is the applier the replay page once ran in the browser
(static/play/replay.js before the engine drew its positions: the deal, the
actions and the shuffled hands), written out in Python: the positions it
showed are the oracle that ``ligretto.rules.positions`` must keep for every
kept round.
``served_tables`` unfolds the engine's compact answer the way the page does.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ligretto.bots import make_bot
from ligretto.rules.options import RuleOptions
from ligretto.rules.replay_file import initial_deal, read_replay, round_record, shuffled_hands
from ligretto.rules.round import Round
from ligretto.sim.engine import simulate_round

PACKET = 3


def kept_round(seed: int, specs: list[str], options: RuleOptions | None = None) -> dict[str, Any]:
    """A bot round as the replay route serves it: the document with the deal
    and the shuffled hands (times made up, 250 ms apart)."""
    bots = [make_bot(spec) for spec in specs]
    rnd = Round.deal(len(bots), seed, options or RuleOptions())
    simulate_round(bots, seed, start=rnd)
    seats = [
        {"name": f"Bot {i + 1} ({b.spec.strategy})", "bot": {"strategy": b.spec.strategy}}
        for i, b in enumerate(bots)
    ]
    times = [250 * i for i in range(len(rnd.log))]
    data = round_record(rnd, seats=seats, times=times, table="ABCDEF", round=1)
    log = read_replay(data)
    return {
        **data,
        "deal": initial_deal(log.players, log.seed, log.options),
        "shuffles": shuffled_hands(log),
    }


def _take(seat: dict[str, Any], place: str) -> str:
    if place == "stack":
        return str(seat["stack"].pop())
    if place == "discard":
        return str(seat["discard"].pop())
    match = re.fullmatch(r"row(\d+)", place)
    assert match, place
    return str(seat["row"][int(match[1])].pop())


def _apply(doc: dict[str, Any], state: dict[str, Any], index: int) -> int | None:
    entry = doc["actions"][index]
    s, words = entry["seat"], entry["action"].split(" ")
    pile = None
    seat = state["seats"][s] if s is not None else None
    if words[0] == "play":
        assert seat is not None
        card = _take(seat, words[2])
        assert card == words[1]
        if words[3] == "new":
            pile = len(state["piles"])
            state["piles"].append([[card, s]])
        else:
            pile = int(words[3][1:])
            state["piles"][pile].append([card, s])
        seat["middle"] += 1
        match = re.fullmatch(r"row(\d+)", words[2])
        auto = doc["options"]["row_refill"] == "auto"
        if match and auto and not seat["row"][int(match[1])] and seat["stack"]:
            seat["row"][int(match[1])].append(seat["stack"].pop())
    elif words[0] == "turn":
        assert seat is not None
        k = min(PACKET, len(seat["hand"]))
        packet = seat["hand"][len(seat["hand"]) - k :]
        del seat["hand"][len(seat["hand"]) - k :]
        seat["discard"] += packet[::-1]
    elif words[0] == "recycle":
        assert seat is not None
        seat["hand"] = seat["discard"][::-1]
        seat["discard"] = []
    elif words[0] == "refill":
        assert seat is not None
        seat["row"][int(words[1][3:])].append(seat["stack"].pop())
    elif words[0] == "store":
        assert seat is not None
        card = _take(seat, words[2])
        seat["row"][int(words[3][3:])].append(card)
    else:
        assert words[0] == "stuck", words
    for shuffle in doc.get("shuffles", []):
        if shuffle["after"] == index:
            state["seats"][shuffle["seat"]]["hand"] = list(shuffle["hand"])
            state["seats"][shuffle["seat"]]["discard"] = []
    return pile


def _drawn(state: dict[str, Any], pile: int | None) -> dict[str, Any]:
    """What the old page drew of ``state``: every place's top and count."""

    def top(cards: list[Any]) -> list[Any]:
        return [cards[-1] if cards else None, len(cards)]

    return {
        # The old page showed no closed pile as closed; a 10 closes it (R3).
        "piles": [[p[-1][0], len(p), p[-1][0][1:] == "10"] for p in state["piles"]],
        "seats": [
            {
                "stack": top(s["stack"]),
                "row": [c[-1] if c else None for c in s["row"]],
                "discard": top(s["discard"]),
                "hand": top(s["hand"]),
                "middle": s["middle"],
            }
            for s in state["seats"]
        ],
        "pile": pile,
    }


def old_page_tables(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position the old page showed: 0 the deal, i after action i-1."""
    state: dict[str, Any] = {
        "seats": [
            {
                "stack": list(d["stack"]),
                "row": [[c] if c else [] for c in d["row"]],
                "discard": [],
                "hand": list(d["hand"]),
                "middle": 0,
            }
            for d in doc["deal"]
        ],
        "piles": [],
    }
    out = [_drawn(state, None)]
    for i in range(len(doc["actions"])):
        state = copy.deepcopy(state)
        out.append(_drawn(state, _apply(doc, state, i)))
    return out


def served_tables(served: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's compact positions unfolded as replay.js does."""
    table = served["start"]
    out = [{**table, "pile": None}]
    for step in served["steps"]:
        seats = list(table["seats"])
        for s, changed in step.get("seats", []):
            seats[s] = {**seats[s], **changed}
        piles = list(table["piles"])
        for p, *view in step.get("piles", []):
            if p < len(piles):
                piles[p] = view
            else:
                piles.append(view)
        table = {"seats": seats, "piles": piles}
        out.append({**table, "pile": step.get("pile")})
    return out
