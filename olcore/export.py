r"""A run as a table: one row per round, ready to download as CSV.

Columns: ``round`` (1-based), the round's inputs ``x1..xk`` (or ``e1..en`` / ``l1..ln``),
``prediction``, ``label``, ``loss``, ``cumulative_loss``, ``bound`` (the bound so far, when
given), ``mistake`` for classifiers, then one column ``name`` for each extra
``column:name`` of the trace (:data:`COLUMN_PREFIX`; none for the learners' own traces), then
``w1..wk``: the weights *used* in that round (row ``t`` of ``trace.weights``; a trace with
``k = 0`` weights has none, for a learner whose state is no weight vector, such as the kernel
Perceptron's :math:`f_t` in its RKHS).  Wide weight or input blocks are dropped beyond
``max_cells`` values so a download stays a few tens of MB at most; the returned notes
say what was left out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .stream import KINDS, Stream
from .trace import Trace

__all__ = ["run_frame", "run_csv", "left_out", "MAX_EXPORT_CELLS", "MAX_CELLS", "COLUMN_PREFIX"]

#: A trace's extra named ``COLUMN_PREFIX + name`` (an array (T,)) is downloaded as the column ``name``.
COLUMN_PREFIX = "column:"

#: The most values a downloaded table holds before wide blocks (inputs, weights) are left out.
MAX_EXPORT_CELLS = 2_000_000
#: Old name of :data:`MAX_EXPORT_CELLS` (not :data:`olcore.stream.MAX_CELLS`, the stream size limit).
MAX_CELLS = MAX_EXPORT_CELLS


def _plan(trace: Trace, stream: Stream | None, max_cells: int) -> tuple[bool, bool, list[str]]:
    """Which wide blocks fit the cell budget: (with inputs, with weights, notes on what is left out)."""
    T, notes, budget = trace.T, [], max_cells
    with_inputs = stream is not None and T * stream.k <= budget
    if with_inputs:
        budget -= T * stream.k
    elif stream is not None:
        notes.append(f"inputs left out ({T:,} rounds x {stream.k:,} columns is too large to download)")
    with_weights = T * trace.k <= budget
    if not with_weights:
        notes.append(f"weights left out ({T:,} rounds x {trace.k:,} weights is too large to download)")
    return with_inputs, with_weights, notes


def left_out(trace: Trace, stream: Stream | None = None, max_cells: int = MAX_EXPORT_CELLS) -> list[str]:
    """The notes :func:`run_frame` returns (what is left out), without building the table."""
    return _plan(trace, stream, max_cells)[2]


def run_frame(trace: Trace, stream: Stream | None = None, bound=None,
              max_cells: int = MAX_EXPORT_CELLS) -> tuple[pd.DataFrame, list[str]]:
    """The run as a DataFrame and a list of notes on anything left out.

    Parameters
    ----------
    trace : Trace
    stream : Stream, optional
        Adds the inputs and labels of each round (the stream must have ``trace.T`` rounds
        or be cycled to it, as with ``epochs > 1``).
    bound : float or array (T,), optional
        The bound so far after each round.
    max_cells : int, default=MAX_EXPORT_CELLS
    """
    T = trace.T
    with_inputs, with_weights, notes = _plan(trace, stream, max_cells)
    cols: dict[str, np.ndarray] = {"round": np.arange(1, T + 1)}
    if stream is not None:
        rows = np.arange(T) % stream.T  # epochs > 1 cycle the stream
        prefix = KINDS[stream.kind].prefix
        if with_inputs:
            X = stream.X[rows]
            for j in range(stream.k):
                cols[f"{prefix}{j + 1}"] = X[:, j]
        if stream.y is not None:
            cols["label"] = stream.y[rows]
    cols["prediction"] = np.asarray(trace.predictions)
    cols["loss"] = trace.losses
    cols["cumulative_loss"] = trace.cumulative_loss
    if bound is not None:
        cols["bound"] = np.broadcast_to(np.asarray(bound, dtype=float), (T,))
    if trace.mistakes is not None:
        cols["mistake"] = trace.mistakes.astype(int)
    for key in [k for k in trace.extras if k.startswith(COLUMN_PREFIX)]:     # (keys only: lazy extras stay unmade)
        cols[key[len(COLUMN_PREFIX):]] = np.broadcast_to(np.asarray(trace.extras[key]), (T,))
    if with_weights:
        W = trace.weights_on(np.arange(T))
        for j in range(trace.k):
            cols[f"w{j + 1}"] = W[:, j]
    return pd.DataFrame(cols), notes


def run_csv(trace: Trace, stream: Stream | None = None, bound=None, max_cells: int = MAX_EXPORT_CELLS) -> str:
    """:func:`run_frame` as CSV text."""
    frame, _ = run_frame(trace, stream, bound, max_cells)
    return frame.to_csv(index=False, float_format="%.10g")
