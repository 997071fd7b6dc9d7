"""The tables opened with one tap: a quick game against three bots, and
the practice round against one slow bot with hints (docs/online-play.md)."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from ligretto.bots import Level
from ligretto.live.registry import TableCapError
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.seating import BotSpec
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.simulate.level_match import matched_bots, rating_from
from ligretto.tafel.names import InvalidNameError, clean_name
from ligretto.tafel.ratings import Rating
from ligretto.web.play.app_tables import registry_of, to_table
from ligretto.web.play.pages import busy_page, form_defaults, name_error_code, new_page, read_group
from ligretto.web.play.table_spec import BotIn, CreateTable, create_table
from ligretto.web.routing_headers import opened_table

router = APIRouter(include_in_schema=False)

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


def rating_of(mu: object, sigma: object) -> Rating | None:
    """The rating this browser keeps (the form's hidden ``mu`` and
    ``sigma``), or ``None``: a newcomer, or values that are no rating
    (the quick game then has the newcomer's bots)."""
    try:
        return rating_from(float(str(mu)), float(str(sigma)))
    except ValueError:
        return None


def quick_bots(rating: Rating | None) -> list[tuple[str, str]]:
    """The quick game's bots: matched to a rated player (docs/online-play.md,
    "Bots at your level"), else the newcomer's three medium bots."""
    if rating is None:
        return [(s, lv.value) for s, lv in QUICK_BOTS]
    return list(matched_bots(rating).bots)


def practice_deal(players: int, seed: int, options: RuleOptions) -> Round:
    """The practice table's dealer: one of the chosen deals, picked by the
    table's own random number (so practice rounds differ from each other)."""
    return Round.deal(players, PRACTICE_SEEDS[seed % len(PRACTICE_SEEDS)], options)


@router.post("/play/quick", response_model=None)
async def quick_game(request: Request) -> Response:
    """One tap to play: seat 1 for the person, three bots, default rules, to 99.

    With this browser's rating (the form's ``mu`` and ``sigma``) the bots
    are those matched to it; without, three medium ones.

    The table is made by ``create_table`` like every other; the person lands
    at it as host and the page starts the game once it has the table (the
    countdown must not run while the page is still loading on a slow phone).
    """
    data = await request.form()
    value = data.get("name", "")
    name = value if isinstance(value, str) else ""
    form = form_defaults()
    form["name"] = name.strip()
    group, group_error, group_status = await read_group(request, data, form)
    if group_error is not None:
        return new_page(request, form, [group_error], group_status)
    name_error = name_error_code(name, required=True)
    if name_error is not None:
        return new_page(request, form, [name_error], 422)
    bots = quick_bots(rating_of(data.get("mu"), data.get("sigma")))
    spec = CreateTable(
        seats=1 + len(bots),
        name=clean_name(name),
        bots=[BotIn(seat=i + 1, strategy=s, level=Level(lv)) for i, (s, lv) in enumerate(bots)],
    )
    try:
        table = create_table(registry_of(request.app), spec, group)
    except TableCapError as exc:
        return busy_page(request, form, exc)
    table.tags.add(AUTOSTART)
    table.note()
    return to_table(table)


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
        return busy_page(request, form_defaults(), exc)
    table.tags |= {AUTOSTART, PRACTICE}
    table.note()
    return RedirectResponse(
        f"/play/{table.code}#t={table.host_token}",
        status_code=303,
        headers=opened_table(table.code),  # where the proxy sends the table's requests
    )
