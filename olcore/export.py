r"""A run as a table: one row per round, ready to download as CSV.

Columns: ``round`` (1-based), the round's inputs ``x1..xk`` (or ``e1..en`` / ``l1..ln``),
``prediction``, ``label``, ``loss``, ``cumulative_loss``, ``bound`` (the bound so far, when
given), ``mistake`` for classifiers, then ``w1..wk``: the weights *used* in that round
(row ``t`` of ``trace.weights``).  Wide weight or input blocks are dropped beyond
``max_cells`` values so a download stays a few tens of MB at most; the returned notes
say what was left out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .streams import KINDS, Stream
from .trace import Trace

__all__ = ["run_frame", "run_csv", "MAX_CELLS"]

MAX_CELLS = 2_000_000


def run_frame(trace: Trace, stream: Stream | None = None, bound=None,
              max_cells: int = MAX_CELLS) -> tuple[pd.DataFrame, list[str]]:
    """The run as a DataFrame and a list of notes on anything left out.

    Parameters
    ----------
    trace : Trace
    stream : Stream, optional
        Adds the inputs and labels of each round (the stream must have ``trace.T`` rounds
        or be cycled to it, as with ``epochs > 1``).
    bound : float or array (T,), optional
        The bound so far after each round.
    max_cells : int, default=MAX_CELLS
    """
    T = trace.T
    cols: dict[str, np.ndarray] = {"round": np.arange(1, T + 1)}
    notes: list[str] = []
    budget = max_cells
    if stream is not None:
        rows = np.arange(T) % stream.T  # epochs > 1 cycle the stream
        prefix = KINDS[stream.kind].prefix
        if T * stream.k <= budget:
            X = stream.X[rows]
            for j in range(stream.k):
                cols[f"{prefix}{j + 1}"] = X[:, j]
            budget -= T * stream.k
        else:
            notes.append(f"inputs left out ({T:,} rounds x {stream.k:,} columns is too large to download)")
        if stream.y is not None:
            cols["label"] = stream.y[rows]
    cols["prediction"] = np.asarray(trace.predictions)
    cols["loss"] = trace.losses
    cols["cumulative_loss"] = trace.cumulative_loss
    if bound is not None:
        cols["bound"] = np.broadcast_to(np.asarray(bound, dtype=float), (T,))
    if trace.mistakes is not None:
        cols["mistake"] = trace.mistakes.astype(int)
    if T * trace.k <= budget:
        W = trace.weights_on(np.arange(T))
        for j in range(trace.k):
            cols[f"w{j + 1}"] = W[:, j]
    else:
        notes.append(f"weights left out ({T:,} rounds x {trace.k:,} weights is too large to download)")
    return pd.DataFrame(cols), notes


def run_csv(trace: Trace, stream: Stream | None = None, bound=None, max_cells: int = MAX_CELLS) -> str:
    """:func:`run_frame` as CSV text."""
    frame, _ = run_frame(trace, stream, bound, max_cells)
    return frame.to_csv(index=False, float_format="%.10g")
