"""Idempotency keys: a write's first answer kept for its retries, in the database.

The IETF draft "The Idempotency-Key HTTP Header Field": a client names a
write with a key of its choice; the first request with the key runs, its
answer is kept, and a retry with the same key and the same request gets
that answer again instead of writing twice. The keys live in the database
(``api_idempotency_keys``), so a retry that reaches another process, or
the same one after a restart, is answered the same.

What is kept, and for how long:

- a key is known by the SHA-256 of the key, the method and path, and the
  request's credential (``Authorization``): the same key from a client
  without the game's edit token is another key, and the key itself is never
  stored;
- the answer's body is sealed with the key (a keystream of SHAKE-256 from
  the key and a random salt): the answer that creates a game holds its
  edit token, which the database otherwise keeps only as a hash;
- a key expires :data:`KEEP` after its first request; expired keys are
  deleted by the next keyed write (their index is on ``created_at``);
- a first request still running after :data:`ABANDONED` is taken to have
  died with its process: the next retry runs the write anew;
- every key is counted for its owner (the write's token, or without one
  the client that sent it) and for its client (:class:`KeyLimits`): a new
  key beyond the owner's rate or beyond what the owner or the client may
  keep is refused before the write runs (a retry of a kept key is always
  answered). Each key kept costs about 1.15 KiB; without the bounds one
  client's no-op writes stored some 8 GiB a day.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ligretto.store.database import busy_guard, writer
from ligretto.store.models import Base, IdempotencyKeyRow
from ligretto.store.rows import aware

KEEP = timedelta(hours=24)
"""How long a key and its answer are kept (the draft suggests at least 24 hours)."""

ABANDONED = timedelta(minutes=5)
"""A first request that has not answered after this long is taken over by a retry.

Far longer than any write runs (a lock is waited for five seconds at most,
the largest import takes seconds): only a process that stopped leaves a
key this long.
"""

MAX_KEY_LENGTH = 255
"""The longest key accepted, in characters (visible ASCII, ``!`` to ``~``)."""

MAX_KEPT_BODY = 256 * 1024
"""The largest answer body kept for a retry, in bytes.

Every answer to a write is a few KiB at most (a game without its rounds, a
group with its members); only an import's answer, which repeats every round,
can be larger. A larger answer is not kept: its retry is told so (and where
the new resource is) instead of getting it again.
"""

RATE_WINDOW = timedelta(minutes=1)
"""The window of :attr:`KeyLimits.per_minute`."""

KEYS_PER_MINUTE = 120
"""New keys one owner may store a minute: a phone sending a long offline
session catches up in minutes (two writes a round)."""
KEYS_PER_OWNER = 3_000
"""Keys one owner may keep over :data:`KEEP`: a whole game of 1,000 rounds
entered in two steps each (T2/T3) takes 2,000."""
KEYS_PER_CLIENT = 10_000
"""Keys one client may keep over :data:`KEEP`, all its tokens together."""


@dataclass(frozen=True, slots=True)
class KeyLimits:
    """How many new keys one owner may store a minute, and how many an owner
    and a client may keep (over :data:`KEEP`) (``LIGRETTO_IDEMPOTENCY_…``).

    An owner is a write's token (``Authorization``), or the client for a
    write without one (creating a game or a group); a client is counted as
    the rate limits count it (an IPv4 address, an IPv6 /64). A scorekeeper
    writes a round in two steps, at most 1,000 rounds a game (T1-T3).
    """

    per_minute: int = KEYS_PER_MINUTE
    per_owner: int = KEYS_PER_OWNER
    per_client: int = KEYS_PER_CLIENT


@dataclass(frozen=True, slots=True)
class KeyRefusal:
    """A new key refused by :class:`KeyLimits`: ``code``, the ``limit`` it met,
    ``retry_after`` seconds until a key leaves the window, ``by`` owner or client."""

    code: Literal["idempotency_key_rate", "too_many_idempotency_keys"]
    limit: int
    retry_after: int
    by: Literal["owner", "client"]


_SEAL_CONTEXT = b"ligretto idempotency answer\x00"
_SALT_BYTES = 16

_ROWS = Base.metadata.tables[IdempotencyKeyRow.__tablename__]

State = Literal["new", "running", "different", "done", "refused"]


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    """The answer of a key's first request; ``body`` None when it was too large to keep."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes | None


@dataclass(frozen=True, slots=True)
class Claim:
    """What a key's record says about a request.

    ``new``: nobody ran it yet (or its first run died): run it now, then
    :meth:`IdempotencyStore.keep` or :meth:`IdempotencyStore.release`.
    ``running``: its first request still runs. ``different``: the key was
    used for another request. ``done``: ``answer`` is what it got.
    ``refused``: a new key beyond :class:`KeyLimits` (``refusal`` says
    which); nothing was stored.
    """

    state: State
    key_id: str
    answer: KeptAnswer | None = None
    refusal: KeyRefusal | None = None


def is_valid_key(key: str) -> bool:
    """Whether *key* is 1 to :data:`MAX_KEY_LENGTH` visible ASCII characters."""
    return 1 <= len(key) <= MAX_KEY_LENGTH and all("!" <= c <= "~" for c in key)


def holder_id(kind: str, name: str) -> str:
    """The hex SHA-256 an owner or a client is counted under (neither is stored as such)."""
    return hashlib.sha256(f"{kind}\x00{name}".encode("utf-8", "surrogatepass")).hexdigest()


def key_id(key: str, scope: str, credential: str) -> str:
    """The hex SHA-256 a key is stored under: the key within its scope and credential."""
    parts = (key, scope, credential)
    data = b"".join(
        len(p.encode("utf-8", "surrogatepass")).to_bytes(4, "big")
        + p.encode("utf-8", "surrogatepass")
        for p in parts
    )
    return hashlib.sha256(data).hexdigest()


def fingerprint(method: str, path: str, query: bytes, body: bytes) -> str:
    """The hex SHA-256 of what makes two requests the same: method, path, query and body."""
    digest = hashlib.sha256()
    for part in (method.encode("ascii"), path.encode("utf-8", "surrogatepass"), query, body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def _keystream(key: str, salt: bytes, size: int) -> bytes:
    return hashlib.shake_256(_SEAL_CONTEXT + salt + key.encode("ascii")).digest(size)


def seal(key: str, salt: bytes, data: bytes) -> bytes:
    """*data* sealed with *key* and *salt*; :func:`seal` again opens it."""
    if not data:
        return data
    stream = _keystream(key, salt, len(data))
    mixed = int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")
    return mixed.to_bytes(len(data), "big")


class IdempotencyStore:
    """The keys of API writes in the database. Thread-safe; one transaction per call."""

    def __init__(self, engine: Engine, limits: KeyLimits | None = None) -> None:
        self._writer = writer(engine)
        self.limits = limits or KeyLimits()

    def claim(
        self,
        key: str,
        *,
        scope: str,
        credential: str,
        request_hash: str,
        client: str = "",
        now: datetime | None = None,
    ) -> Claim:
        """Look the key up for this request and, if nobody runs it, take it.

        *credential* is the write's token, or for a write without one its
        *client*: a key is only ever found again by its owner, so one
        client cannot replay (nor fill) another's keys. Deletes the expired
        keys first, so an expired key counts as new; a new key beyond the
        limits is refused. Two processes taking one new key at once: one
        inserts, the other finds it (PostgreSQL raises the second insert;
        it reads again).
        """
        owner = credential or f"client {client}"
        ident = key_id(key, scope, owner)
        holders = (holder_id("owner", owner), holder_id("client", client))
        moment = now or datetime.now(UTC)
        for attempt in range(2):
            try:
                return self._claim(ident, key, scope, request_hash, holders, moment)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _claim(
        self,
        ident: str,
        key: str,
        scope: str,
        request_hash: str,
        holders: tuple[str, str],
        now: datetime,
    ) -> Claim:
        owner, client = holders
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(delete(_ROWS).where(_ROWS.c.created_at < now - KEEP))
            row = conn.execute(
                select(_ROWS).where(_ROWS.c.key_hash == ident).with_for_update()
            ).first()
            if row is None:
                refusal = self._refusal(conn, owner, client, now)
                if refusal is not None:
                    return Claim("refused", ident, refusal=refusal)
                conn.execute(
                    insert(_ROWS).values(
                        key_hash=ident,
                        scope=scope[:2000],
                        request_hash=request_hash,
                        created_at=now,
                        owner=owner,
                        client=client,
                    )
                )
                return Claim("new", ident)
            if row.request_hash != request_hash:
                return Claim("different", ident)
            if row.status is None:
                if aware(row.created_at) > now - ABANDONED:
                    return Claim("running", ident)
                # Its process stopped before the answer: this retry runs it.
                conn.execute(update(_ROWS).where(_ROWS.c.key_hash == ident).values(created_at=now))
                return Claim("new", ident)
            body = None if row.body is None else seal(key, row.salt or b"", row.body)
            headers = [(str(n), str(v)) for n, v in json.loads(row.headers or "[]")]
            return Claim("done", ident, KeptAnswer(row.status, headers, body))

    def _refusal(
        self, conn: Connection, owner: str, client: str, now: datetime
    ) -> KeyRefusal | None:
        """Why a new key of *owner* from *client* may not be stored now, if it may not.

        Counted in the database, so all processes of a deployment count
        together; two new keys of one owner at the same moment may both
        pass the last place (the bound is soft by the writes in flight).
        """
        limits = self.limits
        checks: tuple[tuple[str, str, datetime, int, timedelta], ...] = (
            ("owner", owner, now - RATE_WINDOW, limits.per_minute, RATE_WINDOW),
            ("owner", owner, now - KEEP, limits.per_owner, KEEP),
            ("client", client, now - KEEP, limits.per_client, KEEP),
        )
        for by, holder, since, limit, window in checks:
            column = _ROWS.c.owner if by == "owner" else _ROWS.c.client
            count, oldest = conn.execute(
                select(func.count(), func.min(_ROWS.c.created_at)).where(
                    column == holder, _ROWS.c.created_at > since
                )
            ).one()
            if count >= limit:
                wait = (aware(oldest) + window - now).total_seconds() if oldest else 1.0
                return KeyRefusal(
                    "idempotency_key_rate"
                    if window == RATE_WINDOW
                    else "too_many_idempotency_keys",
                    limit,
                    max(1, math.ceil(wait)),
                    "owner" if by == "owner" else "client",
                )
        return None

    def keep(self, key: str, ident: str, answer: KeptAnswer) -> None:
        """Keep *answer* for the key's retries (a body over :data:`MAX_KEPT_BODY` is not kept)."""
        salt = secrets.token_bytes(_SALT_BYTES)
        body = answer.body
        sealed = None if body is None or len(body) > MAX_KEPT_BODY else seal(key, salt, body)
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                update(_ROWS)
                .where(_ROWS.c.key_hash == ident)
                .values(
                    status=answer.status,
                    headers=json.dumps([list(h) for h in answer.headers]),
                    salt=salt,
                    body=sealed,
                )
            )

    def release(self, ident: str) -> None:
        """Forget a key whose request changed nothing (refused or failed): a retry runs anew."""
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(delete(_ROWS).where(_ROWS.c.key_hash == ident, _ROWS.c.status.is_(None)))
