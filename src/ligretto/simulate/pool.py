"""Spread independent simulation jobs over worker processes, deterministically.

The jobs are cut into chunks in a fixed way that does not depend on the
number of workers, each chunk is a pure function of its inputs, and results
come back in chunk order (``Pool.imap`` keeps order). So 1 worker and N
workers return the same list for the same inputs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

__all__ = ["chunked", "run_chunks"]

T = TypeVar("T")
R = TypeVar("R")


def chunked(n: int, size: int) -> list[range]:
    """Cut ``range(n)`` into consecutive ranges of at most ``size``."""
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    return [range(start, min(start + size, n)) for start in range(0, n, size)]


def run_chunks(
    work: Callable[[T], list[R]],
    chunks: Sequence[T],
    workers: int = 1,
    on_chunk: Callable[[int], None] | None = None,
) -> Iterator[list[R]]:
    """Yield ``work(chunk)`` for every chunk, in chunk order.

    ``work`` must be a picklable top-level function when ``workers > 1``.
    ``on_chunk`` is called after each chunk with the number of results it
    produced (for a progress bar).
    """
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            result = work(chunk)
            if on_chunk is not None:
                on_chunk(len(result))
            yield result
        return
    # "spawn" would re-import the CLI in every worker; "fork" is cheaper where it
    # exists (Linux) and the jobs share no state that forking could break.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(processes=min(workers, len(chunks))) as pool:
        for result in pool.imap(work, chunks):
            if on_chunk is not None:
                on_chunk(len(result))
            yield result
