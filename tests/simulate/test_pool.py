"""The worker split: the same results for any worker count."""

from ligretto.sim.seeds import derive_seed
from ligretto.simulate.pool import chunked, run_chunks


def test_chunked_covers_the_range_in_order() -> None:
    chunks = chunked(10, 4)
    assert [list(c) for c in chunks] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert chunked(0, 4) == []


def _squares(chunk: range) -> list[int]:
    return [derive_seed(9, i) % 1000 for i in chunk]


def test_run_chunks_same_result_with_one_and_two_workers() -> None:
    chunks = chunked(50, 7)
    progress: list[int] = []
    one = [x for part in run_chunks(_squares, chunks, workers=1) for x in part]
    two = [x for part in run_chunks(_squares, chunks, 2, progress.append) for x in part]
    assert one == two == [derive_seed(9, i) % 1000 for i in range(50)]
    assert sum(progress) == 50
