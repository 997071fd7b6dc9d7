"""Waiting on an online table's actor from a test."""

from __future__ import annotations

import asyncio

from ligretto.live.table import Table


async def settled(table: Table) -> None:
    """Wait until the table has handled every command queued so far."""
    done = asyncio.get_running_loop().create_future()
    table.call(lambda: done.set_result(None))
    await done
