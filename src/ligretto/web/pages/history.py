"""The change history of a game (T6): every entry, correction and removal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from babel.dates import format_datetime
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import GameNotFoundError, HistoryEntry, StoredGame
from ligretto.web.pages.deps import GameDep, Service, edit_base, watch_path
from ligretto.web.pages.error_pages import not_found
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, format_points, gettext

router = APIRouter()

ACTIONS: dict[str, str] = {
    "create": N_("Game created"),
    "import": N_("Game imported"),
    "open_round": N_("Round %(number)s: stacks entered"),
    "complete_round": N_("Round %(number)s: middle entered"),
    "correct_round": N_("Round %(number)s corrected"),
    "remove_round": N_("Round %(number)s removed"),
    "finish": N_("Game finished"),
    "score": N_("Game scored"),
    "undo": N_("Round %(number)s: last change undone"),
}


@dataclass(frozen=True, slots=True)
class HistoryLine:
    when: str
    iso: str
    what: str
    details: tuple[str, ...]


def _counts(language: str, label: str, counts: Mapping[str, Any] | None) -> str | None:
    if not counts:
        return None
    values = ", ".join(f"{name} {format_points(int(v))}" for name, v in counts.items())
    return f"{gettext(language, label)}: {values}"


def _changes(language: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What a correction changed, per count: "Middle: Ben 14 → 16" (T6)."""
    lines = []
    for key, label in (("stacks", N_("Stacks")), ("middle", N_("Middle"))):
        old, new = before.get(key) or {}, after.get(key) or {}
        changed = [
            f"{name} {_number(old.get(name))} → {_number(new.get(name))}"
            for name in new
            if old.get(name) != new.get(name)
        ]
        if changed:
            lines.append(f"{gettext(language, label)}: {', '.join(changed)}")
    return lines or [gettext(language, N_("no numbers changed"))]


def _number(value: Any) -> str:
    return "–" if value is None else format_points(int(value))


def _details(language: str, detail: Mapping[str, Any]) -> list[str]:
    before, after = detail.get("before"), detail.get("after")
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        return _changes(language, before, after)
    lines: list[str] = []
    removed = detail.get("removed")
    counts = removed if isinstance(removed, Mapping) else detail
    for key, label in (("stacks", N_("Stacks")), ("middle", N_("Middle"))):
        line = _counts(language, label, counts.get(key))
        if line:
            lines.append(line)
    if detail.get("confirmed"):
        lines.append(gettext(language, N_("confirmed as entered")))
    winners = detail.get("winners")
    if isinstance(winners, Sequence) and winners and not isinstance(winners, str):
        names = " & ".join(map(str, winners))
        lines.append(gettext(language, N_("Winners: %(names)s"), names=names))
    return lines


def history_lines(language: str, entries: Sequence[HistoryEntry]) -> list[HistoryLine]:
    """The entries, newest first, in the reader's language."""
    lines = []
    for entry in reversed(entries):
        template = ACTIONS.get(entry.action, N_("Change"))
        lines.append(
            HistoryLine(
                when=format_datetime(entry.at, "medium", locale=language),
                iso=entry.at.isoformat(),
                what=gettext(language, template, number=entry.round or 0),
                details=tuple(_details(language, entry.detail)),
            )
        )
    return lines


async def _history(
    request: Request, service: Service, stored: StoredGame, *, editing: bool
) -> Response:
    """The history page; not *editing* is the watchers' read-only copy (T6).

    The watch copy links back to the watch page and never carries the edit
    token or any edit control: anyone with the game id may read it, as the
    JSON ``GET /api/games/{id}/history`` already allows.
    """
    game_id = stored.id
    try:
        entries = await run_in_threadpool(service.history, game_id)
    except GameNotFoundError:
        return not_found(request)
    language = request_language(request)
    base = edit_base(game_id) if editing else watch_path(game_id)
    return render(
        request,
        "history.html",
        {
            "lines": history_lines(language, entries),
            "back": base,
            "players": stored.game.players,
        },
        path=f"{base}/history",
    )


@router.get("/g/{game_id}/history", response_class=HTMLResponse)
async def watch_history_page(request: Request, stored: GameDep, service: Service) -> Response:
    return await _history(request, service, stored, editing=False)


@router.get("/g/{game_id}/edit/history", response_class=HTMLResponse)
async def history_page(request: Request, stored: GameDep, service: Service) -> Response:
    # The history is public (the watch copy has it too); only the way back differs.
    return await _history(request, service, stored, editing=True)
