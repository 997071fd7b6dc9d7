"""Game ids and edit tokens: random, unguessable, and only the token's hash is stored."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

GAME_ID_BYTES = 12  # 96 random bits: nobody finds a game by counting
TOKEN_BYTES = 24  # 192 random bits
MAX_ID_LENGTH = 32
_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes


def new_game_id() -> str:
    """A fresh random game id (URL-safe)."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def new_token() -> str:
    """A fresh secret edit token (URL-safe); shown once, stored only as its hash."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The hex SHA-256 of *token*, as stored in the game row."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token_hash: str, token: str | None) -> bool:
    """Whether *token* hashes to *token_hash*, compared in constant time."""
    if not token:
        return False
    return hmac.compare_digest(token_hash, hash_token(token))


def is_game_id(game_id: object) -> bool:
    """Whether *game_id* could be a game id at all (checked before any query)."""
    # Anything else cannot be an id; refusing it early also keeps odd bytes
    # (PostgreSQL refuses NUL in text) away from the database.
    return isinstance(game_id, str) and _ID_PATTERN.fullmatch(game_id) is not None
