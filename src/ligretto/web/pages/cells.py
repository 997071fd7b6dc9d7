"""The cells of the board's rounds table, as HTML built in Python.

A long game's board has hundreds of cells.  Drawn by a template include,
each cost about as much as the rest of its row, and together they were
most of the time a 150-round board took to render; every watcher's live
board waits for that rendering (``board_push``).  The markup is the one
the template drew: points and running total, or the stack count while the
middle is not counted, and a spoken "called Ligretto Stop" for the caller.
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

from ligretto.web.pages.messages import N_
from ligretto.web.pages.rendering import format_points, gettext
from ligretto.web.pages.view import CellView

STACK = N_("stack %(count)s")
CALLED = N_("called Ligretto Stop")


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
