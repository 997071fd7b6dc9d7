"""Spread independent simulation jobs over worker processes or a Dask cluster,
deterministically.

The jobs are cut into chunks in a fixed way that does not depend on the
number of workers, each chunk is a pure function of its inputs, and results
come back in chunk order (``Pool.imap`` keeps order; a cluster's results
are read back in the order the chunks were submitted). So 1 worker, N
workers and a cluster of any size return the same list for the same inputs.

A study of hundreds of thousands of rounds outgrows one machine's cores:
with a scheduler's address the chunks go to a Dask distributed cluster
(:func:`run_on_cluster`). The ``distributed`` package is optional
(``pip install 'ligretto[cluster]'``) and imported only then; the rules,
bots and simulator never import it. Every worker needs the same ligretto
installed: a chunk names its work function by module, it does not carry
the code.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["ClusterError", "chunked", "run_chunks", "run_on_cluster"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds to reach a cluster's scheduler before giving up with a clear error.
CONNECT_TIMEOUT = 10.0


class ClusterError(RuntimeError):
    """The cluster cannot be used: ``distributed`` missing, or the scheduler unreachable."""


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
    cluster: str | None = None,
) -> Iterator[list[R]]:
    """Yield ``work(chunk)`` for every chunk, in chunk order.

    ``work`` must be a picklable top-level function when ``workers > 1`` or
    a ``cluster`` (a Dask scheduler's address) is given; with a cluster,
    ``workers`` is not used (the cluster has its own).
    ``on_chunk`` is called after each chunk with the number of results it
    produced (for a progress bar).
    """
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if cluster is not None:
        yield from run_on_cluster(work, chunks, cluster, on_chunk)
        return
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


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError as exc:  # the optional extra is not installed
        raise ClusterError(
            "--cluster needs the 'distributed' package: pip install 'ligretto[cluster]'"
        ) from exc
    try:
        # distributed ships no complete annotations for its constructor
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc


def run_on_cluster(
    work: Callable[[T], list[R]],
    chunks: Sequence[T],
    address: str,
    on_chunk: Callable[[int], None] | None = None,
) -> Iterator[list[R]]:
    """Yield ``work(chunk)`` for every chunk, in chunk order, computed on the
    cluster whose scheduler listens at ``address`` (``tcp://host:8786``).

    ``work`` must be a top-level function importable on the workers. Every
    chunk is submitted at once (the scheduler spreads them); ``pure=False``
    because two equal chunks are still two jobs the caller asked for.
    """
    client = _client(address)
    try:
        futures = client.map(work, list(chunks), pure=False)
        for future in futures:
            result: list[R] = future.result()
            if on_chunk is not None:
                on_chunk(len(result))
            yield result
    finally:
        client.close()
