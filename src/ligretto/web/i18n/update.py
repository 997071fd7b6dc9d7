"""Refresh the catalogues after texts changed: ``python -m ligretto.web.i18n.update``.

Extracts every marked text of the pages (``babel.cfg``) and merges it into
the de, en and nb ``.po`` files; new texts arrive untranslated (the page
test ``test_every_text_is_translated`` then names them). English texts are
their own translation and are filled in here.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from ligretto.web.i18n import CATALOGUE_DIR, LANGUAGES, catalogue_path

ROOT = CATALOGUE_DIR.parents[3]


def main() -> None:
    pybabel = str(Path(sys.executable).with_name("pybabel"))
    with tempfile.TemporaryDirectory() as tmp:
        pot = Path(tmp) / "messages.pot"
        subprocess.run(
            [
                pybabel,
                "-q",
                "extract",
                "-F",
                str(ROOT / "babel.cfg"),
                "-k",
                "N_",
                "--no-location",
                "--omit-header",
                "-o",
                str(pot),
                str(ROOT),
            ],
            check=True,
        )
        for language in LANGUAGES:
            command = "update" if catalogue_path(language).exists() else "init"
            subprocess.run(
                [
                    pybabel,
                    "-q",
                    command,
                    "-i",
                    str(pot),
                    "-d",
                    str(CATALOGUE_DIR),
                    "-l",
                    language,
                    "--no-wrap",
                ]
                + (["--no-fuzzy-matching", "--ignore-obsolete"] if command == "update" else []),
                check=True,
            )
    english = catalogue_path("en")
    with english.open("rb") as po:
        catalog = read_po(po, locale="en")
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and not all(strings):
            message.string = message.id
    with english.open("wb") as po:
        write_po(po, catalog, omit_header=False, no_location=True, width=0)


if __name__ == "__main__":
    main()
