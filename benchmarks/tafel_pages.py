"""Tafel entry through the pages: rounds saved as a phone's edit page saves them.

``benchmarks/tafel.py`` measures the JSON API.  A phone at the table uses
the edit page instead: its script sends the form (``POST /g/{id}/edit/stacks``
then ``…/edit/middle``, the token in ``X-Edit-Token``) and, once the save
landed, shows the board the answer leads to.  This enters ``--rounds``
rounds of a 3-player game that way, against a real ``ligretto serve`` on
SQLite, and prints per save:

- the POST itself (the server reads the form, checks the token, writes);
- every further request the script makes until the new page is live (the
  page, and its board fragment when its live stream opens), and their sum:
  the phone's wait for one save;
- the server's CPU per save, in reference steps (comparable across machines).

With ``--watchers N`` the same N watching phones as in ``benchmarks/tafel.py``
follow the game meanwhile.

    .venv/bin/python benchmarks/tafel_pages.py [--rounds 200] [--watchers 0]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
from reference import reference_rate  # benchmarks/reference.py

from ligretto.serve_process import ServeProcess, environment_without_database_url
from tafel import PLAYERS, Watchers, _cpu_ms, _describe, _percentile, _round

#: What the edit page's script asks for a save (board.js): it names itself,
#: so the server can answer with where to go instead of the page itself.
SCRIPT_HEADERS = {"X-Requested-With": "ligretto-entry"}


def _save(
    client: httpx.Client, token: str, path: str, form: dict[str, str]
) -> tuple[float, float, int, str]:
    """One save as board.js makes it: (POST ms, whole wait ms, requests, board)."""
    headers = {"X-Edit-Token": token, **SCRIPT_HEADERS}
    t0 = time.perf_counter()
    answer = client.post(path, data=form, headers=headers)
    t1 = time.perf_counter()
    requests = 1
    # fetch() follows a redirect by itself: the page it leads to is loaded
    # once within the fetch (the old answer), then once more by the navigation.
    while answer.is_redirect:
        answer = client.get(answer.headers["Location"], headers={"X-Edit-Token": token})
        requests += 1
    if answer.status_code not in (200, 204):
        raise RuntimeError(f"{path}: {answer.status_code} {answer.text[:300]}")
    # 204 names the board to go to; an older server's 303 led to it already.
    target = answer.headers.get("X-Entry-Location", str(answer.url)).split("#")[0]
    shown = client.get(target)  # the navigation to the board it leads to
    if shown.status_code != 200:
        raise RuntimeError(f"{target}: {shown.status_code}")
    # The new page's live stream opens and asks for the board it shows
    # (304 since it is that version; an older server draws it again).
    board = client.get(
        f"{path.rsplit('/', 1)[0]}/board",
        headers={"X-Edit-Token": token, "If-None-Match": f'"{_version(target)}-en"'},
    )
    if board.status_code not in (200, 304):
        raise RuntimeError(f"board: {board.status_code}")
    requests += 2
    return (t1 - t0) * 1000, (time.perf_counter() - t0) * 1000, requests, target


def _version(target: str) -> str:
    return parse_qs(urlsplit(target).query)["undo"][0]


def run(data_dir: Path, rounds: int, watchers: int, rate: float) -> None:
    with ServeProcess(data_dir, environment_without_database_url()) as server:
        base = server.start()
        with httpx.Client(base_url=base, timeout=10) as client:
            created = client.post("/api/games", json={"players": PLAYERS, "target": 99}).json()
            gid, token = created["id"], created["edit_token"]
            watching = Watchers(base, gid, watchers) if watchers else None
            posts: list[float] = []
            waits: list[float] = []
            trips: list[int] = []
            version = str(created["version"])
            cpu0 = _cpu_ms(server.pid)
            for n in range(1, rounds + 1):
                stacks, middle = _round(n)
                form = {f"stack-{seat}": str(count) for seat, count in enumerate(stacks)}
                form |= {"version": version, "stop": str(stacks.index(0))}
                post, wait, requests, target = _save(client, token, f"/g/{gid}/edit/stacks", form)
                posts.append(post)
                waits.append(wait)
                trips.append(requests)
                version = _version(target)
                form = {f"middle-{seat}": str(count) for seat, count in enumerate(middle)}
                form |= {"version": version, "round": str(n)}
                post, wait, requests, target = _save(client, token, f"/g/{gid}/edit/middle", form)
                posts.append(post)
                waits.append(wait)
                trips.append(requests)
                version = _version(target)
            cpu1 = _cpu_ms(server.pid)
            if watching is not None:
                watching.stop()
            pages: list[float] = []
            for _ in range(9):
                t0 = time.perf_counter()
                client.get(f"/g/{gid}/edit")
                pages.append((time.perf_counter() - t0) * 1000)
    print(f"-- SQLite: {rounds} rounds through the edit page, {watchers} watchers")
    print(f"{'requests per save':<22} {statistics.mean(trips):.1f}")
    print(_describe("POST per save", posts))
    print(_describe("phone's wait per save", waits))
    slowest = max(range(len(waits)), key=waits.__getitem__)
    print(f"{'first save':<22} {waits[0]:6.2f} ms (the slowest is save {slowest + 1})")
    print(
        f"{'edit page alone':<22} median of 9 {statistics.median(pages):6.2f} ms "
        f"(at {rounds} rounds)"
    )
    if cpu0 is not None and cpu1 is not None:
        per_save = (cpu1 - cpu0) / len(posts)
        print(
            f"{'server CPU per save':<22} {per_save:5.2f} ms "
            f"= {per_save / 1000 * rate / 1000:.0f} k reference steps"
        )
    print(f"{'p99 / median wait':<22} {_percentile(waits, 0.99) / statistics.median(waits):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=0, help="phones watching (0 to 1000)")
    args = parser.parse_args()
    if not 10 <= args.rounds <= 2000 or not 0 <= args.watchers <= 1000:
        parser.error("--rounds 10..2000, --watchers 0..1000")
    rate = reference_rate()
    print(f"machine reference: {rate / 1e6:.2f} M steps per CPU second")
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp), args.rounds, args.watchers, rate)


if __name__ == "__main__":
    main()
