r"""A bound evaluated on one run, with what a page needs to show it: :class:`BoundReport`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from ..errors import StreamError
from ..validate import check_int

__all__ = ["BoundReport"]


@dataclass(frozen=True, eq=False)
class BoundReport:
    r"""A theorem's bound on one run: its value, its curve over rounds, and whether it applies.

    Parameters
    ----------
    theorem : str
        Short name, e.g. ``"Novikoff's Perceptron bound"``.
    formula : str
        Plain-unicode legend formula, e.g. ``"(R/γ)²"``; charts name the trace :attr:`name`.
    value : float
        The bound after the whole run (``math.inf`` when it says nothing; never NaN).
    curve : array (T,) or None, default=None
        The bound after rounds 1..T; ``None`` means constant, equal to ``value``.  Stored
        as a read-only float copy.
    latex : str, default=""
        The inequality with this run's numbers substituted, e.g.
        ``r"M = 7 \le (1/0.15)^2 = 44.44"``.
    numbers : mapping of str to float, default={}
        The constants substituted (``R``, ``γ``, ``n``, ...); stored as a read-only mapping.
    applies : bool, default=True
        Whether the theorem's assumptions hold on this stream.
    why_not : str, default=""
        When ``applies`` is False: which assumption fails, in words a student understands
        (required then).
    source : str, default=""
        Citation by course and lecture, e.g.
        ``"UCL COMP0078, Online learning: Perceptron Bound [Novikoff]"``.
    statement : str, default=""
        Markdown: the theorem and its assumptions in one or two sentences.

    Raises
    ------
    StreamError
        ``value`` or a curve entry is NaN, ``curve`` is not one-dimensional, or ``applies``
        is False without ``why_not``.
    """

    theorem: str
    formula: str
    value: float
    curve: np.ndarray | None = None
    latex: str = ""
    numbers: Mapping[str, float] = field(default_factory=dict)
    applies: bool = True
    why_not: str = ""
    source: str = ""
    statement: str = ""

    def __post_init__(self) -> None:
        try:
            value = float(self.value)
        except (TypeError, ValueError):
            raise StreamError.bad("value", repr(self.value), "a number (math.inf when the bound says nothing)") from None
        if math.isnan(value):
            raise StreamError.bad("value", "NaN", "a number (math.inf when the bound says nothing)")
        object.__setattr__(self, "value", value)
        if self.curve is not None:
            try:
                c = np.array(self.curve, dtype=float)
            except (TypeError, ValueError):
                raise StreamError.bad("curve", "non-numeric values", "an array (T,) of bound values") from None
            if c.ndim != 1:
                raise StreamError.bad("curve", f"shape {c.shape}", "one value per round, shape (T,)")
            if np.isnan(c).any():
                raise StreamError.bad("curve", f"NaN at index {int(np.argmax(np.isnan(c)))}",
                                      "numbers (inf where the bound says nothing)")
            c.setflags(write=False)
            object.__setattr__(self, "curve", c)
        nums = {}
        for k, v in dict(self.numbers).items():
            if isinstance(v, np.ndarray):
                v = v.copy()
                v.setflags(write=False)
            nums[str(k)] = v
        object.__setattr__(self, "numbers", MappingProxyType(nums))
        object.__setattr__(self, "applies", bool(self.applies))
        if not self.applies and not self.why_not:
            raise StreamError.bad("why_not", "nothing", "the assumption that fails, when applies is False")

    def __reduce__(self):
        """Pickle through the constructor (``numbers`` is a read-only mapping proxy, which pickle
        cannot store; ``st.cache_data`` pickles every cached analysis that holds a report)."""
        return (type(self), (self.theorem, self.formula, self.value, self.curve, self.latex, dict(self.numbers),
                             self.applies, self.why_not, self.source, self.statement))

    @property
    def name(self) -> str:
        """The legend name of the bound's trace: ``"bound: " + formula``."""
        return "bound: " + self.formula

    @property
    def T(self) -> int | None:
        """The number of rounds of the curve (``None`` for a constant bound)."""
        return None if self.curve is None else int(self.curve.shape[0])

    def at(self, t: int) -> float:
        """The bound after ``t`` rounds, ``t`` in 0..T (constant ``value`` when there is no curve).

        ``t = 0`` gives the first entry of the curve (no round has been counted yet, so any
        non-negative number bounds it; the curve starts where it starts).
        """
        if self.curve is None:
            check_int(t, "t", 0, None)
            return self.value
        T = self.curve.shape[0]
        t = check_int(t, "t", 0, T)
        if T == 0:
            return self.value
        return float(self.curve[max(t, 1) - 1])

    def as_curve(self, T: int) -> np.ndarray:
        """The bound after rounds 1..T as a read-only array (T,): the curve's first ``T``
        entries, or ``value`` repeated when the bound is constant."""
        if self.curve is None:
            T = check_int(T, "T", 0, None)
            c = np.full(T, self.value)
            c.setflags(write=False)
            return c
        T = check_int(T, "T", 0, self.curve.shape[0])
        return self.curve[:T]
