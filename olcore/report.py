r"""BoundReport: one theorem applied to one run, as the theorem box and the charts need it.

A lesson's analysis (``olcore.lessons.<lesson>``) returns one report per theorem it shows:
the bound's value after the whole run, its curve over rounds when it grows with t, the
inequality with the run's numbers substituted, whether the theorem's assumptions hold on
this stream (and if not, which fails), and where the notes prove it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .errors import StreamError

__all__ = ["BoundReport"]


@dataclass(frozen=True, eq=False)
class BoundReport:
    r"""A theorem's bound on one run.

    Parameters
    ----------
    theorem : str
        Short name, e.g. ``"Novikoff's Perceptron bound"``.
    formula : str
        Plain-unicode formula for legends, e.g. ``"(R/γ)²"``; charts name the trace ``"bound: " + formula``.
    value : float
        The bound after the whole run (``math.inf`` when it says nothing).
    curve : array (T,), optional
        The bound after rounds 1..T; ``None`` means constant (= ``value``).
    latex : str
        The inequality with this run's numbers substituted, e.g. ``r"M = 7 \le (1/0.15)^2 = 44.44"``.
    numbers : mapping of str to float
        The constants substituted (R, γ, n, ...).
    applies : bool
        Whether the theorem's assumptions hold on this stream.
    why_not : str
        When ``applies`` is False: which assumption fails, in words a student understands.
    source : str
        Citation by course and lecture, e.g. ``"UCL COMP0078, Online learning: Perceptron Bound"``.
    statement : str
        Markdown: the theorem and its assumptions in one or two sentences.
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
        set_ = object.__setattr__
        set_(self, "value", float(self.value))
        if self.curve is not None:
            c = np.array(self.curve, dtype=float)
            if c.ndim != 1:
                raise StreamError.bad("curve", f"shape {c.shape}", "a 1-D array (T,)")
            c.setflags(write=False)
            set_(self, "curve", c)
        set_(self, "numbers", MappingProxyType(dict(self.numbers)))
        if not self.applies and not self.why_not:
            raise StreamError.bad("why_not", "an empty reason", "why the theorem does not apply")

    @property
    def name(self) -> str:
        """The legend name of the bound's trace."""
        return f"bound: {self.formula}"

    def at(self, t: int) -> float:
        """The bound after ``t`` rounds (``t`` in 1..T; a constant bound for any ``t``)."""
        if self.curve is None:
            return self.value
        if not 1 <= t <= len(self.curve):
            raise StreamError.bad("t", str(t), f"a round in 1..{len(self.curve)}")
        return float(self.curve[t - 1])

    def as_curve(self, T: int) -> np.ndarray:
        """The bound after rounds 1..T as an array, whether it is constant or not."""
        if self.curve is None:
            return np.full(T, self.value)
        if len(self.curve) != T:
            raise StreamError.bad("T", str(T), f"the curve's length {len(self.curve)}")
        return self.curve
