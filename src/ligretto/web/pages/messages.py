"""Refusals shown in the page, in the reader's language.

The domain refuses with a :class:`~ligretto.tafel.TafelError` carrying a
stable ``code``; this module turns each code into a translated sentence
that names the player and what to do. Nothing raw (no exception text, no
stack trace) ever reaches the page.
"""

from __future__ import annotations

from collections.abc import Sequence

from ligretto.tafel import Code, TafelError
from ligretto.tafel.game import DECK_CARDS, MAX_AGREED_ROUNDS, MAX_NAME_LENGTH, MAX_TARGET
from ligretto.web.pages.rendering import gettext


def N_(message: str) -> str:  # noqa: N802 - gettext's conventional marker name
    """Mark *message* for extraction; it is translated where it is shown."""
    return message


# Codes whose sentence needs no numbers from the entry, only the player's name.
_SIMPLE: dict[Code, str] = {
    Code.TOO_FEW_PLAYERS: N_("A game needs at least 2 players."),
    Code.EMPTY_NAME: N_("A player's name is empty."),
    Code.BAD_NAME: N_("A name cannot hold control characters such as tabs or line breaks."),
    Code.DUPLICATE_NAME: N_("%(name)s appears twice: every player needs a different name."),
    Code.BAD_MODE: N_("Choose how the game ends: at a target score or after a number of rounds."),
    Code.BAD_DECK: N_("Choose whether you play with Ligretto cards or ordinary playing cards."),
    Code.UNKNOWN_PLAYER: N_("%(name)s does not play in this game."),
    Code.MISSING_PLAYER: N_("%(name)s: a number is missing."),
    Code.NOT_A_WHOLE_NUMBER: N_("%(name)s: enter a whole number."),
    Code.TWO_CALLERS: N_("Two empty stacks: only one player can call Ligretto Stop."),
    Code.ROUND_PENDING: N_("The last round still needs its middle counts. Complete it first."),
    Code.ROUND_NOT_PENDING: N_("This round is already complete. Correct it instead."),
    Code.NO_SUCH_ROUND: N_("There is no such round."),
    Code.NOT_LAST_ROUND: N_("Only the last round can be removed. Correct this one instead."),
    Code.GAME_FINISHED: N_("The game is finished: no more rounds."),
    Code.ALL_ROUNDS_PLAYED: N_("All agreed rounds are played: no more rounds."),
    Code.NO_ROUNDS: N_("Play at least one complete round before finishing."),
    Code.DECIDED_EARLIER: N_(
        "With this change the game would have been decided earlier, yet later rounds follow. "
        "Remove the later rounds first."
    ),
    Code.BAD_IMPORT: N_("This file is not a game exported from this score board."),
}


def refusal(
    language: str,
    error: TafelError,
    *,
    stacks: Sequence[int] | None = None,
    players: Sequence[str] = (),
    max_players: int = 12,
) -> str:
    """The sentence for a refused entry.

    *stacks* (the stack counts of the round being entered) and *players*
    fill in the numbers that the sentence names; the domain's English
    message is never shown.
    """
    name = error.player or ""
    code = error.code
    if code is Code.TOO_MANY_PLAYERS:
        if max_players < 16:
            return gettext(
                language,
                N_("At most %(max)s players. Up to 16 play with ordinary playing cards."),
                max=max_players,
            )
        return gettext(language, N_("At most %(max)s players."), max=max_players)
    if code is Code.NAME_TOO_LONG:
        return gettext(
            language,
            N_("%(name)s…: a name has at most %(max)s characters."),
            name=name[:MAX_NAME_LENGTH],
            max=MAX_NAME_LENGTH,
        )
    if code is Code.BAD_TARGET:
        return gettext(
            language,
            N_("The target must be a whole number from 1 to %(max)s."),
            max=MAX_TARGET,
        )
    if code is Code.BAD_ROUNDS:
        return gettext(
            language,
            N_("The number of rounds must be a whole number from 1 to %(max)s."),
            max=MAX_AGREED_ROUNDS,
        )
    if code is Code.OUT_OF_RANGE:
        if error.rule == "T2" or stacks is None or name not in players:
            return gettext(
                language, N_("%(name)s: a Ligretto stack holds 0 to 10 cards."), name=name
            )
        limit = DECK_CARDS - stacks[list(players).index(name)]
        return gettext(
            language,
            N_("%(name)s: the middle can hold 0 to %(max)s of their cards."),
            name=name,
            max=limit,
        )
    if code is Code.TWO_CALLERS and stacks is not None and players:
        callers = [p for p, s in zip(players, stacks, strict=False) if s == 0]
        return gettext(
            language,
            N_("Two empty stacks (%(names)s): only one player can call Ligretto Stop."),
            names=" & ".join(callers),
        )
    template = _SIMPLE.get(code)
    if template is None:
        return gettext(language, N_("This entry was refused. Please check the numbers."))
    return (
        gettext(language, template, name=name)
        if "%(name)s" in template
        else gettext(language, template)
    )


def implausible_details(
    language: str, players: Sequence[str], stacks: Sequence[int], middle: Sequence[int]
) -> list[str]:
    """One sentence per player whose middle is below 10 − stack (T3)."""
    return [
        gettext(
            language,
            N_("%(name)s: %(middle)s in the middle, but %(left)s cards left the Ligretto stack."),
            name=name,
            middle=m,
            left=10 - s,
        )
        for name, s, m in zip(players, stacks, middle, strict=True)
        if m < 10 - s
    ]
