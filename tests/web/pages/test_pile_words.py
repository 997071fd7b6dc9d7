"""One word per thing: a player's own Ligretto stack and a pile in the
middle are never called the same (docs/rules.md, "The words the pages use").

English says *stack* and *pile*, German *Stapel* and *Farbstapel* (source
000's word for the piles of one colour in the middle), Norwegian *bunke*
and *byggebunke* (source 001's). Every text of the catalogues that speaks
of a middle pile uses the middle's word, and every text that speaks of the
own stack avoids it; the pages written in each language (rules,
accessibility) do the same where they give the screen reader's examples.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ligretto.web.i18n import catalogue_path

TEMPLATES = Path(__file__).resolve().parents[3] / "src" / "ligretto" / "web" / "templates"

# (the own stack's word, the middle pile's word) as whole words.
WORDS = {"de": (r"Stapel", r"Farbstapel"), "nb": (r"[Bb]unke", r"[Bb]yggebunke")}

# An English text about a middle pile: "pile" that is no discard pile.
MIDDLE = re.compile(r"(?<!discard )\bpiles?\b", re.IGNORECASE)
OWN = re.compile(r"\bstacks?\b", re.IGNORECASE)


def catalogue(language: str) -> dict[str, str]:
    with catalogue_path(language).open("rb") as po:
        found = read_po(po, locale=language)
    return {m.id: m.string for m in found if isinstance(m.id, str) and isinstance(m.string, str)}


@pytest.mark.parametrize("language", WORDS)
def test_a_middle_pile_has_a_word_of_its_own(language: str) -> None:
    own, middle = WORDS[language]
    middle_word = re.compile(rf"\b{middle}")
    # "Stapel" standing alone (not the end of "Farbstapel"/"Ablagestapel").
    own_word = re.compile(rf"(?<![\w-]){own}")
    about_middle = {i: s for i, s in catalogue(language).items() if MIDDLE.search(i)}
    assert len(about_middle) >= 10, about_middle
    for english, text in about_middle.items():
        assert middle_word.search(text), f"{language}: {english!r} -> {text!r}"
        if not OWN.search(english):
            assert not own_word.search(text), f"{language}: {english!r} -> {text!r}"
    for english, text in catalogue(language).items():
        if OWN.search(english) and not MIDDLE.search(english):
            assert not middle_word.search(text), f"{language}: {english!r} -> {text!r}"


def test_the_reader_moves_say_both_words_apart() -> None:
    """The move the issue heard as "rot 5 vom Stapel auf Stapel 5"."""
    de, nb = catalogue("de"), catalogue("nb")
    move = "Play {card} {from} on pile {pile}"
    said = de[move].format(card="rot 5", **{"from": de["from the stack"]}, pile=5)
    assert said == "rot 5 vom Stapel auf Farbstapel 5 legen"
    said = nb[move].format(card="rød 5", **{"from": nb["from the stack"]}, pile=5)
    assert said == "Legg rød 5 fra bunken på byggebunke 5"


@pytest.mark.parametrize("language", WORDS)
def test_the_accessibility_page_gives_the_same_examples(language: str) -> None:
    _own, middle = WORDS[language]
    page = (TEMPLATES / "accessibility" / f"{language}.html").read_text()
    # Every "<word> 3" example of a play names a middle pile by its word.
    numbered = re.findall(r"(\w+) \d\b", page)
    piles = [w for w in numbered if re.fullmatch(rf"{middle}|{_own}", w)]
    assert piles, page[:200]
    assert all(re.fullmatch(middle, w) for w in piles), piles
