"""Online play: the server-side authority of each table.

- :mod:`ligretto.live.protocol` — the versioned JSON messages (docs/protocol.md).
- :mod:`ligretto.live.table` — one actor task per table that owns the round.
- :mod:`ligretto.live.registry` — all tables of a process, by invite code.
- :mod:`ligretto.live.botseat` — bots in seats, deciding from their view.
- :mod:`ligretto.live.tafel_link` — each finished round onto a Tafel game.
- :mod:`ligretto.live.visibility` — which events may be told to everybody (R3).
- :mod:`ligretto.live.client` — the wire view read back into the engine's type.
"""
