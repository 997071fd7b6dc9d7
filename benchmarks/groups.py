"""A group's statistics page: how fast, and how it grows with the number of games.

Groups of 125, 250, 500 and 1,000 games (4–8 of eight bot members, played by
the simulator's game mode, ``tests/helpers/groups.py``) are imported into a
real ``ligretto serve`` on SQLite. For each, over HTTP on 127.0.0.1:

- **warm**: the group page (league table, rating chart, history) and
  ``GET /api/groups/{id}/stats`` read again and again — the statistics are
  kept by the service until the group or one of its games changes, so a
  read costs one small fingerprint query and the rendering;
- **after a correction**: right after a round is corrected, so the
  statistics are computed again from the rounds (the changed game's rounds
  read again, the others kept by the service; statistics, head-to-head),
  and the OpenSkill ratings continue from the first changed game: for
  tonight's game (the newest) that is one game, for the oldest game it is
  the whole history — the worst case.

Prints median and p99 in ms per request, and each figure as a ratio to the
125-game group measured in the same run. The machine may be shared: treat
the numbers as rough, the ratios as the finding.

    .venv/bin/python benchmarks/groups.py [--sizes 125,250,500,1000] [--reads 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.groups import simulated_group
from ligretto.serve_process import ServeProcess, environment_without_database_url
from ligretto.tafel.exchange import game_to_json


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def _timed(client: httpx.Client, path: str) -> float:
    start = time.perf_counter()
    response = client.get(path)
    elapsed = (time.perf_counter() - start) * 1000
    response.raise_for_status()
    return elapsed


def _corrected(
    client: httpx.Client, page: str, game_id: str, token: str, times: int
) -> list[float]:
    """The page's time right after each of *times* corrections of the game's round 1."""
    first = client.get(f"/api/games/{game_id}/rounds/1").json()
    middle = list(first["middle"].values())
    spent: list[float] = []
    for i in range(times):
        changed = list(middle)
        changed[0] += (i + 1) % 2  # the same round, one card more or not
        client.put(
            f"/api/games/{game_id}/rounds/1",
            json={"middle": changed, "confirm": True},
            headers={"Authorization": f"Bearer {token}"},
        ).raise_for_status()
        spent.append(_timed(client, page))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="125,250,500,1000")
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--corrections", type=int, default=20)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    members, games = simulated_group(max(sizes), seed=1)
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    results: dict[int, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp, ServeProcess(Path(tmp), env) as server:
        base = server.start()
        with httpx.Client(base_url=base, timeout=60) as client:
            for size in sizes:
                chosen = games[:size]
                export = {
                    "name": f"Bench {size}",
                    "members": members,
                    "games": [
                        {
                            "played_at": g.played_at.isoformat(),
                            "game": game_to_json(
                                g.game,
                                game_id=g.id,
                                version=1,
                                created_at=g.played_at,
                                updated_at=g.played_at,
                            ),
                        }
                        for g in chosen
                    ],
                }
                created = client.post("/api/groups/import", json=export)
                created.raise_for_status()
                group = created.json()
                gid = group["id"]
                rounds = sum(len(g.game.rounds) for g in chosen)
                page = f"/groups/{gid}?season=all"
                tokens = list(group["game_tokens"].items())  # oldest game first
                (old_id, old_token), (new_id, new_token) = tokens[0], tokens[-1]
                newest = _corrected(client, page, new_id, new_token, args.corrections)
                oldest = _corrected(client, page, old_id, old_token, args.corrections)
                for _ in range(5):
                    _timed(client, page)  # the other seasons and kinds of statistics
                warm_page = [_timed(client, page) for _ in range(args.reads)]
                warm_api = [_timed(client, f"/api/groups/{gid}/stats") for _ in range(args.reads)]
                results[size] = {
                    "page, warm": (statistics.median(warm_page), _percentile(warm_page, 0.99)),
                    "stats API, warm": (statistics.median(warm_api), _percentile(warm_api, 0.99)),
                    "page, newest game changed": (
                        statistics.median(newest),
                        _percentile(newest, 0.99),
                    ),
                    "page, oldest game changed": (
                        statistics.median(oldest),
                        _percentile(oldest, 0.99),
                    ),
                }
                print(f"{size} games, {rounds} rounds imported", flush=True)
    reference = results[sizes[0]]
    print()
    print(f"{'games':>6} {'what':<28} {'median ms':>10} {'p99 ms':>8} {'median ×':>9} {'p99 ×':>7}")
    for size in sizes:
        for what, (median, p99) in results[size].items():
            ref_median, ref_p99 = reference[what]
            print(
                f"{size:>6} {what:<28} {median:>10.1f} {p99:>8.1f} "
                f"{median / ref_median:>9.2f} {p99 / ref_p99:>7.2f}"
            )


if __name__ == "__main__":
    main()
