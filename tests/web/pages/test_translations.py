"""Every text of the pages is in the de, en and nb catalogues, translated."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from ligretto.web.i18n import LANGUAGES, catalogue_path, choose_language, from_accept_language

ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extracted_ids() -> set[str]:
    with (ROOT / "babel.cfg").open() as cfg:
        # babel leaves parse_mapping_cfg unannotated
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    ids: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        ids.add(message[0] if isinstance(message, tuple) else message)
    return ids


def texts(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A message's id or string as a tuple: a plural's forms, or the one text
    (``None``, a string never given, as the empty text)."""
    if isinstance(value, tuple | list):
        return tuple(value)
    return (value or "",)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_is_translated(language: str) -> None:
    with catalogue_path(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    wanted = extracted_ids()
    assert len(wanted) > 100
    present = {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog if m.id}
    assert sorted(wanted - present) == [], "run python -m ligretto.web.i18n.update"
    for message in catalog:
        if not message.id:
            continue
        ids = texts(message.id)
        strings = texts(message.string)
        assert all(strings), f"{language}: untranslated {ids[0]!r}"
        # A translation uses exactly the placeholders of its text.
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(" ".join(ids))), (
                f"{language}: {text!r}"
            )


def test_the_game_words_stay_recognizable() -> None:
    for language in LANGUAGES:
        with catalogue_path(language).open("rb") as po:
            catalog = read_po(po, locale=language)
        stop = catalog.get("Two empty stacks: only one player can call Ligretto Stop.")
        assert stop is not None and "Ligretto Stop" in cast(str, stop.string)
    with catalogue_path("de").open("rb") as po:
        german = read_po(po, locale="de")
    assert german.get("Finish").string == "Beenden"  # type: ignore[union-attr]
    assert german.get("Score").string == "Werten"  # type: ignore[union-attr]


ONE_WORD = {
    # language: (a word the catalogue must not use, the one it uses for the concept)
    "de": [
        (re.compile(r"Partie"), "Spiel"),
        (re.compile(r"Telefon"), "Handy"),
        (re.compile(r"Bearbeitungslink"), "Schreiber-Link"),
        (re.compile(r"Sitzreihenfolge"), "Sitzordnung"),
    ],
    "nb": [
        (re.compile(r"(?<!på )\b[Rr]ad(en|kort\w*|sparer)?\b"), "rekke"),
        (re.compile(r"[Rr]edigeringslenke"), "førerlenke"),
    ],
}


@pytest.mark.parametrize("language", sorted(ONE_WORD))
def test_one_word_per_concept(language: str) -> None:
    """A game is "Spiel" in German on every page, never "Partie" on some of them."""
    with catalogue_path(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    strings = [text for m in catalog if m.id for text in texts(m.string)]
    for avoided, used in ONE_WORD[language]:
        assert [t for t in strings if avoided.search(t)] == [], used
        assert any(used.lower() in t.lower() for t in strings), used


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de-AT,de;q=0.9", "de"),
        ("nb-NO", "nb"),
        ("no", "nb"),
        ("nn-NO,en;q=0.5", "nb"),
        ("fr-FR, en-GB;q=0.8", "en"),
        ("fr", None),
        ("", None),
        ("de;q=0, nb;q=0.4", "nb"),
    ],
)
def test_accept_language(header: str, language: str | None) -> None:
    assert from_accept_language(header) == language


def test_an_explicit_choice_beats_the_browser() -> None:
    assert choose_language("nb", None, "de") == "nb"
    assert choose_language(None, "de", "nb") == "de"
    assert choose_language("xx", None, None) == "en"
