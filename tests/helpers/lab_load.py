"""A lab study that costs far more than it looks, sent to a real ``ligretto serve``.

Shared by ``tests/web/test_lab_budget.py`` (which asserts what must hold:
the study stopped at its budget, the work and memory bounded) and
``benchmarks/lab_budget.py`` (which times it against a study at the cap in
the same run). Sixteen ``random:easy`` bots with ordinary playing cards
score below zero a round on average, so their games to 99 never end and
each plays ``MAX_GAME_ROUNDS`` rounds; the lab's cap on what is asked
counts each game as 10 rounds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from helpers.processes import cpu_seconds, descendants, peak_rss_mb
from ligretto.serve_process import ServeProcess, environment_without_database_url

__all__ = [
    "cpu_seconds",
    "endless_games",
    "family",
    "peak_rss_mb",
    "run_study",
    "serve",
    "versus_rounds",
]

SEATS = 16


def endless_games(games: int, seed: int = 1) -> dict[str, str]:
    """The lab's form for *games* games to 99 of sixteen random:easy bots, playing cards."""
    data = {
        "question": "custom",
        "players": str(SEATS),
        "count": str(games),
        "amount": "games",
        "game_end": "target",
        "target": "99",
        "seed": str(seed),
        "deck": "cards",
        "row_refill": "auto",
        "recycle_shuffle": "on",
        "deadlock": "end",
    }
    for seat in range(SEATS):
        data[f"strategy{seat}"], data[f"level{seat}"] = "random", "easy"
    return data


def versus_rounds(rounds: int, seed: int = 1) -> dict[str, str]:
    """The lab's "A vs B" question: *rounds* single rounds of four seats."""
    data = {
        "question": "versus",
        "players": "4",
        "count": str(rounds),
        "amount": "rounds",
        "seed": str(seed),
        "deck": "ligretto",
        "row_refill": "auto",
        "recycle_shuffle": "on",
        "deadlock": "end",
    }
    for seat in range(4):
        strategy = "stack-first" if seat % 2 == 0 else "greedy"
        data[f"strategy{seat}"], data[f"level{seat}"] = strategy, "medium"
    return data


@contextmanager
def serve(data_dir: Path, **settings: str) -> Iterator[ServeProcess]:
    """A started ``ligretto serve`` on SQLite with ``LIGRETTO_…`` *settings*."""
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    env.update({f"LIGRETTO_{name.upper()}": value for name, value in settings.items()})
    process = ServeProcess(data_dir, env)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def run_study(base: str, form: dict[str, str], timeout: float = 600.0) -> dict[str, Any]:
    """Send the form, wait until the study has ended; its ``/lab/{id}.json``."""
    with httpx.Client(base_url=base, timeout=30.0) as client:
        answer = client.post("/lab", data=form)
        assert answer.status_code == 303, answer.text
        study = answer.headers["location"]
        deadline = time.monotonic() + timeout
        while True:
            stored: dict[str, Any] = client.get(f"{study}.json").json()
            if stored["state"] not in ("queued", "running"):
                stored["page"] = client.get(study).text
                return stored
            if time.monotonic() > deadline:
                raise AssertionError(f"the study did not end in {timeout} s: {stored['state']}")
            time.sleep(0.2)


def family(pid: int) -> list[int]:
    """*pid* and every process below it (the lab's fork server and its workers)."""
    return [pid, *descendants(pid)]
