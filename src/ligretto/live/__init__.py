"""Online play: the server-side authority of each table.

- :mod:`ligretto.live.protocol` — the versioned JSON messages (docs/protocol.md).
- :mod:`ligretto.live.phase` — a table's phases, shared by table and protocol.
- :mod:`ligretto.live.table` — one actor task per table: its queue and dispatch.
- :mod:`ligretto.live.state` — a table's state, one typed record (game, round).
- :mod:`ligretto.live.settings` — a table's timings, bots' pace and clock.
- :mod:`ligretto.live.actor` — what the table's parts need of its actor.
- :mod:`ligretto.live.queries` — what anyone may read of a table.
- :mod:`ligretto.live.moves` — moves checked and applied in arrival order (R3).
- :mod:`ligretto.live.lifecycle` — start, deal, "Ligretto!", resume, play again.
- :mod:`ligretto.live.scoring.round_end` — the end of a round, onto the Tafel game.
- :mod:`ligretto.live.stall` — the stall guard, "We're stuck" (R4).
- :mod:`ligretto.live.seat_commands` — joins, leaves, stand-ins, the host's seat commands.
- :mod:`ligretto.live.seating` — seats, joins, take-overs, bots in seats.
- :mod:`ligretto.live.persistence` — a table's state as stored data, and back.
- :mod:`ligretto.live.journal` — what the tables did, written in batches.
- :mod:`ligretto.live.encoder` — every message a table sends, as JSON text.
- :mod:`ligretto.live.bot_driver` — bots' moves after their reaction time.
- :mod:`ligretto.live.botseat` — one bot in a seat, deciding from its view.
- :mod:`ligretto.live.reasons` — rule errors as protocol reason codes.
- :mod:`ligretto.live.scoring.recorder` — finished rounds onto the table's Tafel game.
- :mod:`ligretto.live.scoring.tafel` — the Tafel service as the table's score keeper.
- :mod:`ligretto.live.clock` — time and timers, real or moved by hand in tests.
- :mod:`ligretto.live.registry` — all tables of a process, by invite code.
- :mod:`ligretto.live.visibility` — which events may be told to everybody (R3).
- :mod:`ligretto.live.client` — the wire view read back into the engine's type.
"""
