"""Hypothesis profiles: ``fast`` by default, ``ci`` (thorough) with HYPOTHESIS_PROFILE=ci.

``tests/conftest.py`` registers and loads the profiles. A test that needs
more (or fewer) examples than the profile's default asks for
``@settings(max_examples=examples(n))``: ``n`` in ``ci``, about a quarter
of it in ``fast``. A bare ``max_examples=n`` would override every profile.
"""

from __future__ import annotations

from hypothesis import settings

CI_EXAMPLES = 100
"""The ``ci`` profile's default number of examples (Hypothesis's own default)."""

FAST_EXAMPLES = 25
"""The ``fast`` profile's default number of examples: a quarter of ``ci``'s."""

MIN_EXAMPLES = 10
"""The fewest examples ``examples(n)`` scales down to (unless ``n`` is smaller)."""


def examples(n: int) -> int:
    """``n`` examples in the ``ci`` profile, scaled like the profile's default elsewhere.

    The scale is the loaded profile's ``max_examples`` over ``CI_EXAMPLES``,
    so ``fast`` gives about ``n / 4``, never below ``MIN_EXAMPLES`` (or ``n``
    when that is smaller).
    """
    scale = settings().max_examples / CI_EXAMPLES  # settings() is the loaded profile's
    return max(min(n, MIN_EXAMPLES), round(n * scale))
