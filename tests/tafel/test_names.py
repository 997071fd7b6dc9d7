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


# The look-alikes of the issue: other scripts' letters that are drawn like
# Latin ones, and characters that are drawn as nothing at all.
ALIKE_LETTERS = ["\u0410nna", "\u0391nna", "ANN\u0410", "\u0391NNA"]
INVISIBLE_MARKS = ["\u034f", "\ufe00", "\U000e0100", "\u180b", "\u17b4"]
DEFAULT_IGNORABLE = [
    "\u00ad", "\u034f", "\u061c", "\u115f", "\u17b4", "\u17b5", "\u180b", "\u180e", "\u180f",
    "\u200b", "\u200c", "\u200d", "\u200e", "\u202e", "\u2060", "\u2064", "\u206f", "\u3164",
    "\ufe00", "\ufe0e", "\ufe0f", "\ufeff", "\uffa0", "\U0001bca0", "\U0001d173", "\U000e0001",
    "\U000e0100", "\U000e01ef",
]  # fmt: skip


@pytest.mark.parametrize("alike", ALIKE_LETTERS)
def test_t1_a_name_in_look_alike_letters_is_the_same_player(alike: str) -> None:
    assert clean_name(alike) == alike  # a name of its own, alone at a table
    assert name_key(alike) == name_key("Anna")
    with pytest.raises(InvalidGameError) as err:
        Game(["Anna", alike])
    assert err.value.code is Code.DUPLICATE_NAME
    assert Game(["Ben", alike]).seat_of("anna") == 1


# Capitals of other scripts drawn like Latin ones, whose small letters look
# like no Latin letter (so folding case first lost them): Cyrillic and Greek.
CAPITALS = {
    "\u0412": "B", "\u041d": "H", "\u041a": "K", "\u041c": "M", "\u0422": "T", "\u0410": "A",
    "\u0415": "E", "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0425": "X",
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0397": "H", "\u0399": "I", "\u039a": "K",
    "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a7": "X",
    "\u03a5": "Y", "\u0396": "Z",
}  # fmt: skip
LATIN_NAMES = {
    "A": "Anna", "B": "Ben", "C": "Clara", "E": "Emil", "H": "Hans", "I": "Ida", "K": "Karl",
    "M": "Mia", "N": "Nina", "O": "Olga", "P": "Paul", "T": "Tom", "X": "Xaver", "Y": "Yara",
    "Z": "Zoe",
}  # fmt: skip
CAPITAL_PAIRS = sorted(
    {
        pair
        for capital, letter in CAPITALS.items()
        for name in (LATIN_NAMES[letter], LATIN_NAMES[letter].upper())
        for pair in (
            (capital + name[1:], name),  # "Вen" beside "Ben", "ВEN" beside "BEN"
            (name.upper().replace(letter, capital), LATIN_NAMES[letter]),  # "ТOM", "Tom"
        )
    }
)


@pytest.mark.parametrize(("alike", "latin"), CAPITAL_PAIRS)
def test_t1_a_capital_drawn_like_a_latin_one_makes_no_new_name(alike: str, latin: str) -> None:
    assert alike != latin
    assert name_key(alike) == name_key(latin) == name_key(latin.lower())
    with pytest.raises(InvalidGameError) as err:
        Game([latin, alike])
    assert err.value.code is Code.DUPLICATE_NAME


@pytest.mark.parametrize(
    ("alike", "latin"),
    [
        ("\u0422\u041e\u041c", "TOM"),  # Cyrillic capitals only
        ("\u0391\u039d\u039d\u0391", "Anna"),  # Greek capitals only
        ("\u039c\u0399\u0391", "Mia"),
        ("AM\u00c9LIE", "Am\u00e9lie"),  # a capital I, drawn like a small l, stays an I
    ],
)
def test_t1_whole_names_in_look_alike_capitals_are_the_same_player(alike: str, latin: str) -> None:
    assert name_key(alike) == name_key(latin)


def test_t1_latin_names_that_differ_in_a_letter_stay_two() -> None:
    for pair in (("Ella", "Elia"), ("ELLA", "ELIA"), ("Ella", "ELIA"), ("Lia", "Ida")):
        assert name_key(pair[0]) != name_key(pair[1]), pair


@pytest.mark.parametrize("mark", INVISIBLE_MARKS)
def test_t1_an_invisible_mark_after_a_name_is_refused_and_folded(mark: str) -> None:
    with pytest.raises(InvalidNameError) as err:
        clean_name(f"Anna{mark}")
    assert err.value.code is Code.BAD_NAME
    with pytest.raises(InvalidNameError):
        clean_name(f"An{mark}na")
    with pytest.raises(InvalidGameError):
        Game(["Anna", f"Anna{mark}"])
    assert name_key(f"Anna{mark}") == name_key(f"An{mark}na") == name_key("Anna")


@pytest.mark.parametrize(
    "names",
    [
        ["Ирина", "Irina", "Αλέξης", "Alexis", "山田", "Yamada"],
        ["ИРИНА", "IRINA", "ΑΛΈΞΗΣ", "ALEXIS"],
        ["Øyvind", "Oyvind", "Åse", "Ase", "Jürgen", "Jurgen"],
        ["Anna", "Anne", "Ann", "Hanna"],
    ],
)
def test_t1_names_in_one_script_or_with_their_own_letters_stay_apart(names: list[str]) -> None:
    assert Game(names).players == tuple(names)
    assert len({name_key(n) for n in names}) == len(names)


@pytest.mark.parametrize(
    ("shown", "plain"),
    [
        ("葛\U000e0100", "葛"),  # an ideographic variation sequence: the registered form
        ("\u1820\u180b\u1821", "\u1820\u1821"),  # a Mongolian free variation selector
        ("❤\ufe0f", "❤"),  # emoji presentation
    ],
)
def test_t1_variation_selectors_that_choose_a_form_stay_but_do_not_make_a_new_name(
    shown: str, plain: str
) -> None:
    assert clean_name(shown) == shown
    assert name_key(shown) == name_key(plain)
    with pytest.raises(InvalidGameError) as err:
        Game([shown, plain])
    assert err.value.code is Code.DUPLICATE_NAME


def test_t1_a_stored_game_with_names_now_alike_or_refused_still_opens() -> None:
    stored = ["Anna", "\u0410nna", "Ben\u034f"]
    game = Game.restore(
        stored,
        mode="target",
        target=99,
        agreed_rounds=None,
        deck="ligretto",
        row_storage=False,
        rounds=[],
        closed=False,
        scored=False,
    )
    assert game.players == tuple(stored)
    assert game.seat_of("Anna") == 0 and game.seat_of("Ben") == 2


@given(st.text(max_size=30))
def test_t1_a_key_is_its_own_key(name: str) -> None:
    assert name_key(name_key(name)) == name_key(name)


@given(
    st.text(max_size=30),
    st.sampled_from(DEFAULT_IGNORABLE),
    st.integers(min_value=0, max_value=30),
)
def test_t1_an_invisible_character_anywhere_makes_no_new_name(
    name: str, invisible: str, at: int
) -> None:
    at = min(at, len(name))
    assert name_key(name[:at] + invisible + name[at:]) == name_key(name)
