"""T1: one name rule — names that look alike are the same name, and a name is visible."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ligretto.tafel import Code, Game, InvalidGameError, InvalidRoundError
from ligretto.tafel.names import InvalidNameError, clean_name, name_key, printable


@pytest.mark.parametrize(
    "raw",
    [
        "Anna\u200b",  # zero-width space: looks like "Anna"
        "\u202eAnna",  # right-to-left override: reverses what follows
        "\u200b\u200b",  # only invisible characters
        "\u3164",  # Hangul filler: a "letter" that shows nothing
        "An\tna",
        "Anna\nBen",
        "Anna\ud800",  # a lone surrogate
        "\ue000Anna",  # private use
    ],
)
def test_t1_invisible_control_and_broken_characters_are_refused(raw: str) -> None:
    with pytest.raises(InvalidNameError) as err:
        clean_name(raw)
    assert err.value.code in (Code.BAD_NAME, Code.EMPTY_NAME)
    str(err.value).encode("utf-8")  # the message itself is always encodable


def test_t1_names_are_nfc_trimmed_and_spaces_folded() -> None:
    assert clean_name("  Ame\u0301lie\u00a0 Dupont ") == "Am\u00e9lie Dupont"
    assert clean_name("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # emoji sequences stay


@pytest.mark.parametrize(
    ("one", "other"),
    [("Anna", "ANNA"), ("Am\u00e9lie", "Ame\u0301lie"), ("Anna", "\uff21nna"), ("Ben", "ben ")],
)
def test_t1_names_that_look_alike_are_the_same_player(one: str, other: str) -> None:
    assert name_key(clean_name(one)) == name_key(clean_name(other))
    with pytest.raises(InvalidGameError) as err:
        Game([one, other])
    assert err.value.code is Code.DUPLICATE_NAME


def test_t1_counts_find_a_player_by_any_spelling_of_the_name() -> None:
    game = Game(["Am\u00e9lie", "Ben"])
    assert game.open_round({"AME\u0301LIE": 0, "ben": 4}).stacks == (0, 4)


def test_an_unknown_name_with_a_lone_surrogate_gives_an_encodable_error() -> None:
    game = Game(["Anna", "Ben"])
    with pytest.raises(InvalidRoundError) as err:
        game.open_round({"\ud800": 0, "Ben": 4})
    assert err.value.code is Code.UNKNOWN_PLAYER
    assert err.value.player is not None
    err.value.player.encode("utf-8")


@given(st.text(max_size=60))
def test_clean_name_either_refuses_or_gives_a_stable_visible_name(raw: str) -> None:
    try:
        name = clean_name(raw)
    except InvalidNameError as err:
        printable(err.message).encode("utf-8")
        return
    assert name == unicodedata.normalize("NFC", name) == name.strip()
    assert 0 < len(name) <= 40
    assert clean_name(name) == name
    name.encode("utf-8")
    assert name_key(clean_name(f" {name} ")) == name_key(name)
