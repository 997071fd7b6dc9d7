"""Bots: strategies that play from what a seat sees, with human-like timing.

Pure: no I/O, no asyncio, randomness only from an injected ``random.Random``.
A bot is a strategy (``random``, ``greedy``, ``stack-first``, ``race-aware``,
``watchful`` alias ``mine``, ``tuned`` …) and a level (``easy`` … ``expert``); drive it
with ``bot.timed(round.view(seat), rng)`` → ``(action or None, delay)``.
See docs/bots.md.

>>> from ligretto.bots import make_bot, strategy_names
>>> strategy_names()[:3]
['random', 'greedy', 'stack-first']
>>> make_bot("mine:hard").strategy.name
'watchful'
"""

from ligretto.bots.bot import Bot, BotSpec, Decision, make_bot
from ligretto.bots.strategies import (
    STRATEGIES,
    Strategy,
    get_strategy,
    register,
    strategy_names,
)
from ligretto.bots.timing import LEVELS, Level, ReactionModel, reaction_model
from ligretto.bots.tuned import Tuned, Weights
from ligretto.bots.view import BotView

__all__ = [
    "LEVELS",
    "STRATEGIES",
    "Bot",
    "BotSpec",
    "BotView",
    "Decision",
    "Level",
    "ReactionModel",
    "Strategy",
    "Tuned",
    "Weights",
    "get_strategy",
    "make_bot",
    "reaction_model",
    "register",
    "strategy_names",
]
