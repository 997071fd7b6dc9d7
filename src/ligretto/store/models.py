"""Database tables of the Tafel (SQLAlchemy 2 typed ORM).

A round is one row; its counts are JSON arrays in seating order. Totals are
never stored: they are derived from the rounds (T6). ``games.version`` grows
by one with every change; writers check it to detect a second phone's edit.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    __tablename__ = "tafel_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    players: Mapped[str] = mapped_column(Text)  # JSON list, seating order (T1)
    mode: Mapped[str] = mapped_column(String(16))
    target: Mapped[int | None] = mapped_column(Integer)
    agreed_rounds: Mapped[int | None] = mapped_column(Integer)
    deck: Mapped[str] = mapped_column(String(16))
    row_storage: Mapped[bool] = mapped_column(Boolean)
    closed: Mapped[bool] = mapped_column(Boolean)
    scored: Mapped[bool] = mapped_column(Boolean)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoundRow(Base):
    __tablename__ = "tafel_rounds"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tafel_games.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    stacks: Mapped[str] = mapped_column(Text)  # JSON list (T2)
    middle: Mapped[str | None] = mapped_column(Text)  # JSON list or NULL while pending (T3)
    confirmed: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    """The history of a game (T6): what changed and when."""

    __tablename__ = "tafel_events"
    __table_args__ = (Index("ix_tafel_events_game_version", "game_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tafel_games.id", ondelete="CASCADE")
    )
    version: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    action: Mapped[str] = mapped_column(String(32))
    round_n: Mapped[int | None] = mapped_column(Integer)
    detail: Mapped[str] = mapped_column(Text)  # JSON object


class LiveTableRow(Base):
    """An online table, so that it outlives the server process (see
    docs/online-play.md).  ``state`` is the table's own JSON record (seats
    with token hashes only, phase, the round's seed, its Tafel game);
    the store does not look inside it."""

    __tablename__ = "live_tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # "open" or "closed"
    closed_reason: Mapped[str | None] = mapped_column(String(32))
    state: Mapped[str] = mapped_column(Text)
    # The process that serves the table, and until when its claim holds.
    owner: Mapped[str | None] = mapped_column(String(100))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LiveActionRow(Base):
    """One accepted action of a table's current round, in order: the
    round's seed and these rebuild it exactly (``Round.replay``)."""

    __tablename__ = "live_table_actions"

    code: Mapped[str] = mapped_column(
        String(16), ForeignKey("live_tables.code", ondelete="CASCADE"), primary_key=True
    )
    round_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)
    # Milliseconds of play since "Ligretto!" when it was accepted (R3).
    t_ms: Mapped[int | None] = mapped_column(Integer)


class RoundReplayRow(Base):
    """A finished round of an online table, replayable: ``data`` is its
    JSON record (seed, options, seats, actions with their times, lost
    races, result; docs/online-play.md).  ``n`` counts the table's rounds
    across its games; ``tafel_game`` is the game that scored it, by which
    the round is kept (``LIGRETTO_REPLAYS``), ``tafel_round`` the round's
    number on that game's board, which links the replay."""

    __tablename__ = "live_round_replays"
    __table_args__ = (
        Index("ix_live_round_replays_tafel_game", "tafel_game"),
        Index("ix_live_round_replays_finished_at", "finished_at"),
    )

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    tafel_game: Mapped[str | None] = mapped_column(String(32))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    data: Mapped[str] = mapped_column(Text)
    tafel_round: Mapped[int | None] = mapped_column(Integer)


class GroupRow(Base):
    """A group of people who play together (docs/tafel-api.md, groups).

    ``version`` grows with every change of the group itself (name, season,
    members, which games belong to it); the games keep their own versions.
    """

    __tablename__ = "tafel_groups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(Text)
    season_start: Mapped[date | None] = mapped_column(Date)
    season_end: Mapped[date | None] = mapped_column(Date)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MemberRow(Base):
    """A member of a group; ``key`` is the name as T1 compares names."""

    __tablename__ = "tafel_group_members"

    group_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tafel_groups.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(Text, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer)


class GroupGameRow(Base):
    """A game of a group: a game belongs to at most one group."""

    __tablename__ = "tafel_group_games"
    __table_args__ = (Index("ix_tafel_group_games_group", "group_id", "played_at"),)

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tafel_games.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tafel_groups.id", ondelete="CASCADE")
    )
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class IdempotencyKeyRow(Base):
    """A write's ``Idempotency-Key`` and the answer its first request got
    (docs/tafel-api.md, "Idempotency-Key"); kept 24 hours.

    The key itself is not stored: ``key_hash`` is the SHA-256 of the key
    with its scope (method, path and the request's credential), and the
    answer is sealed with the key (it may hold a new game's edit token).
    ``status`` is NULL while the first request still runs. ``owner`` and
    ``client`` are the SHA-256 of the token (or, without one, the client)
    and of the client the key came from: how many keys each has kept is
    bounded (docs/limits.md); NULL for keys kept before that.
    """

    __tablename__ = "api_idempotency_keys"
    __table_args__ = (
        Index("ix_api_idempotency_keys_created_at", "created_at"),
        Index("ix_api_idempotency_keys_owner", "owner", "created_at"),
        Index("ix_api_idempotency_keys_client", "client", "created_at"),
    )

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    scope: Mapped[str] = mapped_column(Text)  # "POST /api/games/<id>/rounds"
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None] = mapped_column(Integer)
    headers: Mapped[str | None] = mapped_column(Text)  # JSON list of [name, value]
    salt: Mapped[bytes | None] = mapped_column(LargeBinary)
    body: Mapped[bytes | None] = mapped_column(LargeBinary)  # sealed; NULL if too large
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    owner: Mapped[str | None] = mapped_column(String(64))
    client: Mapped[str | None] = mapped_column(String(64))


class StudyRow(Base):
    """A study of the strategy lab (``/lab``, docs/strategy.md): ``spec`` is
    what it simulates (JSON), ``result`` its report once it is done (JSON,
    NULL before). ``state`` is ``queued``, ``running``, ``done``,
    ``cancelled`` or ``stopped`` (the server stopped before it was done)."""

    __tablename__ = "lab_studies"
    __table_args__ = (Index("ix_lab_studies_created_at", "created_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    state: Mapped[str] = mapped_column(String(16))
    owner: Mapped[str] = mapped_column(String(100))  # the process that runs it
    spec: Mapped[str] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LobbyListingRow(Base):
    """An open public table as the lobby lists it (``GET /api/lobby``),
    written by the process that serves the table. ``listed_until`` is that
    process's lease on the listing: a process that died stops renewing it,
    and its tables leave the lobby once it has run out. ``listing`` is the
    table as the lobby shows it (JSON: seats, names, rules), never a token."""

    __tablename__ = "lobby_listings"
    __table_args__ = (Index("ix_lobby_listings_listed_until", "listed_until"),)

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    owner: Mapped[str] = mapped_column(String(100))
    language: Mapped[str] = mapped_column(String(8))
    free_seats: Mapped[int] = mapped_column(Integer)
    listing: Mapped[str] = mapped_column(Text)
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    listed_until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
