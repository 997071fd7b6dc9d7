"""The compiled core and its pure fallback (ligretto._build, setup.py).

Both builds must behave identically; the compiled one must never run
older than its sources.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ligretto
from ligretto import _build

SRC = Path(ligretto.__file__).parent.parent


def _fake_tree(tmp_path: Path, *, manifest: bool = True, extensions: bool = True) -> Path:
    """A copy of the compiled sources with (empty) extension files and a manifest."""
    for path in _build.COMPILED:
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SRC / path, target)
        if extensions:
            suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
            (tmp_path / (path.removesuffix(".py") + suffix)).write_bytes(b"")
    if manifest:
        (tmp_path / _build.MANIFEST).write_text(_build.source_hashes(str(tmp_path)).to_json())
    return tmp_path


def test_a_fresh_build_runs_compiled(tmp_path: Path) -> None:
    build = _build.decide(str(_fake_tree(tmp_path)), environ={})
    assert build.kind == "compiled"
    assert "ligretto.rules.round" in build.modules


def test_an_edited_source_makes_the_build_pure_and_names_the_module(tmp_path: Path) -> None:
    tree = _fake_tree(tmp_path)
    with (tree / "ligretto/rules/round.py").open("a") as f:
        f.write("# edited\n")
    build = _build.decide(str(tree), environ={})
    assert build.kind == "pure"
    assert "older than their sources (ligretto.rules.round)" in build.reason


def test_ligretto_pure_forces_the_pure_modules(tmp_path: Path) -> None:
    tree = str(_fake_tree(tmp_path))
    assert _build.decide(tree, environ={"LIGRETTO_PURE": "1"}).kind == "pure"
    assert _build.decide(tree, environ={"LIGRETTO_PURE": "0"}).kind == "compiled"


def test_without_a_compiled_build_it_is_pure(tmp_path: Path) -> None:
    build = _build.decide(str(_fake_tree(tmp_path, manifest=False)), environ={})
    assert (build.kind, build.reason.startswith("not compiled")) == ("pure", True)
    build = _build.decide(str(_fake_tree(tmp_path / "x", extensions=False)), environ={})
    assert (build.kind, "incomplete" in build.reason) == ("pure", True)


def _run(code: str, pure: bool) -> str:
    env = {**os.environ, "LIGRETTO_PURE": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


_WHICH = "import ligretto.rules.round as r, ligretto.sim.engine as e; print(r.__file__, e.__file__)"


def test_the_pure_build_loads_the_sources() -> None:
    assert all(f.endswith(".py") for f in _run(_WHICH, pure=True).split())


def test_a_compiled_build_loads_its_extensions() -> None:
    if _build.decide(environ={}).kind != "compiled":
        pytest.skip(f"this install is {_build.decide(environ={}).describe()}")
    assert not any(f.endswith(".py") for f in _run(_WHICH, pure=False).split())


# One seed, the same rounds and the same statistics, whichever build runs.
_PLAY = """
import importlib.machinery
import json
from ligretto.rules import Play, Round, RuleOptions
from ligretto.simulate.run import SimConfig, simulate
out = []
for seed in range(6):
    r = Round.deal(3, seed, RuleOptions(row_storage=seed % 2 == 1, recycle_shuffle=seed % 3 > 0))
    quiet = 0
    while not r.is_over:
        if quiet > 600:
            r.settle_stuck()
            quiet = 0
        for seat in range(3):
            legal = r.legal_actions(seat)
            if legal and not r.is_over:
                action = legal[(seed + quiet) % len(legal)]
                r.apply(seat, action)
                quiet = 0 if type(action) is Play else quiet + 1
    out.append([r.snapshot(), [str(a) for _, a in r.log]])
config = SimConfig.from_names(["stack-first:hard", "greedy:medium", "mine:expert"], seed=9)
out.append(simulate(config, rounds=40).to_dict())
print(json.dumps(out, sort_keys=True))
"""


def test_same_seed_same_results_compiled_or_pure() -> None:
    pure, compiled = (json.loads(_run(_PLAY, pure=p)) for p in (True, False))
    assert len(pure) == 7
    assert pure == compiled


def test_values_and_rounds_pickle_and_copy_in_either_build() -> None:
    """Compiled frozen dataclasses refuse field-by-field unpickling unless
    FrozenValue restores them; the simulator's workers receive bot specs."""
    import copy
    import pickle

    from ligretto.bots.bot import BotSpec
    from ligretto.bots.timing import reaction_model
    from ligretto.rules import Card, Round, RuleOptions
    from ligretto.sim.engine import RoundLimits

    rnd = Round.deal(3, 11, RuleOptions(row_storage=True))
    events = rnd.apply(0, rnd.legal_actions(0)[-1])
    values: list[object] = [
        Card.parse("Y9"),
        *rnd.legal_actions(1),
        *events,
        rnd.view(2),
        rnd.result(),
        BotSpec.parse("mine:expert"),
        reaction_model("easy"),
        RoundLimits(stuck_after=12.0),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
    again = pickle.loads(pickle.dumps(rnd))
    assert again.snapshot() == rnd.snapshot()
    assert again.legal_actions(0) == rnd.legal_actions(0)
