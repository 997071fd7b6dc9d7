"""A table code as a person types it: case, spaces and look-alikes forgiven."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ligretto.live.registry import CODE_ALPHABET, CODE_LENGTH, CODE_LOOKALIKES, typed_code

codes = st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH)
LOOKALIKES = {chr(k): v for k, v in CODE_LOOKALIKES.items()}


@given(codes)
def test_a_code_is_itself(code: str) -> None:
    assert typed_code(code) == code


@given(codes, st.lists(st.sampled_from([" ", "  ", "-", "\t", "\u00a0"]), max_size=4), st.data())
def test_case_and_spaces_are_forgiven(code: str, gaps: list[str], data: st.DataObject) -> None:
    typed = list(code.lower())
    for gap in gaps:
        typed.insert(data.draw(st.integers(0, len(typed))), gap)
    assert typed_code(" " + "".join(typed) + " ") == code


@given(codes, st.data())
def test_a_lookalike_is_read_as_the_code_letter(code: str, data: st.DataObject) -> None:
    # Each letter as itself or as one of the characters read for it; an L
    # typed as the lower-case l it most looks like.
    meant = {v: [k for k, w in LOOKALIKES.items() if w == v] for v in LOOKALIKES.values()}
    typed = "".join(
        data.draw(st.sampled_from([ch, *(k.replace("L", "l") for k in meant.get(ch, []))]))
        for ch in code
    )
    assert typed_code(typed) == code


def test_every_lookalike_means_a_letter_of_the_alphabet() -> None:
    assert LOOKALIKES.keys().isdisjoint(CODE_ALPHABET)
    assert set(LOOKALIKES.values()) <= set(CODE_ALPHABET)
    assert typed_code("8dz at9") == "8DZAT9"
    assert typed_code("ＡＢＣ２３４") == "ABC234"  # a full-width keyboard
    assert typed_code("oo11ll") == "QQJJJJ"


@given(st.text(max_size=80))
def test_anything_typed_is_a_code_or_nothing(text: str) -> None:
    code = typed_code(text)
    if code is not None:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
        assert typed_code(code) == code


def test_too_short_or_long_is_no_code() -> None:
    assert typed_code("") is None
    assert typed_code("ABC23") is None
    assert typed_code("ABC2345") is None
    assert typed_code("ABC 23?") is None
