"""The server process's settings: the garbage collector runs less often (:func:`collect_less`).

(The event loop's batched wake-ups, a patch of Streamlit's runtime, are a hook in :mod:`olapp.compat`.)
"""

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
    default threshold the collector ran about 800 young, 70 middle and 5-6 full collections in a
    load run of two lessons (20 sessions each opening a lesson and rerunning it 3 times with seeds of
    their own, ``python -m benchmarks.load --part reruns --lesson wm_vs_hedge --lesson halving``):
    2.0 s of collection, each full one 130-380 ms during which no session is served.  With 20,000:
    24 young, 2 middle and no full collection, 0.5 s in all; the server's CPU per page load went
    0.127 -> 0.078 s (/wm_vs_hedge) and 0.109 -> 0.077 s (/halving), its resident memory did not
    change (415-418 MB), and the reruns' CPU stayed within this machine's noise.  Objects that are
    garbage only as a cycle live a little longer; everything else is freed by reference counting,
    as before."""
    t0, t1, t2 = gc.get_threshold()
    if 0 < t0 < GC_THRESHOLD:                   # (0: collection disabled by someone else: left alone)
        gc.set_threshold(GC_THRESHOLD, t1, t2)
