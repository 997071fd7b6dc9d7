"""Refusals shown in the page, in the reader's language.

The domain refuses with a :class:`~ligretto.tafel.TafelError` carrying a
stable ``code``; this module turns each code into a translated sentence
that names the player and what to do. Nothing raw (no exception text, no
stack trace) ever reaches the page.
"""

from __future__ import annotations

from ligretto.tafel import Code, TafelError
from ligretto.web.text import N_, gettext

# Codes whose sentence needs no numbers from the entry, only the player's name.
_SIMPLE: dict[Code, str] = {
    Code.EMPTY_NAME: N_("A player's name is empty."),
    Code.BAD_NAME: N_(
        "A name cannot hold invisible or control characters such as tabs or line breaks."
    ),
    Code.DUPLICATE_NAME: N_("%(name)s appears twice: every player needs a different name."),
    Code.BAD_MODE: N_("Choose how the game ends: at a target score or after a number of rounds."),
    Code.BAD_DECK: N_("Choose whether you play with Ligretto cards or ordinary playing cards."),
    Code.UNKNOWN_PLAYER: N_("%(name)s does not play in this game."),
    Code.MISSING_PLAYER: N_("%(name)s: a number is missing."),
    Code.NOT_A_WHOLE_NUMBER: N_("%(name)s: enter a whole number."),
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
    Code.NOTHING_TO_UNDO: N_(
        "Nothing to undo: the last change of this game is no save or removal of a round."
    ),
}


def refusal(language: str, error: TafelError) -> str:
    """The sentence for a refused entry.

    The numbers it names come from the error's ``params`` (the limit that
    was broken); the domain's English message is never shown.
    """
    name = error.player or ""
    code = error.code
    params = error.params
    if code is Code.TOO_FEW_PLAYERS:
        return gettext(language, N_("A game needs at least %(min)s players."), min=params["limit"])
    if code is Code.TOO_MANY_PLAYERS:
        if params["limit"] < params["with_cards"]:
            return gettext(
                language,
                N_("At most %(max)s players. Up to %(cards)s play with ordinary playing cards."),
                max=params["limit"],
                cards=params["with_cards"],
            )
        return gettext(language, N_("At most %(max)s players."), max=params["limit"])
    if code is Code.NAME_TOO_LONG:
        return gettext(
            language,
            N_("%(name)s…: a name has at most %(max)s characters."),
            name=name[: params["limit"]],
            max=params["limit"],
        )
    if code is Code.BAD_TARGET:
        return gettext(
            language,
            N_("The target must be a whole number from 1 to %(max)s."),
            max=params["high"],
        )
    if code is Code.BAD_ROUNDS:
        return gettext(
            language,
            N_("The number of rounds must be a whole number from 1 to %(max)s."),
            max=params["high"],
        )
    if code is Code.TOO_MANY_ROUNDS:
        return gettext(
            language,
            N_("A game has at most %(max)s rounds. Finish this one and start a new game."),
            max=params["limit"],
        )
    if code is Code.OUT_OF_RANGE:
        if error.rule == "T2":
            return gettext(
                language,
                N_("%(name)s: a Ligretto stack holds 0 to %(max)s cards."),
                name=name,
                max=params["high"],
            )
        return gettext(
            language,
            N_("%(name)s: the middle can hold 0 to %(max)s of their cards."),
            name=name,
            max=params["high"],
        )
    if code is Code.TWO_CALLERS:
        return gettext(
            language,
            N_("Two empty stacks (%(names)s): only one player can call Ligretto Stop."),
            names=" & ".join(params["callers"]),
        )
    template = _SIMPLE.get(code)
    if template is None:
        return gettext(language, N_("This entry was refused. Please check the numbers."))
    return (
        gettext(language, template, name=name)
        if "%(name)s" in template
        else gettext(language, template)
    )


def implausible_details(language: str, error: TafelError) -> list[str]:
    """One sentence per player whose middle is below 10 − stack (T3)."""
    return [
        gettext(
            language,
            N_("%(name)s: %(middle)s in the middle, but %(left)s cards left the Ligretto stack."),
            name=seat["player"],
            middle=seat["middle"],
            left=seat["left"],
        )
        for seat in error.params.get("implausible", ())
    ]
