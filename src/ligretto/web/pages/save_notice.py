"""The line on the board confirming the save that led to it, and the Undo it offers (T6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from ligretto.store import GameNotFoundError, StoredGame, TafelService
from ligretto.store.changes import UNDOABLE
from ligretto.tafel import Game
from ligretto.web.forms import whole_number
from ligretto.web.pages.entry_form import Entry
from ligretto.web.rendering import request_language
from ligretto.web.text import N_, gettext

UNDO_SECONDS = 120
"""How long after a write its board still offers the Undo (the page's script hides it sooner)."""

UNDO_SHOWN_SECONDS = 10
"""How long the page's script shows the Undo bar after a write."""


@dataclass(frozen=True, slots=True)
class UndoOffer:
    """The Undo the board offers right after a write: what it takes back and its version."""

    text: str
    version: int
    seconds: int = UNDO_SHOWN_SECONDS


async def undo_offer(
    request: Request, service: TafelService, stored: StoredGame, notice: str | None
) -> UndoOffer | None:
    """An Undo for the write that redirected here (``?saved=3&undo=7``), if it still holds.

    Only while that write is the game's latest change (nobody changed the
    game since: its version is the game's), it changed a round, it is the
    change the notice tells of, and it is recent; the service checks all
    but the notice again when the Undo is sent. A write that changed
    nothing (a correction to the same counts) leaves the version as it
    was: the latest change is then an earlier one, which its notice does
    not name, so no Undo is offered for it.
    """
    version = whole_number(request.query_params.get("undo", ""), 9)
    if notice is None or version is None or version != stored.version:
        return None
    try:
        last = await run_in_threadpool(service.last_change, stored.id)
    except GameNotFoundError:
        return None
    if last is None or last.version != version or last.action not in UNDOABLE:
        return None
    if not _tells_of(request, last.action, last.round):
        return None
    if (datetime.now(UTC) - last.at).total_seconds() > UNDO_SECONDS:
        return None
    return UndoOffer(notice, version)


_NOTICE_ACTIONS = {
    "opened": "open_round",
    "saved": "complete_round",
    "corrected": "correct_round",
    "removed": "remove_round",
}
"""The history's action each notice of a save tells of (T6)."""


def _tells_of(request: Request, action: str, number: int | None) -> bool:
    """Whether the address's notice (``?corrected=3``) names this change: its action and round."""
    for key, expected in _NOTICE_ACTIONS.items():
        told = whole_number(request.query_params.get(key, ""), 3)
        if told is not None:
            return action == expected and number == told
    return False


def saved_notice(request: Request) -> tuple[str | None, int | None]:
    """Confirm the save that redirected here (``?saved=3`` and the like).

    Returns the sentence and the round it is about (for a "correct" link).
    """
    language = request_language(request)
    if request.query_params.get("created") == "1":
        return gettext(language, N_("Game created. Everyone can watch it on their phone:")), None
    for key, message in (
        ("opened", N_("Round %(number)s: stacks saved.")),
        ("saved", N_("Round %(number)s saved.")),
        ("corrected", N_("Round %(number)s corrected.")),
        ("removed", N_("Round %(number)s removed.")),
        ("undone", N_("Round %(number)s: last change undone.")),
    ):
        number = whole_number(request.query_params.get(key, ""), 3)
        if number is not None:
            text = gettext(language, message, number=number)
            return text, None if key in ("removed", "undone") else number
    return None, None


async def undone_entry(request: Request, service: TafelService, stored: StoredGame) -> Entry | None:
    """The step an Undo just took back (``?undone=3``), its form filled with its numbers.

    Undo (T6) of a middle saved makes the round wait for its middle again;
    of stacks saved, the round goes. The form of that step comes back with
    the numbers that had been saved (kept in the Undo's history entry), so
    a slip is mended by changing one number, not by typing all again. Only
    while the Undo is the game's latest change and the step is the board's
    next one; otherwise the forms start empty as always.
    """
    number = whole_number(request.query_params.get("undone", ""), 3)
    if number is None:
        return None
    try:
        last = await run_in_threadpool(service.last_change, stored.id)
    except GameNotFoundError:
        return None
    if last is None or last.version != stored.version or last.action != "undo":
        return None
    if last.round != number:
        return None
    return refill(stored.game, number, last.detail)


def refill(game: Game, number: int, detail: dict[str, Any]) -> Entry | None:
    """The form of round *number*'s next step with the counts an Undo took back (*detail*)."""
    undone = detail.get("undone")
    entry = Entry()
    pending = game.pending_round
    if undone == "complete_round" and pending is not None and pending.number == number:
        counts = _by_seat(game, (detail.get("before") or {}).get("middle"))
        if counts is None:
            return None
        for seat, count in enumerate(counts):
            entry.values[f"middle-{seat}"] = str(count)
        return entry
    if undone == "open_round" and game.accepts_new_round and len(game.rounds) + 1 == number:
        counts = _by_seat(game, (detail.get("removed") or {}).get("stacks"))
        if counts is None:
            return None
        for seat, count in enumerate(counts):
            entry.values[f"stack-{seat}"] = str(count)
            if count == 0:
                entry.values[f"stop-{seat}"] = "1"  # the caller's box ticked again (T2)
        return entry
    return None


def _by_seat(game: Game, counts: object) -> list[int] | None:
    """Counts by name as a list in seating order; None unless every player has a whole one."""
    if not isinstance(counts, dict):
        return None
    seated = [counts.get(name) for name in game.players]
    if not all(isinstance(count, int) and not isinstance(count, bool) for count in seated):
        return None
    return [int(count) for count in seated if isinstance(count, int)]
