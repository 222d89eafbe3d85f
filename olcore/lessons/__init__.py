"""One pure analysis per lesson: ``analyse(stream, settings...) -> frozen result``.

Each module takes a validated stream and the lesson's settings as arguments (never page
globals), runs the learners, measures the stream, searches the comparator, builds every
theorem's :class:`olcore.report.BoundReport`, the experiments and the proof quantities, and
returns them in one frozen dataclass.  Pages only draw what an analysis returns.
"""

import math as _math

__all__ = ["band"]


def band(x: float, edges) -> int:
    r"""The band of ``x`` among increasing ``edges``: the largest ``i`` with ``edges[i] <= x``
    (``-1`` below the first edge); a lecture's multiple-choice answer about a count.

    >>> band(7, (0, 10, 50, 100)), band(100, (0, 10, 50, 100)), band(-1, (0, 10))
    (0, 3, -1)
    """
    from ..errors import StreamError

    e = [float(v) for v in edges]
    if not e or any(not _math.isfinite(v) for v in e) or any(b <= a for a, b in zip(e, e[1:])):
        raise StreamError.bad("edges", repr(tuple(edges)), "finite and increasing", label="The band edges")
    x = float(x)
    if _math.isnan(x):
        raise StreamError.bad("x", "nan", "a number", label="The value")
    return sum(v <= x for v in e) - 1
