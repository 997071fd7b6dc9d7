"""The words ``ligretto replay`` prints a kept round in: the table's and its replay page's.

Cards, bots, moves, races and the result are said with the texts the
replay page already shows (``templates/play/replay.html``), the colours as
the table names a card (``blau 7``), the bots as ``web.bot_words`` says
them, numbers as ``web.numbers`` writes them; only what the page has no
need of (the seed, the order of a dealt pile, bots playing on) is new here.
The command itself lives in the simulator's part (``simulate/replay_command.py``);
``ligretto.cli`` hands it these words.
"""

from __future__ import annotations

from functools import cache

from ligretto.simulate.replay_text import ReplayWords
from ligretto.web.bot_words import bot_words
from ligretto.web.i18n import DEFAULT_LANGUAGE, normalize
from ligretto.web.numbers import number
from ligretto.web.text import N_, gettext

__all__ = ["replay_words"]

# A card's colour by its letter (R1; the French deck's suits too), as the
# table's and the replay page's texts name them.
_COLOURS = {
    "R": N_("red"),
    "G": N_("green"),
    "B": N_("blue"),
    "Y": N_("yellow"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
    "S": N_("spades"),
}


def replay_words(tag: str | None) -> ReplayWords:
    """The words of the language ``tag`` names (``--lang de`` or ``LANG=nb_NO.UTF-8``),
    English when it names none of de, en and nb."""
    return _words(normalize(tag.split(".", 1)[0] if tag else None) or DEFAULT_LANGUAGE)


@cache
def _words(language: str) -> ReplayWords:
    def say(message: str) -> str:
        return gettext(language, message)

    bots = bot_words(language)
    return ReplayWords(
        language=language,
        number=lambda value, digits: number(language, value, digits),
        colours={letter: say(word) for letter, word in _COLOURS.items()},
        strategies=bots.short,
        levels=bots.levels,
        title=gettext(
            language, N_("Replay of round %(n)s, table %(code)s"), n="{n}", code="{code}"
        ),
        a_round=say(N_("A kept round")),
        players=f"{say(N_('Players'))}: {{n}} · {say(N_('Seed'))}: {{seed}}",
        rules=f"{say(N_('Rules'))}: {{options}}",
        seats=say(N_("Seats")),
        deal=say(N_("The deal")),
        deal_order=say(
            N_("stack and hand from bottom to top: the last card is open or turned next")
        ),
        stack=say(N_("Stack")),
        row=say(N_("Row")),
        hand=say(N_("Hand")),
        actions=say(N_("Actions: number, play time since “Ligretto!”, what happened")),
        played=say(N_("{name}: {card} to the middle")),
        turned=say(N_("{name} turns three")),
        recycled=say(N_("{name} picks up the discard pile")),
        refilled=say(N_("{name} fills the row")),
        stored=say(N_("{name} puts {card} into the row")),
        stuck=say(N_("The table is stuck")),
        races=say(N_("Races for a pile")),
        race=say(N_("Race: {winner} took the pile, {loser} was {ms} ms slower.")),
        race_tie=say(N_("Race: {winner} took the pile, {loser} played at the same moment.")),
        result=say(N_("Result")),
        player=say(N_("Player")),
        middle=say(N_("Middle")),
        points=say(N_("Points")),
        stop_by=say(N_("Ligretto Stop by {name}!")),
        deadlock=say(N_("Nobody could play any more.")),
        not_over=say(N_("The round was not over.")),
        bot_name=say(N_("Bot {n} ({style})")),
        seconds=say(N_("{s} s")),
        from_action=say(N_("From action {i} on, these bots play: {bots}")),
        already_over=say(N_("The round was already over there.")),
        outcome=say(N_("Outcome after {s} s of simulated play")),
    )
