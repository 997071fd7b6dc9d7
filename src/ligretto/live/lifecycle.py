"""The life of an online table's game: start, deal, "Ligretto!", resume, play again.

Each step works on the table's state through its actor
(:class:`~ligretto.live.actor.TableActor`) and runs inside the actor, one
command at a time.  The timers set here come back through the table's
queue ("go" after the countdown, "next" after the scores, "away" for a
person who stays away).
"""

from __future__ import annotations

import secrets

from ligretto.live import encoder
from ligretto.live.actor import TableActor
from ligretto.live.connection import Connection
from ligretto.live.phase import Phase
from ligretto.live.protocol import Reason
from ligretto.live.scoring.round_end import end_round
from ligretto.live.seating import Seat
from ligretto.live.state import GameState, TableRound


def start(table: TableActor, conn: Connection) -> None:
    """The host's "start": the game from the lobby, or the next round now."""
    state = table.state
    if not table.host_only(conn):
        return
    if state.phase == Phase.LOBBY:
        least = state.options.min_players
        if len(state.seating.taken()) < least:  # R1
            table.refuse(conn, Reason.TOO_FEW_PLAYERS, f"at least {least} seats must be taken (R1)")
            return
        begin_game(table)
    elif state.phase == Phase.ROUND_OVER and not state.round.scoring:
        deal(table)
    elif state.phase == Phase.GAME_OVER:
        table.refuse(conn, Reason.GAME_OVER, "the game is over")
    else:
        table.refuse(conn, Reason.ALREADY_STARTED, "the round is on")


def play_again(table: TableActor, conn: Connection) -> None:
    """A new game at the same table: same seats, fresh Tafel game.

    Only once the Tafel has decided the game (T4/T5): a game in progress
    is never thrown away.  People keep their seats and tokens, bots stay,
    stand-ins keep playing for those still away.
    """
    if not table.host_only(conn):
        return
    if table.state.phase != Phase.GAME_OVER:
        table.refuse(conn, Reason.GAME_NOT_OVER, "the game is not over yet")
        return
    table.state.game = GameState()
    table.state.round = TableRound(last_middle=table.state.round.last_middle)
    begin_game(table)


def begin_game(table: TableActor) -> None:
    """Close the seats, open the Tafel game, deal the first round (in the actor)."""
    state = table.state
    state.seating.close()
    for seat in state.seating:
        if seat.kind == "human" and not seat.conns:
            # Gone before the start: a stand-in takes over if they stay away.
            away_timer(table, seat)
    if table.recorder is not None:
        state.game.totals = [0] * len(state.seating)
        _open_tafel_game(table)
    deal(table)


def _open_tafel_game(table: TableActor) -> None:
    assert table.recorder is not None
    state = table.state

    def opened(game_id: str, token: str) -> None:
        state.game.tafel_game, state.game.tafel_token = game_id, token
        table.broadcast_table()

    names = state.seating.tafel_names()
    table.recorder.open_game(names, state.end, state.options, opened, group=state.group)


def deal_seed(table: TableActor) -> int:
    """The seed of the next deal (R2), kept with the round for its replay.

    Drawn from the operating system's secrets: the table's own generator
    (a Mersenne Twister, which also seeds the bots) can be worked out from
    enough of its outputs, and replays publish every deal's seed, so its
    next deals could be foreseen. A table whose settings fix a seed (tests)
    deals from that generator, the same deals every run.
    """
    if table.settings.seed is None:
        return secrets.randbits(63)
    return table.rng.getrandbits(63)


def deal(table: TableActor) -> None:
    """Deal the next round and count down to "Ligretto!" (in the actor)."""
    state, game = table.state, table.state.game
    game.round_no += 1
    state.rounds += 1
    dealt = table.settings.dealer(len(state.seating), deal_seed(table), state.options)
    state.round = TableRound(dealt, last_middle=state.round.last_middle)
    state.phase = Phase.COUNTDOWN
    game.last_round_over = None
    for seat in state.seating:
        seat.replan()
    encoder.send_views(dealt, game.round_no, state.seq, state.seating)
    count_down(table)


def count_down(table: TableActor) -> None:
    """ "Ligretto!" at a future time: every seat starts together whatever
    its latency (R3 start signal); after a restore, "Resuming…"."""
    state = table.state
    state.round.start_at = table.settings.clock.now() + table.settings.countdown
    encoder.send_all(state.seating, countdown_message(table))
    table.broadcast_table()
    table.set_timer("go", table.settings.countdown)


def countdown_message(table: TableActor) -> str:
    rnd = table.state.round
    assert rnd.start_at is not None
    return encoder.countdown(
        table.state.game.round_no, rnd.start_at, table.settings.clock.now(), resume=rnd.resuming
    )


def go(table: TableActor) -> None:
    """The countdown is over: "Ligretto!" — moves count from now (R3)."""
    if table.state.phase != Phase.COUNTDOWN:
        return
    table.state.phase = Phase.PLAYING
    table.state.round.resuming = False
    # The play clock of the replay runs from here (after a restart: on
    # from the last action's time).
    table.state.round.go_at = table.settings.clock.monotonic()
    table.stall.start()
    table.broadcast_table()
    table.plan_bots()


def next_round(table: TableActor) -> None:
    """The scores were shown long enough: deal the next round."""
    if table.state.phase == Phase.ROUND_OVER and not table.state.round.scoring:
        deal(table)


def resume(table: TableActor) -> None:
    """Take up the stored phase after a restart (before the task runs).

    A round being played waits for someone to come back and then counts
    down again; people are away until they reconnect (their stand-ins
    play only while someone is connected); a finished round that the
    Tafel has not answered yet is recorded now.
    """
    state, game = table.state, table.state.game
    phase, dealt = state.phase, state.round.dealt
    state.idle_since = table.settings.clock.monotonic()
    if phase in (Phase.COUNTDOWN, Phase.PLAYING) and dealt is not None:
        if dealt.is_over:
            state.phase = Phase.PLAYING
            table.call(lambda: end_round(table))
        else:
            state.phase, state.round.resuming, state.round.start_at = Phase.COUNTDOWN, True, None
    elif phase == Phase.ROUND_OVER and dealt is not None and game.recorded_round < game.round_no:
        table.call(lambda: end_round(table))
    elif phase == Phase.ROUND_OVER:
        table.set_timer("next", table.settings.between_rounds)
    if phase != Phase.LOBBY and table.recorder is not None:
        if game.tafel_game is not None and game.tafel_token is not None:
            table.recorder.reopen(game.tafel_game, game.tafel_token)
        elif phase != Phase.GAME_OVER:
            _open_tafel_game(table)
    if phase not in (Phase.LOBBY, Phase.GAME_OVER):
        for seat in state.seating:
            if seat.kind == "human":
                away_timer(table, seat)


def away_timer(table: TableActor, seat: Seat) -> None:
    """A stand-in takes over if the person stays away (the table must not stall)."""
    table.set_timer("away", table.settings.away_after, seat=seat.index, generation=seat.presence)
