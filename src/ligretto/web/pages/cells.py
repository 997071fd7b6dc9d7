"""The cells and rows of the board's rounds table, as HTML built in Python.

A long game's board has hundreds of cells.  Drawn by a template include,
each cost about as much as the rest of its row, and together they were
most of the time a 150-round board took to render; every watcher's live
board waits for that rendering (``board_push``).  The markup is the one
the template drew: points and running total, or the stack count while the
middle is not counted, and a spoken "called Ligretto Stop" for the caller.

The rows themselves are kept (:class:`RowWriter`): after a new round every
earlier row of the game is the same, so a 550-round board writes one new
row instead of 550. Every watcher's live board waits for that rendering
(in the board process, ``board_worker``, or in a thread of the server,
where a round entered at the same moment waits for it too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from markupsafe import Markup, escape

from ligretto.web.pages.view import ROUND_VIEWS_KEPT, CellView, RoundView
from ligretto.web.text import N_, format_points, gettext

STACK = N_("stack %(count)s")
CALLED = N_("called Ligretto Stop")
CORRECT = N_("Correct round %(number)s")
REPLAY = N_("Watch round %(number)s again")


class CellWriter:
    """Writes cells in one language (a template global: ``cells(…)``)."""

    def __init__(self, language: str) -> None:
        self._stack = gettext(language, STACK)
        self._called = str(escape(gettext(language, CALLED)))

    def __call__(self, cells: Iterable[CellView]) -> Markup:
        """The ``<td>`` of each cell."""
        return Markup("".join([self._cell(c) for c in cells]))

    def _cell(self, c: CellView) -> str:
        negative = c.points is not None and c.points < 0
        classes = ("caller" if c.caller else "") + (" neg" if negative else "")
        if c.points is not None:
            body = (
                f'<span class="pts">{format_points(c.points)}</span>'
                f'<span class="sum">{format_points(c.total)}</span>'
            )
        else:
            stack = escape(self._stack % {"count": c.stack})
            body = f'<span class="pts">…</span><span class="sum">{stack}</span>'
        if c.caller:
            body += f'<span class="visually-hidden">, {self._called}</span>'
        return f'<td class="{classes}">{body}</td>'


class RowWriter:
    """Writes the rows of the rounds table in one language (a template global: ``rows(…)``).

    A row depends on its round's view and on the edit page's base (its round
    number links to the correction there), nothing else; rows are kept by
    both. Round views are kept and handed out again by
    :func:`~ligretto.web.pages.view.round_view`, so this finds a row by a
    view that is the same object as last time.
    """

    def __init__(self, language: str, cells: CellWriter) -> None:
        self._cells = cells
        self._correct = gettext(language, CORRECT)
        self._replay = gettext(language, REPLAY)
        self._row = lru_cache(maxsize=2 * ROUND_VIEWS_KEPT)(self._write)

    def __call__(
        self,
        rounds: Iterable[RoundView],
        edit_base: str | None,
        replays: Mapping[int, str] | None = None,
    ) -> Markup:
        """The ``<tr>`` of each round, in order; ``replays``: the replay
        page of each round an online table kept (by round number)."""
        row = self._row
        links = replays or {}
        # The template's own line break follows the last row.
        return Markup(
            "".join([row(r, edit_base, links.get(r.number)) for r in rounds]).removesuffix("\n")
        )

    def replay_link(self, number: int, href: str) -> str:
        """The link to a round's replay page, beside its number (the same
        in the rows, the turned table's heads and the offline board)."""
        label = escape(self._replay % {"number": number})
        return (
            f' <a class="replay-link" href="{escape(href)}" aria-label="{label}" '
            f'title="{label}">▶</a>'
        )

    def _write(self, r: RoundView, edit_base: str | None, replay: str | None) -> str:
        pending = "" if r.complete else ' class="pending"'
        if edit_base:
            label = escape(self._correct % {"number": r.number})
            head = (
                f'<a class="round-link" href="{escape(edit_base)}/rounds/{r.number}" '
                f'aria-label="{label}">{r.number}</a>'
            )
        else:
            head = str(r.number)
        if replay is not None:
            head += self.replay_link(r.number, replay)
        cells = self._cells(r.cells)
        return f'  <tr{pending}>\n    <th scope="row">{head}</th>\n{cells}\n  </tr>\n'


def board_globals(language: str) -> dict[str, object]:
    """The rounds table's ``cells`` and ``rows`` for the board's templates:
    made once per language, as they are asked for hundreds of times in a
    long game (given to every environment by :mod:`ligretto.web.pages`)."""
    cells = CellWriter(language)
    return {"cells": cells, "rows": RowWriter(language, cells)}
