"""Every series ``/metrics`` shows: its name, its help, its labels and buckets.

Defined once per process, at import. With ``PROMETHEUS_MULTIPROC_DIR`` set
(several processes on one machine, docs/deploy.md) prometheus_client keeps
each value in a memory-mapped file of that directory, one file per process
and kind, and whichever process is scraped reads them all
(:mod:`ligretto.metrics.exposition`); the directory is created here, before
the first series opens its file in it. Without it the values live in this
process's memory.

Labels take values from short fixed lists (a route's template, a phase, a
limit's name), never from what a request carries: a table code, a game id or
a token never becomes a label. Children whose labels are known in advance
are bound here or where their names live, so counting never looks a label up.

Gauges sum over the processes that are alive (``livesum``): a process that
ends takes its seats and tables out of the sum (``mark_process_dead``). The
counters and histograms of a process that ended stay in the sums, so they
never go backwards.
"""

from __future__ import annotations

import os
from typing import Final

from prometheus_client import Counter, Gauge, Histogram

MULTIPROCESS_DIR: Final = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
"""The directory the processes of one machine share, or None (one process)."""

if MULTIPROCESS_DIR:
    os.makedirs(MULTIPROCESS_DIR, exist_ok=True)

# -- online play

SEATS: Final = Gauge(
    "ligretto_seats",
    "Seats taken at this deployment's online tables: people connected to their seat, and bots.",
    ["occupant"],
    multiprocess_mode="livesum",
)
SEATS_PEOPLE: Final = SEATS.labels(occupant="person")
SEATS_BOTS: Final = SEATS.labels(occupant="bot")

TABLES: Final = Gauge(
    "ligretto_tables",
    "Online tables open on this deployment, by phase (lobby, countdown, playing, "
    "round_over, game_over); their sum is the open tables.",
    ["phase"],
    multiprocess_mode="livesum",
)

MOVES_RECEIVED: Final = Counter(
    "ligretto_moves_received",
    "People's moves that reached their table's actor.",
)
MOVES_ANSWERED: Final = Counter(
    "ligretto_moves_answered",
    "People's moves answered (accepted or refused) by their table's actor.",
)
MOVE_ANSWER_BUCKETS: Final = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    1.0,
)
MOVE_ANSWER: Final = Histogram(
    "ligretto_move_answer_seconds",
    "From a person's move reaching its table's actor to its answer queued for "
    "sending (the table's queue and its work; not the network).",
    buckets=MOVE_ANSWER_BUCKETS,
)

# -- the process

LOOP_LAG_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LOOP_LAG: Final = Histogram(
    "ligretto_event_loop_lag_seconds",
    "How late the event loop woke a task sleeping 0.1 s (/healthz's watchdog), "
    "every 0.1 s: how long work held the loop that every request and table shares.",
    buckets=LOOP_LAG_BUCKETS,
)

GC_PAUSE: Final = Histogram(
    "ligretto_gc_pause_seconds",
    "Pauses of Python's cyclic garbage collector, by generation (2: a full "
    "collection); every thread waits for them.",
    ["generation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)

# -- the journal of the online tables

JOURNAL_BATCH_ACTIONS: Final = Histogram(
    "ligretto_journal_batch_actions",
    "Moves written by one batch of the tables' journal (group commit).",
    buckets=(0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500),
)
JOURNAL_COMMIT: Final = Histogram(
    "ligretto_journal_commit_seconds",
    "How long one batch of the tables' journal took to write and commit.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
)
JOURNAL_FAILURES: Final = Counter(
    "ligretto_journal_failures",
    "Batches of the tables' journal whose write failed (kept and written again).",
)

# -- HTTP

HTTP_REQUESTS: Final = Counter(
    "ligretto_http_requests",
    "HTTP requests answered, by route template (none: no route), method and status.",
    ["route", "method", "status"],
)

REFUSALS: Final = Counter(
    "ligretto_refusals",
    "Requests and connections refused by a limit that protects the server "
    "(docs/limits.md), by the limit's name.",
    ["limit"],
)

# -- the strategy lab

LAB_STUDIES: Final = Gauge(
    "ligretto_lab_studies",
    "The strategy lab's studies, running and queued.",
    ["state"],
    multiprocess_mode="livesum",
)
LAB_RUNNING: Final = LAB_STUDIES.labels(state="running")
LAB_QUEUED: Final = LAB_STUDIES.labels(state="queued")
