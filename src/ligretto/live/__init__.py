"""Online play: the server-side authority of each table.

- :mod:`ligretto.live.protocol` — the versioned JSON messages (docs/protocol.md).
- :mod:`ligretto.live.phase` — a table's phases, shared by table and protocol.
- :mod:`ligretto.live.table` — one actor task per table: queue, dispatch, moves.
- :mod:`ligretto.live.seating` — seats, joins, take-overs, bots in seats.
- :mod:`ligretto.live.encoder` — every message a table sends, as JSON text.
- :mod:`ligretto.live.bot_driver` — bots' moves after their reaction time.
- :mod:`ligretto.live.botseat` — one bot in a seat, deciding from its view.
- :mod:`ligretto.live.reasons` — rule errors as protocol reason codes.
- :mod:`ligretto.live.recorder` — finished rounds onto the table's Tafel game.
- :mod:`ligretto.live.tafel_link` — the Tafel service as the table's score keeper.
- :mod:`ligretto.live.clock` — time and timers, real or moved by hand in tests.
- :mod:`ligretto.live.registry` — all tables of a process, by invite code.
- :mod:`ligretto.live.visibility` — which events may be told to everybody (R3).
- :mod:`ligretto.live.client` — the wire view read back into the engine's type.
"""
