"""What the edit page's script needs offline: the game as rules.js takes it, and its words.

Rounds entered offline are applied on the phone (``static/js/rules.js``) to
the game as :func:`game_state` gives it. The board's markup comes from the
server's own ``<template>`` pieces (``offline_parts.py``); the few words the
script writes itself (the connection indicator, status lines, what was kept
on the phone) come translated from :data:`OFFLINE_TEXTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ligretto.store import StoredGame
from ligretto.web.text import N_, gettext

OFFLINE_TEXTS: dict[str, tuple[str, dict[str, str]]] = {
    # The words the edit page's script writes itself (offline entry, sync,
    # conflicts, the connection indicator); placeholders become {name}.
    "live": (N_("live"), {}),
    "offline": (N_("offline"), {}),
    "sending": (N_("sending…"), {}),
    "waiting_one": (N_("1 round waiting to be sent"), {}),
    "waiting": (N_("%(count)s rounds waiting to be sent"), {"count": "{count}"}),
    "conflict": (N_("conflict: please decide"), {}),
    "round": (N_("Round %(number)s"), {"number": "{number}"}),
    "stacks": (N_("Stacks"), {}),
    "middle": (N_("Middle"), {}),
    "stack": (N_("Stack"), {}),
    "save_round": (N_("Save round %(number)s"), {"number": "{number}"}),
    "stack_count": (N_("stack %(count)s"), {"count": "{count}"}),
    "two_callers": (N_("Two empty stacks: only one player can call Ligretto Stop."), {}),
    "stack_range": (
        N_("%(name)s: enter the cards left in the Ligretto stack (0 to %(max)s)."),
        {"name": "{name}", "max": "{max}"},
    ),
    "middle_range": (
        N_("%(name)s: enter the cards in the middle (0 to %(max)s)."),
        {"name": "{name}", "max": "{max}"},
    ),
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
    "kept": (N_("Saved on this phone. It is sent when the connection is back."), {}),
    "kept_sending": (N_("Saved on this phone. It is being sent now."), {}),
    "kept_conflict": (
        N_(
            "Saved on this phone, not sent: another phone changed this game. "
            "Decide what the board keeps."
        ),
        {},
    ),
    "refused": (N_("Not sent: the server refused this round."), {}),
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
    "replay_round": (N_("Watch round %(number)s again"), {"number": "{number}"}),
    "remove_round": (N_("Remove round %(number)s"), {"number": "{number}"}),
    "round_corrected": (N_("Round %(number)s corrected"), {"number": "{number}"}),
    "round_removed": (N_("Round %(number)s removed"), {"number": "{number}"}),
}


def offline_texts(language: str) -> dict[str, str]:
    return {
        key: gettext(language, message, **values)
        for key, (message, values) in OFFLINE_TEXTS.items()
    }


def game_state(stored: StoredGame, replays: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The game as the phone's rules (``static/js/rules.js``) take it: rounds in seating order.

    The edit page works on from it without a network: rounds entered offline
    are applied to it on the phone to show points, totals and the outcome.
    ``replays``: the replay page of each round an online table kept, which
    the offline board links as the served one does.
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
        "replays": {str(number): href for number, href in (replays or {}).items()},
    }
