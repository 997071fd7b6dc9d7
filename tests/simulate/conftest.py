"""A local Dask cluster for the tests of ``ligretto simulate --cluster``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A local cluster of two workers (threads of this process), on 127.0.0.1
    only: its scheduler's address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp://",  # a real address, as a scheduler elsewhere would have
        host="127.0.0.1",
        # The scheduler always serves HTTP (its health and metrics routes),
        # on port 8787 when no address is given: a free port here, and no
        # dashboard.
        dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"dashboard": False},
    ) as local:
        address: str = local.scheduler_address
        yield address
