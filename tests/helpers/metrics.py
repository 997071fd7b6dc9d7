"""Reading ``/metrics`` back: this process's registry, or a scrape over HTTP."""

from __future__ import annotations

import httpx
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

#: A scrape: (sample name, sorted label pairs) → value.
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def value(name: str, **labels: str) -> float:
    """A sample of this process's registry (0 when it has none yet)."""
    found = REGISTRY.get_sample_value(name, labels)
    return 0.0 if found is None else found


def parse(text: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(url: str) -> Samples:
    """``GET url`` (a metrics address) read as samples; raises on anything but 200."""
    answer = httpx.get(url, timeout=10, trust_env=False)
    answer.raise_for_status()
    return parse(answer.text)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, pairs), v in samples.items() if n == name and wanted <= set(pairs))
