"""The views' JSON is the text the protocol documents, whichever encoder writes it.

The hot path (``ligretto.live.encoder``) writes a view's parts with orjson;
docs/protocol.md and the replays promise the text the standard library's
compact encoder gives (no spaces, UTF-8, keys in order), byte for byte.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ligretto.live import encoder
from ligretto.rules import Round

_STDLIB = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

# What a view's parts hold: text (any language, control characters too),
# whole numbers, flags and nothing, in lists and objects.
_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)


@given(_values)
def test_a_parts_text_is_the_standard_librarys_compact_json(value: Any) -> None:
    assert encoder._dumps(value) == _STDLIB(value)


def test_every_view_of_random_rounds_is_the_text_the_standard_encoder_gives(
    monkeypatch: Any,
) -> None:
    def views() -> list[str]:
        encoder._PART_JSON.clear()  # every part encoded afresh
        rng = random.Random(5)
        texts = []
        for seed in range(60):
            rnd = Round.deal(players=2 + seed % 7, seed=seed)
            for _ in range(rng.randrange(0, 150)):
                seat = rng.randrange(rnd.players)
                actions = rnd.legal_actions(seat)
                if rnd.is_over or not actions:
                    break
                rnd.apply(seat, rng.choice(actions))
            texts += [encoder.view_message(rnd, 1, 0, s) for s in [None, *range(rnd.players)]]
        return texts

    fast = views()
    monkeypatch.setattr(encoder, "_dumps", _STDLIB)
    assert views() == fast
    assert len(fast) > 300
