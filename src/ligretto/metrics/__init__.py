"""What a serving process counts for Prometheus (``/metrics``, docs/deploy.md).

:mod:`~ligretto.metrics.series` defines every series, :mod:`~ligretto.metrics.moves`
counts the tables' moves on their hot path, :mod:`~ligretto.metrics.gc_pauses`
times the collector, :mod:`~ligretto.metrics.exposition` serves them all on
their own address. Online play and the web app import it; the pure core never does.
"""
