"""A kept round told in words: cards, seats, moves and races as the table says them.

``ligretto replay`` prints a replay document (``ligretto.replay/1``) with
the words of one language, handed in as :class:`ReplayWords` (the web's
catalogues fill them, ``ligretto.web.replay_words``): a card is "blue 7",
a bot "Bot 3 (sharp)", a move "Anna: blue 7 to the middle", a race "Ben
was 40 ms slower" or, at the same millisecond, a tie -- the wording of the
table and its replay page.  Only the layout is written here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ligretto.rules.actions import Action, Play, Refill, Store, Turn
from ligretto.rules.actions import Recycle as RecycleAction
from ligretto.rules.replay_file import ReplayLog, initial_deal
from ligretto.rules.result import RoundResult, Termination

__all__ = ["ReplayWords", "render", "result_lines", "seat_names"]

# A bot's name as a table gives it when the bot sits down ("Bot 3 (watchful)",
# live/seating.py): the reader's words replace it, as on the replay page.
_BOT_NAME = re.compile(r"^Bot \d+ \(")


@dataclass(frozen=True, slots=True)
class ReplayWords:
    """Everything the replay says, in one language; ``{name}``-style placeholders."""

    language: str
    number: Callable[[float, int], str]
    """A number with so many decimals, as the language writes it (``13,6``)."""
    colours: Mapping[str, str]
    """A colour's word by its letter (``B`` → ``blau``)."""
    strategies: Mapping[str, str]
    """A strategy in a word or two, as a bot's name says it."""
    levels: Mapping[str, str]
    """A bot level's word (``hard``)."""
    title: str
    a_round: str
    players: str
    rules: str
    seats: str
    deal: str
    deal_order: str
    stack: str
    row: str
    hand: str
    actions: str
    played: str
    turned: str
    recycled: str
    refilled: str
    stored: str
    stuck: str
    races: str
    race: str
    race_tie: str
    result: str
    player: str
    middle: str
    points: str
    stop_by: str
    deadlock: str
    not_over: str
    bot_name: str
    seconds: str
    from_action: str
    already_over: str
    outcome: str

    def card(self, text: str) -> str:
        """A card's name as the table speaks it (``blau 7``; cards.js, cardName)."""
        return f"{self.colours.get(text[0], text[0])} {text[1:]}"

    def time(self, milliseconds: int) -> str:
        """A play time in seconds with its milliseconds (``13,600 s``)."""
        return self.seconds.format(s=self.number(milliseconds / 1000, 3))


def seat_names(seats: Sequence[Mapping[str, Any]], words: ReplayWords) -> list[str]:
    """Each seat's one name, as the table and the replay page say it: a bot
    named when it sat down by its number and style ("Bot 3 (sharp)"),
    anyone else by the name they chose."""
    names = []
    for index, seat in enumerate(seats):
        name, bot = seat.get("name"), seat.get("bot")
        if bot and isinstance(name, str) and _BOT_NAME.match(name):
            style = words.strategies.get(bot["strategy"], bot["strategy"])
            names.append(words.bot_name.format(n=index + 1, style=style))
        else:
            names.append(str(name) if name else f"#{index + 1}")
    return names


def bot_names(strategies: Sequence[str], words: ReplayWords) -> list[str]:
    """The names of bots that take over every seat, as a table would call them."""
    return [
        words.bot_name.format(n=index + 1, style=words.strategies.get(s, s))
        for index, s in enumerate(strategies)
    ]


def _cards(texts: Sequence[str], words: ReplayWords) -> str:
    return ", ".join(words.card(text) for text in texts)


def action_line(seat: int | None, text: str, names: Sequence[str], words: ReplayWords) -> str:
    """One move as the replay page describes it ("Anna: blue 7 to the middle")."""
    if seat is None:
        return words.stuck
    action: Action = Action.parse(text)
    name = names[seat]
    if isinstance(action, Play):
        return words.played.format(name=name, card=words.card(str(action.card)))
    if isinstance(action, Store):
        return words.stored.format(name=name, card=words.card(str(action.card)))
    if isinstance(action, Turn):
        return words.turned.format(name=name)
    if isinstance(action, RecycleAction):
        return words.recycled.format(name=name)
    if isinstance(action, Refill):
        return words.refilled.format(name=name)
    return text


def _race(race: Mapping[str, Any], names: Sequence[str], words: ReplayWords) -> str:
    """Who took the pile, and by how much; the same millisecond is a tie that
    the order of arrival broke (R3), never "0 ms slower"."""
    winner, loser = names[race["refused_by_seat"]], names[race["seat"]]
    margin = race["margin_ms"]
    if margin > 0:
        return words.race.format(winner=winner, loser=loser, ms=margin)
    return words.race_tie.format(winner=winner, loser=loser)


def result_lines(result: RoundResult, names: Sequence[str], words: ReplayWords) -> list[str]:
    """The result as a table of points (R5) and how the round ended (R4)."""
    width = max(len(name) for name in [*names, words.player])
    heads = [words.stack, words.middle, words.points]
    columns = [max(len(head), 3) for head in heads]

    def row(first: str, cells: Sequence[str]) -> str:
        right = (cell.rjust(c) for cell, c in zip(cells, columns, strict=True))
        return "  " + "  ".join([first.ljust(width), *right])

    lines = [row(words.player, heads)]
    for seat in result.seats:
        points = words.number(seat.points, 0)
        signed = f"+{points}" if seat.points > 0 else points
        lines.append(row(names[seat.seat], [str(seat.stack), str(seat.middle), signed]))
    if result.termination is Termination.STOP and result.caller is not None:
        lines.append("  " + words.stop_by.format(name=names[result.caller]))
    elif result.termination is Termination.DEADLOCK:
        lines.append("  " + words.deadlock)
    else:
        lines.append("  " + words.not_over)
    return lines


def render(data: Mapping[str, Any], log: ReplayLog, words: ReplayWords) -> list[str]:
    """The round as text: seats, deal, every action with its play time, races, result."""
    seats = data.get("seats") or [{} for _ in range(log.players)]
    names = seat_names(seats, words)
    if "table" in data:
        title = words.title.format(n=data["round"], code=data["table"])
    else:
        title = words.a_round
    options = ", ".join(f"{k}={v}" for k, v in log.options.to_dict().items())
    lines = [
        title,
        words.players.format(n=log.players, seed=log.seed),
        words.rules.format(options=options),
        "",
        words.seats,
    ]
    for name, seat in zip(names, seats, strict=True):
        bot = seat.get("bot")
        about = f" · {words.levels.get(bot['level'], bot['level'])}" if bot else ""
        lines.append(f"  {name}{about}")
    lines += ["", f"{words.deal} ({words.deal_order})"]
    places = [words.stack, words.row, words.hand]
    width = max(len(place) for place in places)
    for name, cards in zip(names, initial_deal(log.players, log.seed, log.options), strict=True):
        lines.append(f"  {name}")
        for place, key in zip(places, ("stack", "row", "hand"), strict=True):
            lines.append(f"    {place.ljust(width)}  {_cards(cards[key], words)}")
    lines += ["", words.actions]
    times = [words.time(t_ms) for t_ms in log.times]
    width = max((len(t) for t in times), default=0)
    for index, ((seat, text), at) in enumerate(zip(log.log, times, strict=True)):
        lines.append(f"  {index:4d}  {at.rjust(width)}  {action_line(seat, text, names, words)}")
    races = data.get("races") or []
    if races:
        lines += ["", words.races]
        for race in races:
            lines.append(f"  {words.time(race['t_ms']).rjust(width)}  {_race(race, names, words)}")
    lines += ["", words.result]
    lines += result_lines(log.round().result(), names, words)
    return lines
