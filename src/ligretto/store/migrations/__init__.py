"""Alembic migrations of the Tafel store (shipped with the package)."""
