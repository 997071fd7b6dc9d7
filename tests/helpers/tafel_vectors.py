"""Shared test vectors of the Tafel's rules (T2–T5), generated from ``ligretto.tafel``.

The phone mirrors the rules in JavaScript (``static/js/rules.js``) to show
totals and the outcome of rounds not sent yet. These vectors hold the one
definition: each is a game and a list of entries; after every entry, what
the Python domain says (the error code of a refused entry, or the totals,
ranks, running totals, status, winners …). ``test_vectors.py`` checks that
the committed ``tafel_vectors.json`` is what the domain says today; the browser
test runs the same file through ``rules.js``.

Regenerate after a rule change: ``python tests/helpers/tafel_vectors.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ligretto.tafel import Game, TafelError

VECTORS = Path(__file__).with_name("tafel_vectors.json")

Step = dict[str, Any]


def _observe(game: Game) -> dict[str, Any]:
    pending = game.pending_round
    running = game.running_totals()
    return {
        "totals": list(game.totals),
        "ranks": list(game.ranks),
        "running": [None if r is None else list(r) for r in running],
        "status": game.status.value,
        "winners": list(game.winners),
        "decided_after": game.decided_after,
        "pending": None if pending is None else pending.number,
        "accepts_new_round": game.accepts_new_round,
        "complete_rounds": game.complete_rounds,
        "closed": game.closed,
        "scored": game.scored,
        "points": [None if r.points is None else list(r.points) for r in game.rounds],
    }


def _apply(game: Game, step: Step) -> None:
    op = step["op"]
    if op == "open":
        game.open_round(step["stacks"])
    elif op == "complete":
        game.complete_round(step["n"], step["middle"], confirm=step.get("confirm", False))
    elif op == "correct":
        game.correct_round(
            step["n"],
            stacks=step.get("stacks"),
            middle=step.get("middle"),
            confirm=step.get("confirm", False),
        )
    elif op == "remove":
        game.remove_last_round(step.get("n"))
    elif op == "finish":
        game.finish()
    elif op == "score":
        game.score()
    else:  # pragma: no cover - a typo in a scenario
        raise ValueError(op)


def run(setup: dict[str, Any], steps: list[Step]) -> list[dict[str, Any]]:
    """What the domain says after each step: ``{"error": code}`` or the observed state."""
    game = Game(
        setup["players"],
        mode=setup.get("mode", "target"),
        target=setup.get("target"),
        agreed_rounds=setup.get("agreed_rounds"),
        row_storage=setup.get("row_storage", False),
    )
    results: list[dict[str, Any]] = []
    for step in steps:
        try:
            _apply(game, step)
        except TafelError as error:
            results.append({"error": error.code.value})
        else:
            results.append({"error": None, **_observe(game)})
    return results


def _round(n: int, stacks: list[int], middle: list[int], confirm: bool = False) -> list[Step]:
    return [
        {"op": "open", "stacks": stacks},
        {"op": "complete", "n": n, "middle": middle, "confirm": confirm},
    ]


def scenarios() -> list[dict[str, Any]]:
    """Every rule clause by hand, then seeded random games (ties, corrections, removals)."""
    two = {"players": ["Anna", "Ben"], "mode": "target", "target": 50}
    three = {"players": ["Anna", "Ben", "Cleo"], "mode": "target", "target": 30}
    rounds2 = {"players": ["Anna", "Ben", "Cleo"], "mode": "rounds", "agreed_rounds": 2}
    items: list[dict[str, Any]] = [
        {
            "name": "R5 points: middle − 2 × stack",
            "game": two,
            "steps": _round(1, [0, 3], [14, 14]),
        },
        {
            "name": "T2 stacks: two callers, range, whole numbers, missing players",
            "game": three,
            "steps": [
                {"op": "open", "stacks": [0, 0, 4]},
                {"op": "open", "stacks": [0, 11, 4]},
                {"op": "open", "stacks": [0, -1, 4]},
                {"op": "open", "stacks": [0, 2.5, 4]},
                {"op": "open", "stacks": [0, 3]},
                {"op": "open", "stacks": [2, 3, 4]},  # R4: a round without a call
                {"op": "open", "stacks": [0, 3, 4]},  # round 1 still pending
            ],
        },
        {
            "name": "T3 middle: range, implausible, confirmed, row storage",
            "game": three,
            "steps": [
                {"op": "open", "stacks": [0, 3, 9]},
                {"op": "complete", "n": 1, "middle": [10, 38, 0]},
                {"op": "complete", "n": 1, "middle": [10, 37, 0]},
                {"op": "complete", "n": 1, "middle": [10, 2, 1]},
                {"op": "complete", "n": 1, "middle": [10, 2, 1], "confirm": True},
                {"op": "complete", "n": 1, "middle": [10, 8, 1]},
                {"op": "complete", "n": 2, "middle": [10, 8, 1]},
            ],
        },
        {
            "name": "R6 the row as storage asks no confirmation",
            "game": {**three, "row_storage": True},
            "steps": _round(1, [0, 5, 5], [3, 0, 1]),
        },
        {
            "name": "T4 the highest total wins after the target, not the first across",
            "game": two,
            "steps": _round(1, [0, 1], [30, 28]) + _round(2, [2, 0], [20, 30]),
        },
        {
            "name": "T4 a tie at the top plays on until one alone leads",
            "game": two,
            "steps": _round(1, [0, 1], [25, 27])
            + _round(2, [1, 0], [27, 25])
            + _round(3, [0, 2], [12, 14])
            + _round(4, [0, 3], [10, 9])
            + [{"op": "open", "stacks": [0, 1]}],
        },
        {
            "name": "T4 corrections re-decide, refuse an earlier decision, reopen",
            "game": two,
            "steps": _round(1, [0, 1], [25, 27])
            + _round(2, [1, 0], [27, 25])
            + _round(3, [0, 2], [12, 14])
            + [
                {"op": "correct", "n": 1, "middle": [35, 27]},
                {"op": "correct", "n": 3, "middle": [11, 14]},
                {"op": "correct", "n": 2, "stacks": [0, 1]},
                {"op": "correct", "n": 3, "stacks": [0, 9], "middle": [12, 1], "confirm": True},
                {"op": "remove", "n": 2},
                {"op": "remove"},
                {"op": "correct", "n": 9, "middle": [1, 1]},
            ],
        },
        {
            "name": "T5 rounds game: all rounds played, Beenden, Werten, shared victory",
            "game": rounds2,
            "steps": [
                {"op": "finish"},
                {"op": "score"},
                *_round(1, [0, 2, 6], [15, 14, 5]),
                {"op": "open", "stacks": [1, 0, 3]},
                {"op": "finish"},
                {"op": "complete", "n": 2, "middle": [12, 15, 9]},
                {"op": "open", "stacks": [0, 1, 1]},
                {"op": "finish"},
                {"op": "score"},
                {"op": "remove"},
                {"op": "score"},
            ],
        },
        {
            "name": "T5 finishing a target game early",
            "game": three,
            "steps": [
                *_round(1, [0, 3, 4], [12, 9, 8]),
                {"op": "finish"},
                {"op": "open", "stacks": [0, 1, 1]},
            ],
        },
        {
            "name": "T6 a pending round can be corrected and completed by correction",
            "game": two,
            "steps": [
                {"op": "open", "stacks": [0, 4]},
                {"op": "correct", "n": 1, "stacks": [3, 0]},
                {"op": "correct", "n": 1, "middle": [9, 12]},
                {"op": "correct", "n": 1, "stacks": [9, 0]},
                {"op": "correct", "n": 1, "stacks": [9, 0], "confirm": True},
            ],
        },
    ]
    rng = random.Random(20261129)
    for index in range(24):
        players = [f"P{seat}" for seat in range(rng.randint(2, 6))]
        if rng.random() < 0.5:
            game: dict[str, Any] = {
                "players": players,
                "mode": "target",
                "target": rng.choice([20, 30, 50]),
            }
        else:
            game = {"players": players, "mode": "rounds", "agreed_rounds": rng.randint(1, 5)}
        steps: list[Step] = []
        number = 0
        for _ in range(rng.randint(3, 9)):
            caller = rng.randrange(len(players))
            stacks = [0 if seat == caller else rng.randint(1, 10) for seat in range(len(players))]
            middle = [rng.randint(max(0, 10 - s - 2), 10 - s + 12) for s in stacks]
            number += 1
            steps += _round(number, stacks, middle, confirm=rng.random() < 0.3)
            roll = rng.random()
            if roll < 0.15 and number > 1:
                fixed = rng.randrange(1, number + 1)
                steps.append({"op": "correct", "n": fixed, "middle": [m + 1 for m in middle]})
            elif roll < 0.25:
                steps.append({"op": "remove"})
                number -= 1
        steps.append({"op": rng.choice(["finish", "score"])})
        items.append({"name": f"random game {index + 1}", "game": game, "steps": steps})
    return items


def generate() -> list[dict[str, Any]]:
    return [{**item, "expect": run(item["game"], item["steps"])} for item in scenarios()]


def dumps(vectors: list[dict[str, Any]]) -> str:
    return json.dumps(vectors, ensure_ascii=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    VECTORS.write_text(dumps(generate()))
