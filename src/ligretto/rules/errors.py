"""Errors raised by the rules engine.

Every error is a ``ValueError`` (bad input) with a short machine ``code``
and a human message, so a server can pass the code on unchanged. An action
that raises has changed nothing (``Round.apply`` is atomic).
"""

from __future__ import annotations


class RuleError(ValueError):
    """Base class: the action was refused; the round is unchanged."""

    code: str = "rule"


class IllegalActionError(RuleError):
    """The action is not allowed in this position (wrong card, empty hand …)."""

    code = "illegal"


class PileTakenError(RuleError):
    """R3 race: the named middle pile no longer takes the card — someone was faster."""

    code = "pile_taken"


class RoundOverError(RuleError):
    """R4: after Ligretto Stop or a deadlock every action is refused."""

    code = "round_over"


class MalformedActionError(RuleError):
    """The action text or value is not well formed (cannot be parsed)."""

    code = "malformed"
