"""The server's CPU split by stage (``LIGRETTO_CPU_SPLIT``): nested stages
are charged apart, and a served table counts every stage of a move."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ligretto.metrics import cpu_split
from ligretto.metrics.cpu_split import ENCODE, ENGINE, WRITE, CpuSplit, timed, wrap


class Ticks:
    """A clock the test moves by hand (nanoseconds)."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


def test_an_inner_stage_is_charged_to_itself_not_to_the_stage_around_it() -> None:
    ticks = Ticks()
    split = CpuSplit(ticks)

    def engine() -> str:
        ticks.now += 300
        return "view"

    def write() -> None:
        ticks.now += 50

    counted_engine = wrap(split, ENGINE, engine)
    counted_write = wrap(split, WRITE, write)

    def encode() -> str:
        ticks.now += 10
        view = counted_engine()
        ticks.now += 20
        counted_write()
        counted_write()
        return view

    assert wrap(split, ENCODE, encode)() == "view"
    ticks.now += 1000  # outside every stage: the loop's idle wait is not summed
    sums = split.snapshot()
    assert (sums["encode"], sums["engine"], sums["write"]) == (30, 300, 100)
    assert sums["parse"] == sums["table"] == sums["journal"] == sums["journal_thread"] == 0


def test_a_stage_that_raises_hands_the_clock_back() -> None:
    ticks = Ticks()
    split = CpuSplit(ticks)

    def refused() -> None:
        ticks.now += 7
        raise ValueError("pile taken")

    def encode() -> None:
        with pytest.raises(ValueError, match="pile taken"):
            wrap(split, ENGINE, refused)()
        ticks.now += 5

    wrap(split, ENCODE, encode)()
    ticks.now += 100
    assert (split.snapshot()["engine"], split.snapshot()["encode"]) == (7, 5)


def test_a_running_stage_counts_in_a_snapshot_taken_inside_it() -> None:
    ticks = Ticks()
    split = CpuSplit(ticks)
    seen: dict[str, int] = {}

    def engine() -> None:
        ticks.now += 40
        seen.update(split.snapshot())

    wrap(split, ENGINE, engine)()
    assert seen["engine"] == 40


@pytest.mark.skipif(cpu_split.ON, reason="LIGRETTO_CPU_SPLIT is set for this run")
def test_off_the_functions_are_the_functions_themselves() -> None:
    def fn() -> int:
        return 1

    assert timed(ENGINE)(fn) is fn


_PLAY = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from fastapi.testclient import TestClient
    from helpers.live_wire import receive_until, send, started_two_player_table
    from ligretto.metrics.cpu_split import ON, SPLIT
    from ligretto.web.app import create_app
    from ligretto.web.settings import Settings

    assert ON
    # The whole app, tables kept in the database: the journal counts too.
    app = create_app(Settings(data_dir=Path(sys.argv[1]), database_url=None))
    with TestClient(app) as client:
        _, anna, ben, _ = started_two_player_table(client)
        send(anna, "move", action="turn", ref=1)  # three cards from the hand (R3)
        assert receive_until(anna, "events")["ref"] == 1
        send(anna, "move", action="nonsense", ref=2)
        receive_until(anna, "refused")
        anna.__exit__(None, None, None)
        ben.__exit__(None, None, None)
    print(json.dumps(SPLIT.snapshot()))
    """
)


def test_a_served_table_counts_each_stage_of_a_move(tmp_path: Path) -> None:
    tests = Path(__file__).resolve().parents[1]
    env = {**os.environ, "LIGRETTO_CPU_SPLIT": "1", "PYTHONPATH": str(tests)}
    done = subprocess.run(
        [sys.executable, "-c", _PLAY, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,  # a hang fails the test instead of the run
    )
    assert done.returncode == 0, done.stderr
    sums = json.loads(done.stdout.strip().splitlines()[-1])
    # The sums are read after the app stopped, which writes the journal's
    # last batch: its thread's CPU is in them.
    for stage in ("parse", "table", "engine", "encode", "write", "journal", "journal_thread"):
        assert sums[stage] > 0, (stage, sums)
