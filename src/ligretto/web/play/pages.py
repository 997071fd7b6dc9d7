"""The pages of online play: open a table, and the table itself.

Server-rendered in the reader's language like the Tafel pages; the game
runs in ``static/play/table.js`` over the WebSocket (docs/protocol.md).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ligretto.bots import LEVELS, Level, strategy_names
from ligretto.live.registry import TableCapError, typed_code
from ligretto.live.scorekeeping import EndCondition, GroupLink
from ligretto.live.seating import BotSpec
from ligretto.rules.options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions, player_limits
from ligretto.rules.round import Round
from ligretto.simulate.calibrate import level_ratings, load_table
from ligretto.store.live_tables import TableElsewhereError
from ligretto.tafel.errors import Code
from ligretto.tafel.limits import DEFAULT_ROUNDS, DEFAULT_TARGET, MAX_AGREED_ROUNDS, MAX_TARGET
from ligretto.tafel.names import InvalidNameError, clean_name
from ligretto.web.deps import absolute
from ligretto.web.forms import whole_field
from ligretto.web.pages.rendering import render, request_language
from ligretto.web.pages.text import N_, gettext
from ligretto.web.play.routes import (
    ELSEWHERE_RETRY,
    BotIn,
    CreateTable,
    EndIn,
    GroupIn,
    OptionsIn,
    PlayApiError,
    checked_group,
    create_table,
    registry_of,
)
from ligretto.web.qr import qr_svg_document
from ligretto.web.routing_headers import opened_table

router = APIRouter(include_in_schema=False)

MAX_SEATS = MAX_PLAYERS  # R1
# Strategies offered on the page, the stronger ones first.
OFFERED = ("watchful", "race-aware", "stack-first", "greedy", "random")
LEVEL_NAMES = tuple(level.value for level in Level)
# "Quick game against 3 bots": the person in seat 1 and three medium bots of
# different styles (docs/bots.md, R7): one strong (watchful), one that plays
# the stack first, one that simply plays whatever fits -- a table that feels
# varied and beatable.  Default rules, a game to 99 points (T1).
QUICK_BOTS = (("watchful", Level.MEDIUM), ("stack-first", Level.MEDIUM), ("greedy", Level.MEDIUM))
# The practice round: one person against one bot that plays whatever fits,
# at the easy level slowed down by half again (about 5 s for a card), one
# round; the page shows hints from the legal actions (docs/online-play.md).
PRACTICE_BOT = ("greedy", Level.EASY)
PRACTICE_PACE = 1.5
# The practice round's deals: seeds of two-player deals (R2) in which the
# newcomer, following the hints, plays a 1 to the middle with the very first
# move and then keeps finding cards that fit, with a few "turn three" in
# between (tests/web/play/test_practice_deal.py checks every one with the
# engine).  A random deal often starts with half a minute of turning three.
PRACTICE_SEEDS = (725, 819, 1063, 1440, 1471, 797)
# Tags of tables whose host's page starts the game as soon as it has the
# table (a quick game, a practice round), and of the practice tables
# (hints); kept with the table, so a restored table keeps them.
AUTOSTART = "autostart"
PRACTICE = "practice"


def practice_deal(players: int, seed: int, options: RuleOptions) -> Round:
    """The practice table's dealer: one of the chosen deals, picked by the
    table's own random number (so practice rounds differ from each other)."""
    return Round.deal(players, PRACTICE_SEEDS[seed % len(PRACTICE_SEEDS)], options)


def level_seconds(pace: float = 1.0) -> dict[str, float]:
    """Each level's typical time for a card that fits (notice + move, docs/bots.md)."""
    return {
        level.value: round((model.notice_median + model.move_median) * pace, 1)
        for level, model in LEVELS.items()
    }


def _skill(value: int) -> str:
    """A whole skill with a true minus sign (the easy bots rate below zero)."""
    return f"\u2212{-value}" if value < 0 else str(value)


@functools.cache
def level_strength() -> dict[str, Any]:
    """Each level's skill on the groups' OpenSkill scale, from the stored
    calibration (``ligretto calibrate``, docs/bots.md): the range over the
    rated strategies, weakest to strongest, and how many games it rests on."""
    table = load_table()
    return {
        "games": table["games"],
        "levels": {
            row.level: _skill(row.low)
            if row.low == row.high
            else f"{_skill(row.low)} … {_skill(row.high)}"
            for row in level_ratings(table)
        },
    }


def _strategies() -> list[str]:
    known = strategy_names()
    return [s for s in OFFERED if s in known] + [s for s in known if s not in OFFERED]


def _form_defaults() -> dict[str, Any]:
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
    }


#: The form's error code for each refusal of a group (``checked_group``).
GROUP_ERRORS = {"group_not_found": "group_missing", "forbidden": "group_forbidden"}


async def _read_group(
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
    except PlayApiError as exc:
        return None, GROUP_ERRORS.get(exc.code, "group_missing"), exc.status
    assert link is not None  # a group was given
    try:
        stored = await run_in_threadpool(request.app.state.groups.get_group, link.id)
    except LookupError:  # deleted in between
        return None, "group_missing", 404
    form["group_name"] = stored.name
    return link, None, 200


def _name_error(raw: str, *, required: bool) -> str | None:
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


def _busy_page(request: Request, form: dict[str, Any], exc: TableCapError) -> HTMLResponse:
    """The table cap (503): the form comes back filled in, with when to retry."""
    page = _new_page(request, form, ["busy"], 503)
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


def _new_page(
    request: Request,
    form: dict[str, Any],
    errors: list[str],
    status: int = 200,
    unknown: list[tuple[int, str, str]] | None = None,
) -> HTMLResponse:
    return render(
        request,
        "play/new.html",
        {
            "form": form,
            "errors": errors,
            "unknown": unknown or [],
            "strategies": _strategies(),
            "levels": LEVEL_NAMES,
            "level_seconds": level_seconds(),
            "level_strength": level_strength(),
            "max_seats": MAX_SEATS,
        },
        status_code=status,
        path="/play",
    )


@router.get("/play", response_class=HTMLResponse)
async def new_table_page(request: Request) -> HTMLResponse:
    return _new_page(request, _form_defaults(), [])


@router.get("/play/join", response_model=None)
async def join_by_code(request: Request, code: str = "") -> Response:
    """Join with a code: to the table the typed code names, or back to the
    form with what is wrong.  Forgiving (``typed_code``); changes nothing.

    Declared before ``/play/{code}``, which would take "join" for a code.
    """
    language = request_language(request)
    typed = code[:32]
    found = typed_code(typed)
    if found is None:
        error = gettext(
            language,
            N_("A table code has six letters and digits, e.g. %(code)s. Check it and try again."),
            code="8DZAT9",  # an example in the alphabet of the codes
        )
        return _join_page(request, typed, error)
    registry = registry_of(request.app)
    try:
        known = await registry.find(found) is not None
    except (TableElsewhereError, TableCapError):
        known = True  # busy or served elsewhere: the table page says when to come back
    # A closed table's own page says why it closed.
    if not known and await registry.closed_reason(found) is None:
        error = gettext(
            language,
            N_("There is no table with the code %(code)s on this server. It may have ended."),
            code=found,
        )
        return _join_page(request, typed, error)
    return RedirectResponse(f"/play/{found}", status_code=303)


def _join_page(request: Request, typed: str, error: str) -> HTMLResponse:
    return render(
        request, "play/join.html", {"typed": typed, "error": error}, status_code=404, path="/play"
    )


@router.get("/play/{code}/qr.svg", response_model=None)
async def join_qr(request: Request, code: str) -> Response:
    """The QR code of the table's join link, shown large in the lobby (a
    friend across the room scans it).  Any code-shaped *code*: the table
    page says whether the table is there."""
    if typed_code(code) != code:
        return Response(status_code=404)
    svg = qr_svg_document(absolute(request, f"/play/{code}"))
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"}
    )


@router.post("/play", response_model=None)
async def new_table(request: Request) -> Response:
    """Open a table from the form; the host lands at the table with their token."""
    data = await request.form()

    def text(key: str, default: str = "") -> str:
        value = data.get(key, default)
        return value.strip() if isinstance(value, str) else default

    form = _form_defaults()
    form.update(
        name=text("name"),
        seats=text("seats", "4"),
        deck="cards" if text("deck") == "cards" else "ligretto",
        row_refill="manual" if text("row_refill") == "manual" else "auto",
        recycle_shuffle=text("recycle_shuffle", "1") != "0",
        deadlock="reshuffle" if text("deadlock") == "reshuffle" else "end",
        row_storage=bool(text("row_storage")),
        mode="rounds" if text("mode") == "rounds" else "target",
        target=text("target", "99"),
        target_other=text("target_other"),
        rounds=text("rounds", "8"),
        seat_kinds=[text(f"seat{i}", "open") for i in range(1, MAX_SEATS)],
        seat_levels=[text(f"level{i}", "medium") for i in range(1, MAX_SEATS)],
    )
    # Refusals travel as codes; play/new.html words them in the reader's language.
    errors: list[str] = []
    group, group_error, group_status = await _read_group(request, data, form)
    if group_error is not None:
        errors.append(group_error)
    seats = whole_field(form["seats"])
    target = whole_field(form["target_other"] if form["target"] == "other" else form["target"])
    rounds = whole_field(form["rounds"])
    name_error = _name_error(form["name"], required=False)
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
        return _new_page(request, form, errors, status)
    unknown = _unknown_bots(form, seats)
    if unknown:
        return _new_page(request, form, [], 422, unknown)
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
        )
    except ValidationError:  # anything the checks above let through
        return _new_page(request, form, ["seats"], 422)
    try:
        table = create_table(registry_of(request.app), spec, group)
    except TableCapError as exc:
        return _busy_page(request, form, exc)
    # The token travels in the fragment: it never reaches a server log.
    return RedirectResponse(
        f"/play/{table.code}#t={table.host_token}",
        status_code=303,
        headers=opened_table(table.code),  # where the proxy sends the table's requests
    )


@router.post("/play/group", response_class=HTMLResponse)
async def group_table_page(request: Request) -> HTMLResponse:
    """The form with a group picked: the group page's "Play online with this
    group" button without JavaScript (its id and token in the form body)."""
    data = await request.form()
    form = _form_defaults()
    _, error, status = await _read_group(request, data, form)
    if error is not None:
        form.update(group="", group_token="")
        return _new_page(request, form, [error], status)
    return _new_page(request, form, [])


@router.post("/play/quick", response_model=None)
async def quick_game(request: Request) -> Response:
    """One tap to play: seat 1 for the person, three bots, default rules, to 99.

    The table is made by ``create_table`` like every other; the person lands
    at it as host and the page starts the game once it has the table (the
    countdown must not run while the page is still loading on a slow phone).
    """
    data = await request.form()
    value = data.get("name", "")
    name = value if isinstance(value, str) else ""
    form = _form_defaults()
    form["name"] = name.strip()
    group, group_error, group_status = await _read_group(request, data, form)
    if group_error is not None:
        return _new_page(request, form, [group_error], group_status)
    name_error = _name_error(name, required=True)
    if name_error is not None:
        return _new_page(request, form, [name_error], 422)
    spec = CreateTable(
        seats=1 + len(QUICK_BOTS),
        name=clean_name(name),
        bots=[BotIn(seat=i + 1, strategy=s, level=lv) for i, (s, lv) in enumerate(QUICK_BOTS)],
    )
    try:
        table = create_table(registry_of(request.app), spec, group)
    except TableCapError as exc:
        return _busy_page(request, form, exc)
    table.tags.add(AUTOSTART)
    table.note()
    # The token travels in the fragment: it never reaches a server log.
    return RedirectResponse(
        f"/play/{table.code}#t={table.host_token}",
        status_code=303,
        headers=opened_table(table.code),  # where the proxy sends the table's requests
    )


@router.post("/play/practice", response_model=None)
async def practice_round(request: Request) -> Response:
    """One tap to learn: a round against one slow bot, with hints on the page.

    The deal is one of ``PRACTICE_SEEDS``: the first hint is a card to play.

    The name is the one typed into the quick-game form, else the page's word
    for "you" (sent along as ``fallback``).
    """
    data = await request.form()
    name = "Player"
    for key in ("name", "fallback"):
        value = data.get(key, "")
        try:
            name = clean_name(value)  # T1: the one name rule
        except InvalidNameError:
            continue
        break
    registry = registry_of(request.app)
    strategy, level = PRACTICE_BOT
    try:
        table = registry.create(
            seats=2,
            options=RuleOptions(),
            end=EndCondition("rounds", 99, 1),
            host_name=name,
            bots=[BotSpec(1, strategy, level)],
            settings=dataclasses.replace(
                registry.settings,
                bot_pace=registry.settings.bot_pace * PRACTICE_PACE,
                dealer=practice_deal,
            ),
        )
    except TableCapError as exc:
        return _busy_page(request, _form_defaults(), exc)
    table.tags |= {AUTOSTART, PRACTICE}
    table.note()
    return RedirectResponse(
        f"/play/{table.code}#t={table.host_token}",
        status_code=303,
        headers=opened_table(table.code),  # where the proxy sends the table's requests
    )


@router.get("/play/{code}", response_class=HTMLResponse)
async def table_page(request: Request, code: str) -> HTMLResponse:
    registry = registry_of(request.app)
    try:
        table = await registry.find(code)
    except TableElsewhereError:
        # Another process serves it: this page comes back in a moment.
        page = render(request, "play/moving.html", {"code": code[:12]}, status_code=503)
        page.headers["Retry-After"] = str(ELSEWHERE_RETRY)
        return page
    except TableCapError as exc:
        page = render(request, "play/moving.html", {"code": code[:12]}, status_code=503)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    if table is None:
        closed = await registry.closed_reason(code[:16])
        return render(
            request,
            "play/missing.html",
            {"code": code[:12], "closed": closed},
            status_code=404 if closed is None else 410,
        )
    practice = PRACTICE in table.tags
    return render(
        request,
        "play/table.html",
        {
            "code": table.code,
            "strategies": _strategies(),
            "levels": LEVEL_NAMES,
            "level_seconds": level_seconds(PRACTICE_PACE if practice else 1.0),
            "practice": practice,
            "autostart": AUTOSTART in table.tags,
        },
    )
