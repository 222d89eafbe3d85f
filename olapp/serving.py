"""The server process's settings: the garbage collector runs less often (:func:`collect_less`)."""

from __future__ import annotations

import gc

__all__ = ["collect_less", "GC_THRESHOLD"]


#: Allocations (net of frees) between two of Python's young-generation collections in a server
#: process; Python's default is 700.
GC_THRESHOLD = 20_000


def collect_less() -> None:
    """Raise the garbage collector's first threshold to :data:`GC_THRESHOLD` (process-wide; the
    older generations' thresholds are kept).

    A rerun allocates hundreds of thousands of short-lived objects (figures, their JSON, messages),
    and the server holds some 150,000-370,000 long-lived ones (modules, the shared memo).  With the
    default threshold, full collections of the long-lived objects stall every session during a hall's
    reruns; with 20,000 they are rarer and a hall's reruns cost less CPU (benchmarks/PERFORMANCE.md).  Objects that are
    garbage only as a cycle live a little longer; everything else is freed by reference counting,
    as before."""
    t0, t1, t2 = gc.get_threshold()
    if 0 < t0 < GC_THRESHOLD:                   # (0: collection disabled by someone else: left alone)
        gc.set_threshold(GC_THRESHOLD, t1, t2)
