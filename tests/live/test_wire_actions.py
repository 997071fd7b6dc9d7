"""Each legal action in a view is sent structured; its fields say what its text says.

The page reads only the fields, a ``move`` sends back only the text: the
two must always name the same action.  Checked against the engine's own
parser over many random positions under every rule option.
"""

from __future__ import annotations

import dataclasses
import json
import random
from enum import Enum
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.profiles import examples
from ligretto.live.client import view_from_dict
from ligretto.live.encoder import view_dict, view_message
from ligretto.live.protocol import wire_action, wire_action_adapter
from ligretto.rules import Action, Play, Round, RuleOptions

# The keys each kind carries besides ``text`` and ``kind``: the fields of
# the engine's dataclass of that name.
KEYS = {
    "play": {"card", "source", "slot", "pile"},
    "store": {"card", "source", "slot"},
    "refill": {"slot"},
    "turn": set(),
    "recycle": set(),
}


def _plain(value: object) -> object:
    """A field value as JSON has it: cards as text, enums as their value."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, int):
        return value
    return str(value)


def check_actions(rnd: Round, seat: int) -> list[dict[str, Any]]:
    """The seat's actions as sent: structured, in the engine's order, each
    one describing exactly the action its text parses to."""
    sent: list[dict[str, Any]] = json.loads(view_message(rnd, 1, 0, seat))["view"]["actions"]
    assert [a["text"] for a in sent] == [str(a) for a in rnd.legal_actions(seat)]
    for data in sent:
        parsed = Action.parse(data["text"])
        assert data["kind"] == type(parsed).__name__.lower()
        assert set(data) == {"text", "kind"} | KEYS[data["kind"]]
        fields = {f.name: _plain(getattr(parsed, f.name)) for f in dataclasses.fields(parsed)}
        assert {k: v for k, v in data.items() if k not in ("text", "kind")} == fields
        model = wire_action_adapter.validate_python(data)
        assert model.to_action() == parsed
        assert model.model_dump() == data
    return sent


def random_positions(
    players: int, seed: int, options: RuleOptions, driver: int, moves: int
) -> list[Round]:
    """Positions along a round played by random legal moves (plays preferred,
    so that the round moves on and reaches recycling and refills)."""
    rng = random.Random(driver)
    rnd = Round.deal(players, seed, options)
    out = [rnd.copy()]
    for _ in range(moves):
        if rnd.is_over:
            break
        # A seat whose hand and discard are used up and whose cards fit
        # nowhere has no move while the others play on: pick one that has.
        movers = [s for s in range(players) if rnd.legal_actions(s)]
        seat = rng.choice(movers)
        actions = rnd.legal_actions(seat)
        plays = [a for a in actions if isinstance(a, Play)]
        rnd.apply(seat, rng.choice(plays if plays and rng.random() < 0.6 else actions))
        if rng.random() < 0.1:
            out.append(rnd.copy())
    out.append(rnd)
    return out


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, RuleOptions, int]:
    options = RuleOptions(
        deck=draw(st.sampled_from(["ligretto", "cards"])),
        row_refill=draw(st.sampled_from(["auto", "manual"])),
        recycle_shuffle=draw(st.booleans()),
        deadlock=draw(st.sampled_from(["end", "reshuffle"])),
        row_storage=draw(st.booleans()),
    )
    players = draw(st.integers(options.min_players, min(options.max_players, 6)))
    return players, draw(st.integers(0, 2**32)), options, draw(st.integers(0, 2**32))


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), moves=st.integers(0, 400))
def test_every_structured_action_is_the_action_its_text_names(
    setup: tuple[int, int, RuleOptions, int], moves: int
) -> None:
    players, seed, options, driver = setup
    for rnd in random_positions(players, seed, options, driver, moves):
        for seat in range(players):
            sent = check_actions(rnd, seat)
            # The whole view is the engine's, with these actions in it, and
            # a remote client reads back the engine's view.
            view = json.loads(view_message(rnd, 1, 0, seat))["view"]
            assert view == view_dict(rnd.view(seat))
            assert view_from_dict(view) == rnd.view(seat)
            if rnd.is_over:
                assert sent == []
        # While the round runs, someone can move (R4: else it is over).
        assert rnd.is_over or any(rnd.legal_actions(s) for s in range(players))
        watcher = json.loads(view_message(rnd, 1, 0, None))["view"]
        assert watcher["actions"] == []


def test_random_play_reaches_every_kind_of_action() -> None:
    # The property above is only as good as the positions it sees.
    options = RuleOptions(row_refill="manual", row_storage=True)
    kinds: set[str] = set()
    for seed in range(6):
        for rnd in random_positions(2, seed, options, seed, 600):
            for seat in range(2):
                kinds |= {a["kind"] for a in check_actions(rnd, seat)}
    assert kinds == set(KEYS)


def test_an_action_object_and_an_equal_parsed_one_encode_alike() -> None:
    rnd = Round.deal(3, 11)
    first = json.loads(view_message(rnd, 1, 0, 0))["view"]["actions"]
    again = json.loads(view_message(rnd, 1, 0, 0))["view"]["actions"]
    assert first == again
    parsed = [wire_action_adapter.validate_python(a).to_action() for a in first]
    assert parsed == rnd.legal_actions(0)


def test_the_documented_example_is_what_the_server_sends() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    example = doc.split("### Legal actions", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    actions = json.loads("{" + example + "}")["actions"]
    assert {a["kind"] for a in actions} <= set(KEYS) and len(actions) >= 5
    for data in actions:
        sent = json.loads(wire_action(Action.parse(data["text"])).model_dump_json())
        assert sent == data
