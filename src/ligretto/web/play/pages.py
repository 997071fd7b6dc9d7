"""The table form: open a table (``/play``), with a group picked or not.

Server-rendered in the reader's language like the Tafel pages
(``templates/play/new.html``); a refused form comes back filled in.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ligretto.bots import strategy_names
from ligretto.live.registry import TableCapError
from ligretto.live.scoring.keeper import GroupLink
from ligretto.rules.options import MAX_PLAYERS, MIN_PLAYERS, player_limits
from ligretto.tafel.errors import Code
from ligretto.tafel.limits import DEFAULT_ROUNDS, DEFAULT_TARGET, MAX_AGREED_ROUNDS, MAX_TARGET
from ligretto.tafel.names import InvalidNameError, clean_name
from ligretto.web.errors import ApiError
from ligretto.web.forms import whole_field
from ligretto.web.play.app_tables import lobby_of, registry_of, to_table
from ligretto.web.play.levels import LEVEL_NAMES, level_seconds, level_strength
from ligretto.web.play.lobby_api import LobbyTable, lobby_tables
from ligretto.web.play.table_spec import (
    BotIn,
    CreateTable,
    EndIn,
    GroupIn,
    OptionsIn,
    checked_group,
    create_table,
)
from ligretto.web.rendering import render, request_language

router = APIRouter(include_in_schema=False)

MAX_SEATS = MAX_PLAYERS  # R1
# Strategies offered on the page, the stronger ones first.
OFFERED = ("watchful", "race-aware", "stack-first", "greedy", "random")


def offered_strategies() -> list[str]:
    known = strategy_names()
    return [s for s in OFFERED if s in known] + [s for s in known if s not in OFFERED]


def form_defaults() -> dict[str, Any]:
    return {
        "name": "",
        "seats": 4,
        "deck": "ligretto",
        "row_refill": "auto",
        "recycle_shuffle": True,
        "deadlock": "end",
        "row_storage": False,
        "mode": "target",
        "target": str(DEFAULT_TARGET),
        "target_other": "",
        "rounds": DEFAULT_ROUNDS,
        # Seat 1 is the host; by default the other three are bots.
        "seat_kinds": ["watchful", "stack-first", "greedy"] + ["open"] * (MAX_SEATS - 4),
        "seat_levels": ["medium"] * (MAX_SEATS - 1),
        # The group the games are recorded into (hidden fields; the name
        # is shown once the token is checked).
        "group": "",
        "group_token": "",
        "group_name": "",
        # Listed in the lobby for strangers (private by default).
        "public": False,
    }


#: The form's error code for each refusal of a group (``checked_group``).
GROUP_ERRORS = {"group_not_found": "group_missing", "forbidden": "group_forbidden"}


async def read_group(
    request: Request, data: FormData, form: dict[str, Any], token_field: str = "group_token"
) -> tuple[GroupLink | None, str | None, int]:
    """The group picked on the form (hidden fields ``group``, ``group_token``).

    Returns the checked link, else the form's error code and the status of
    the refusal (404 no such group, 403 a wrong token); fills in the
    group's name for the page.
    """
    value, token = data.get("group", ""), data.get(token_field, "")
    group_id = value.strip()[:64] if isinstance(value, str) else ""
    group_token = token.strip()[:200] if isinstance(token, str) else ""
    form.update(group=group_id, group_token=group_token)
    if not group_id:
        return None, None, 200
    if not group_token:
        return None, "group_forbidden", 403
    try:
        link = await checked_group(request.app, GroupIn(id=group_id, token=group_token))
    except ApiError as exc:
        return None, GROUP_ERRORS.get(exc.code, "group_missing"), exc.status
    assert link is not None  # a group was given
    try:
        stored = await run_in_threadpool(request.app.state.groups.get_group, link.id)
    except LookupError:  # deleted in between
        return None, "group_missing", 404
    form["group_name"] = stored.name
    return link, None, 200


def name_error_code(raw: str, *, required: bool) -> str | None:
    """The form's error code for a name, or ``None`` if it is a good one.

    The one name rule (T1, ``ligretto.tafel.names``): what the table
    accepts, its Tafel game accepts too.  An empty field is fine where a
    name is optional (the host only hosts and watches).
    """
    if not raw.strip():
        return "name" if required else None
    try:
        clean_name(raw)
    except InvalidNameError as exc:
        return "name_too_long" if exc.code is Code.NAME_TOO_LONG else "bad_name"
    return None


def busy_page(request: Request, form: dict[str, Any], exc: TableCapError) -> HTMLResponse:
    """The table cap (503): the form comes back filled in, with when to retry."""
    page = new_page(request, form, ["busy"], 503)
    page.headers["Retry-After"] = str(exc.retry_after)
    return page


def _unknown_bots(form: dict[str, Any], seats: int) -> list[tuple[int, str, str]]:
    """(seat number as shown, field, value) for every bot choice no select offers.

    Only a forged form gets here (the selects offer only the R7 strategies
    and the bot levels); naming the seat and the value tells the sender what
    was refused instead of the generic seat-count message.
    """
    strategies = set(strategy_names())
    unknown: list[tuple[int, str, str]] = []
    for i, kind in enumerate(form["seat_kinds"][: max(0, seats - 1)]):
        if kind == "open":
            continue
        if kind not in strategies:
            unknown.append((i + 2, "strategy", kind))  # seat 1 is the host's
        if form["seat_levels"][i] not in LEVEL_NAMES:
            unknown.append((i + 2, "level", form["seat_levels"][i]))
    return unknown


def new_page(
    request: Request,
    form: dict[str, Any],
    errors: list[str],
    status: int = 200,
    unknown: list[tuple[int, str, str]] | None = None,
    open_tables: list[LobbyTable] | None = None,
    farewell: str | None = None,
) -> HTMLResponse:
    return render(
        request,
        "play/new.html",
        {
            "form": form,
            "errors": errors,
            "unknown": unknown or [],
            "strategies": offered_strategies(),
            "levels": LEVEL_NAMES,
            "level_seconds": level_seconds(),
            "level_strength": level_strength(),
            "max_seats": MAX_SEATS,
            # The lobby's public tables (the page's script keeps them fresh).
            "open_tables": open_tables or [],
            # How long a quick match waits for people before bots fill it.
            "match_wait": round(registry_of(request.app).settings.match_wait),
            # Back from a table this person left, or whose host removed
            # them (table.js): "left", "removed" or None.
            "farewell": farewell,
        },
        status_code=status,
        path="/play",
    )


@router.get("/play", response_class=HTMLResponse)
async def new_table_page(request: Request) -> HTMLResponse:
    query = request.query_params
    farewell = next((word for word in ("removed", "left") if query.get(word) == "1"), None)
    tables = await lobby_tables(request.app)
    return new_page(request, form_defaults(), [], open_tables=tables, farewell=farewell)


@router.post("/play", response_model=None)
async def new_table(request: Request) -> Response:
    """Open a table from the form; the host lands at the table with their token."""
    data = await request.form()

    def text(key: str, default: str = "") -> str:
        value = data.get(key, default)
        return value.strip() if isinstance(value, str) else default

    form = form_defaults()
    form.update(
        name=text("name"),
        seats=text("seats", "4"),
        deck="cards" if text("deck") == "cards" else "ligretto",
        row_refill="manual" if text("row_refill") == "manual" else "auto",
        recycle_shuffle=text("recycle_shuffle", "1") != "0",
        deadlock="reshuffle" if text("deadlock") == "reshuffle" else "end",
        row_storage=bool(text("row_storage")),
        public=bool(text("public")),
        mode="rounds" if text("mode") == "rounds" else "target",
        target=text("target", "99"),
        target_other=text("target_other"),
        rounds=text("rounds", "8"),
        seat_kinds=[text(f"seat{i}", "open") for i in range(1, MAX_SEATS)],
        seat_levels=[text(f"level{i}", "medium") for i in range(1, MAX_SEATS)],
    )
    # Refusals travel as codes; play/new.html words them in the reader's language.
    errors: list[str] = []
    group, group_error, group_status = await read_group(request, data, form)
    if group_error is not None:
        errors.append(group_error)
    seats = whole_field(form["seats"])
    target = whole_field(form["target_other"] if form["target"] == "other" else form["target"])
    rounds = whole_field(form["rounds"])
    name_error = name_error_code(form["name"], required=False)
    if name_error is not None:
        errors.append(name_error)  # T1
    if seats is None or not MIN_PLAYERS <= seats <= player_limits(form["deck"])[1]:
        errors.append("seats")  # R1
    if (
        target is None
        or not 1 <= target <= MAX_TARGET
        or rounds is None
        or not 1 <= rounds <= MAX_AGREED_ROUNDS
    ):
        errors.append("end")  # T1
    if errors or seats is None or target is None or rounds is None:
        # A refused group alone answers like the group API (403/404).
        status = group_status if errors == [group_error] else 422
        return new_page(request, form, errors, status)
    unknown = _unknown_bots(form, seats)
    if unknown:
        return new_page(request, form, [], 422, unknown)
    bots = [
        BotIn(seat=i + 1, strategy=kind, level=form["seat_levels"][i])
        for i, kind in enumerate(form["seat_kinds"][: max(0, seats - 1)])
        if kind != "open"
    ]
    try:
        spec = CreateTable(
            seats=seats,
            name=clean_name(form["name"]) if form["name"] else None,
            options=OptionsIn(
                deck=form["deck"],
                row_refill=form["row_refill"],
                recycle_shuffle=form["recycle_shuffle"],
                deadlock=form["deadlock"],
                row_storage=form["row_storage"],
            ),
            end=EndIn(mode=form["mode"], target=target, rounds=rounds),
            bots=bots,
            public=form["public"],
        )
    except ValidationError:  # anything the checks above let through
        return new_page(request, form, ["seats"], 422)
    try:
        table = create_table(registry_of(request.app), spec, group, request_language(request))
    except TableCapError as exc:
        return busy_page(request, form, exc)
    if spec.public:
        await lobby_of(request.app).sync()  # listed before the host's page loads
    return to_table(table)


@router.post("/play/group", response_class=HTMLResponse)
async def group_table_page(request: Request) -> HTMLResponse:
    """The form with a group picked: the group page's "Play online with this
    group" button without JavaScript (its id and token in the form body)."""
    data = await request.form()
    form = form_defaults()
    _, error, status = await read_group(request, data, form)
    if error is not None:
        form.update(group="", group_token="")
        return new_page(request, form, [error], status)
    return new_page(request, form, [])
