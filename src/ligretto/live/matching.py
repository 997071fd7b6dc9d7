"""Quick match: people who ask within a short wait play at one table.

The first person to ask (``POST /api/lobby/match``) opens a table nobody
hosts, tagged :data:`~ligretto.live.state.MATCH` and public, so that the
lobby lists it for every process; whoever asks next with the same language
and table size, on any process, is sent to it while its wait lasts
(:func:`match_for`).  When the wait is over (``TableSettings.match_wait``)
bots fill the empty chairs and the game starts (:func:`fill_and_start`,
inside the table's actor), if anybody is still seated.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from ligretto.bots import Level
from ligretto.live import lifecycle
from ligretto.live.lobby import make_public
from ligretto.live.phase import Phase
from ligretto.live.registry import TableRegistry
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.state import FILLS_TAG, MATCH
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.store.lobby import Listed

#: The bots that fill a quick match's empty chairs, in turn (docs/bots.md):
#: the quick game's mix, so a matched table feels like one.
FILL_BOTS: Sequence[tuple[str, Level]] = (
    ("watchful", Level.MEDIUM),
    ("stack-first", Level.MEDIUM),
    ("greedy", Level.MEDIUM),
)


def match_for(
    listed: Sequence[Listed], now: datetime, language: str, players: int, wait: float
) -> Listed | None:
    """The table someone asking now joins: a quick match's table in this
    language and size, with a free chair, whose wait is not over; the
    longest waiting first.  ``None``: open a new one."""
    for entry in listed:
        item = entry.listing
        if (
            item.match
            and item.language == language
            and item.seats == players
            and item.free_seats > 0
            and now - entry.opened_at < timedelta(seconds=wait)
        ):
            return entry
    return None


def open_match(registry: TableRegistry, language: str, players: int) -> Table:
    """A new quick match's table: nobody hosts it, it is public, and its
    empty chairs are filled with bots once the wait is over."""
    settings = registry.settings
    table = registry.create(seats=players, options=RuleOptions(), end=EndCondition("target", 99))
    clock = table.settings.clock
    table.tags |= {MATCH, f"{FILLS_TAG}{clock.now() + settings.match_wait:.3f}"}
    make_public(table, True, language)
    clock.call_later(settings.match_wait, lambda: table.call(lambda: fill_and_start(table)))
    return table


def fill_and_start(table: Table) -> None:
    """The wait is over (in the actor): bots take the empty chairs and the
    game starts, if a person still sits there (else the table waits to be
    closed as idle)."""
    state = table.state
    if state.phase != Phase.LOBBY:
        return
    # Those who cancelled (left the page) before the start are not waited for.
    for seat in list(state.seating):
        if seat.kind == "human" and not seat.conns:
            state.seating.remove(seat.index)
    if not any(seat.kind == "human" for seat in state.seating):
        # Nobody came or stayed: off the lobby, closed later as idle.
        make_public(table, False)
        table.broadcast_table()
        return
    for turn, seat in enumerate([s for s in state.seating if s.kind == "empty"]):
        strategy, level = FILL_BOTS[turn % len(FILL_BOTS)]
        state.seating.put_bot(seat.index, strategy, level.value)
    lifecycle.begin_game(table)
    table.broadcast_table()
    table.note()
