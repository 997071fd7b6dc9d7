"""Playing at the table the way a person does, for the browser tests.

Three things several tests did each in their own copy: play cards like a
quick player (a card that can go, else turn three), follow the practice
round's hints to its end, and hold back the server's messages to one page
(a slow connection, for races that page must lose). The loops wait on what
the page shows; the short pause between two looks is only how often they
look, never what decides a test (``tests/test_suite_shape.py``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

PLAYABLE = "#mine button.card.can:not(.flying):not([data-source=hand])"
"""A card of one's own that can go to the middle now (not the one in flight)."""
LOOK_AGAIN_MS = 120
"""How often a loop looks at the table again while it waits for a change."""


def _play_one(page: Page, *, tap: bool = False) -> bool:
    """Play a card that can go (and its pile when asked), else turn three (R3).

    False when the table changed under the click: the caller looks again.
    """
    card = page.locator(PLAYABLE)
    try:
        if card.count():
            _press(card.first, tap)
            target = page.locator("#middle .card.target")
            if target.count():
                _press(target.first, tap)
        else:
            page.keyboard.press("Space")  # turn three (R3)
    except Exception:  # the view changed under the click: look again
        return False
    return True


def _press(locator: Locator, tap: bool) -> None:
    # A phone page taps, a desktop page clicks; both give up quickly so a
    # card that left meanwhile costs one look, not Playwright's long wait.
    if tap:
        locator.tap(timeout=1000)
    else:
        locator.click(timeout=1000)


def play_until(
    page: Page,
    done: Callable[[], bool],
    *,
    limit: float = 120.0,
    after_move: Callable[[int], None] | None = None,
) -> int:
    """Play like a quick player until *done*; the number of moves made.

    Waits out the countdown; *after_move* is called with the count after
    each move (a screenshot at the twelfth, say). Fails after *limit*
    seconds without *done*.
    """
    moves = 0
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"not done after {moves} moves"
        if not page.locator("#countdown").is_visible() and _play_one(page):
            moves += 1
            if after_move is not None:
                after_move(moves)
        page.wait_for_timeout(LOOK_AGAIN_MS)
    return moves


def play_moves(page: Page, moves: int, limit: float = 30.0) -> None:
    """Make *moves* moves the table answered (one's own cards changed after each)."""
    done = 0
    deadline = time.monotonic() + limit
    while done < moves:
        assert time.monotonic() < deadline, f"only {done} moves in {limit:g} s"
        if page.locator("#countdown").is_visible():
            page.wait_for_timeout(LOOK_AGAIN_MS)
            continue
        before = page.locator("#mine").inner_html()
        if not _play_one(page):
            continue
        try:  # the table answered: the person's own cards changed
            page.wait_for_function(
                "before => document.querySelector('#mine').innerHTML !== before",
                arg=before,
                timeout=3000,
            )
        except Exception:
            continue
        done += 1


def follow_hints(
    page: Page,
    *,
    tap: bool = False,
    limit: float = 240.0,
    heard: Callable[[str], None] | None = None,
    after_move: Callable[[], None] | None = None,
) -> None:
    """Do what the practice round's hint points at until its end shows.

    *heard* gets each hint's words as they are read; *after_move* is called
    after each hinted card was played.
    """
    end = page.locator("#practice-end")
    hint = page.locator("#hint")
    deadline = time.monotonic() + limit
    while not end.is_visible():
        assert time.monotonic() < deadline, "the practice round did not end"
        try:
            if heard is not None:
                heard(hint.inner_text(timeout=1000))
            hinted = page.locator("#mine .hinted")
            if hinted.count():
                _press(hinted.first, tap)
                target = page.locator("#middle .card.target")
                if target.count():
                    _press(target.first, tap)
                if after_move is not None:
                    after_move()
        except Exception:  # the view changed under the click: look again
            pass
        page.wait_for_timeout(LOOK_AGAIN_MS)
    expect(end).to_be_visible()


class HeldBack:
    """A page whose messages from the server can be held back, as on a slow
    connection: while ``hold()`` is on, the page keeps seeing the table as
    it was, until its next move goes out; then everything held arrives.

    Pongs always pass, so the page never takes the held-back table for a
    lost connection (socket.js's heartbeat) on a slow machine.
    """

    def __init__(self, page: Page) -> None:
        self.on = False
        self.held: list[str | bytes] = []
        self.sockets: list[WebSocketRoute] = []
        page.route_web_socket(re.compile(r".*/play/.*/ws$"), self._route)

    def hold(self) -> None:
        self.on = True

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.sockets.append(ws)

        def from_server(message: str | bytes) -> None:
            if self.on and '"pong"' not in str(message):
                self.held.append(message)
            else:
                ws.send(message)

        def from_page(message: str | bytes) -> None:
            server.send(message)
            if self.on and '"move"' in str(message):
                self.on = False  # the stale move is on its way: let time run
                for old in self.held:
                    ws.send(old)
                self.held.clear()

        server.on_message(from_server)
        ws.on_message(from_page)
