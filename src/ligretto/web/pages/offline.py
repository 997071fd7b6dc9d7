"""What the edit page's script needs offline: the game as rules.js takes it, and its words.

Rounds entered offline are applied on the phone (``static/js/rules.js``) to
the game as :func:`game_state` gives it; the words the script writes itself
(the entry forms it draws, the sync and conflict messages) come translated
from :data:`OFFLINE_TEXTS`.
"""

from __future__ import annotations

from typing import Any

from ligretto.store import StoredGame
from ligretto.web.pages.text import N_, gettext

OFFLINE_TEXTS: dict[str, tuple[str, dict[str, str]]] = {
    # The words the edit page's script writes itself (offline entry, sync,
    # conflicts, the connection indicator); placeholders become {name}.
    "live": (N_("live"), {}),
    "offline": (N_("offline"), {}),
    "reconnecting": (N_("reconnecting…"), {}),
    "sending": (N_("sending…"), {}),
    "waiting_one": (N_("1 round waiting to be sent"), {}),
    "waiting": (N_("%(count)s rounds waiting to be sent"), {"count": "{count}"}),
    "conflict": (N_("conflict: please decide"), {}),
    "round": (N_("Round %(number)s"), {"number": "{number}"}),
    "stacks": (N_("Stacks"), {}),
    "middle": (N_("Middle"), {}),
    "stack": (N_("Stack"), {}),
    "save_stacks": (N_("Save stacks"), {}),
    "save_round": (N_("Save round %(number)s"), {"number": "{number}"}),
    "stack_count": (N_("stack %(count)s"), {"count": "{count}"}),
    "less": (N_("%(what)s for %(name)s: one less"), {"what": "{what}", "name": "{name}"}),
    "more": (N_("%(what)s for %(name)s: one more"), {"what": "{what}", "name": "{name}"}),
    "stacks_hint": (
        N_(
            "Who called Ligretto Stop? Then the cards left in every other Ligretto stack. "
            "You can save this while the middle is still being sorted."
        ),
        {},
    ),
    "middle_hint": (
        N_(
            "Now count each player's cards in the middle. "
            "The board computes the points: middle − 2 × stack."
        ),
        {},
    ),
    "not_saved": (N_("Not saved:"), {}),
    "two_callers": (N_("Two empty stacks: only one player can call Ligretto Stop."), {}),
    "stack_range": (
        N_("%(name)s: enter the cards left in the Ligretto stack (0 to %(max)s)."),
        {"name": "{name}", "max": "{max}"},
    ),
    "middle_range": (
        N_("%(name)s: enter the cards in the middle (0 to %(max)s)."),
        {"name": "{name}", "max": "{max}"},
    ),
    "check": (N_("Please check this round."), {}),
    "save_anyway": (N_("Save anyway"), {}),
    "game_over": (N_("The game is finished."), {}),
    "wins": (
        N_("%(name)s wins with %(points)s points!"),
        {"name": "{name}", "points": "{points}"},
    ),
    "shared": (
        N_("Shared victory: %(names)s with %(points)s points each!"),
        {"names": "{names}", "points": "{points}"},
    ),
    "tie": (N_("Tie at the top: %(names)s."), {"names": "{names}"}),
    "leads": (N_("%(name)s leads."), {"name": "{name}"}),
    "share_lead": (N_("%(names)s share the lead."), {"names": "{names}"}),
    "target": (N_("Target: %(target)s points"), {"target": "{target}"}),
    "waiting_middle": (
        N_("Round %(number)s: waiting for the middle"),
        {"number": "{number}"},
    ),
    "last_round": (N_("last round %(points)s"), {"points": "{points}"}),
    "to_go": (N_("%(points)s to go"), {"points": "{points}"}),
    "not_sent": (N_("not sent yet"), {}),
    "kept": (N_("Saved on this phone. It is sent when the connection is back."), {}),
    "conflict_title": (
        N_("Another phone changed this game while rounds of this phone were waiting."),
        {},
    ),
    "conflict_hint": (
        N_("Nothing was overwritten. Decide what the board keeps:"),
        {},
    ),
    "server_side": (N_("On the server"), {}),
    "phone_side": (N_("On this phone, not sent"), {}),
    "keep_both": (N_("Keep both: add mine after theirs"), {}),
    "keep_theirs": (N_("Keep only theirs (discard mine)"), {}),
    "cannot_append": (
        N_(
            "The server's board takes no new round now (a round waits for its middle, "
            "or the game is over). Settle that on the board first, or keep only theirs."
        ),
        {},
    ),
    "refused": (N_("Not sent: the server refused this round."), {}),
    "discard": (N_("Discard it"), {}),
    "nothing_new": (N_("no change on the server"), {}),
    "called": (N_("called Ligretto Stop"), {}),
    "undo": (N_("Undo"), {}),
    "undo_offline": (N_("Offline: not undone. Try again when the connection is back."), {}),
    "kept_stacks": (
        N_("Round %(number)s: stacks kept on this phone."),
        {"number": "{number}"},
    ),
    "kept_round": (N_("Round %(number)s kept on this phone."), {"number": "{number}"}),
    "kept_correction": (
        N_("Round %(number)s: correction kept on this phone."),
        {"number": "{number}"},
    ),
    "kept_removal": (
        N_("Round %(number)s: removal kept on this phone."),
        {"number": "{number}"},
    ),
    "correct_round": (N_("Correct round %(number)s"), {"number": "{number}"}),
    "remove_round": (N_("Remove round %(number)s"), {"number": "{number}"}),
    "round_corrected": (N_("Round %(number)s corrected"), {"number": "{number}"}),
    "round_removed": (N_("Round %(number)s removed"), {"number": "{number}"}),
    "back": (N_("Back to the board"), {}),
    "keep_mine": (N_("Keep mine for this round (replace theirs)"), {}),
    "same_round": (
        N_("Both phones changed the same round differently: the board can keep only one of them."),
        {},
    ),
}


def offline_texts(language: str) -> dict[str, str]:
    return {
        key: gettext(language, message, **values)
        for key, (message, values) in OFFLINE_TEXTS.items()
    }


def game_state(stored: StoredGame) -> dict[str, Any]:
    """The game as the phone's rules (``static/js/rules.js``) take it: rounds in seating order.

    The edit page works on from it without a network: rounds entered offline
    are applied to it on the phone to show points, totals and the outcome.
    """
    game = stored.game
    return {
        "id": stored.id,
        "version": stored.version,
        "players": list(game.players),
        "mode": game.mode.value,
        "target": game.target,
        "agreed_rounds": game.agreed_rounds,
        "row_storage": game.row_storage,
        "closed": game.closed,
        "scored": game.scored,
        "rounds": [
            {
                "stacks": list(r.stacks),
                "middle": None if r.middle is None else list(r.middle),
                "confirmed": r.confirmed,
            }
            for r in game.rounds
        ],
    }
