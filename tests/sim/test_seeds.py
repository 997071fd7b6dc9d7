"""Round seeds: stable, distinct, and fixed across releases."""

from ligretto.sim.seeds import derive_seed


def test_derived_seeds_are_stable_and_distinct() -> None:
    seeds = {derive_seed(1, i) for i in range(10_000)}
    assert len(seeds) == 10_000
    assert derive_seed(1, 5) == derive_seed(1, 5)
    assert derive_seed(1, 5) != derive_seed(2, 5)
    assert all(0 <= s < 2**63 for s in seeds)
    # a fixed value guards against an accidental change of the derivation,
    # which would silently change every documented result
    assert derive_seed(1, 0) == 3395948882924712079
