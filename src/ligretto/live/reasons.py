"""Rule errors as protocol reasons: one table, keyed by the error's class.

The rules engine refuses a move by raising (``ligretto.rules.errors``); a
client is told why with a short reason code (``Reason``), never with a
traceback.  Looking the error up along its class hierarchy means a new
subclass of a known error is mapped without touching this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ligretto.live.protocol import Reason
from ligretto.rules.errors import IllegalActionError, PileTakenError, RoundOverError


@dataclass(frozen=True, slots=True)
class Refusal:
    """How one kind of rule error is told to the player who moved."""

    code: Reason
    #: Shown when the error has no text of its own, or always if not ``own_text``.
    text: str
    #: Whether the engine's own explanation is passed on.
    own_text: bool = True

    def reason(self, error: Exception) -> str:
        return (str(error) or self.text) if self.own_text else self.text


#: Most specific first is not needed: :func:`refusal_for` walks the MRO.
RULE_ERROR_REASONS: Mapping[type[Exception], Refusal] = {
    # R3: the move was fine when the player saw the pile; someone was faster.
    PileTakenError: Refusal(Reason.PILE_TAKEN, "too slow"),
    # R4: after Ligretto Stop or a deadlock nothing more is played.
    RoundOverError: Refusal(Reason.ROUND_OVER, "the round is over", own_text=False),
    IllegalActionError: Refusal(Reason.ILLEGAL, "not allowed"),
    # Any other refusal of the engine (every rule error is a ValueError).
    ValueError: Refusal(Reason.ILLEGAL, "not allowed"),
}


def refusal_for(error: Exception) -> Refusal | None:
    """The refusal for ``error``, or ``None`` if it is not a refusal (a bug)."""
    for cls in type(error).__mro__:
        refusal = RULE_ERROR_REASONS.get(cls)
        if refusal is not None:
            return refusal
    return None
