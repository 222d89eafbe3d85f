r"""Streams: the :class:`Stream` type (:mod:`olcore.stream`), seeded generators, user-supplied arrays and CSV files, all validated.

Every stream is a :class:`Stream`: a kind, the per-round inputs ``X`` (T, k), the labels
``y`` (T,) (``None`` for a loss matrix) and ``info``, the facts its generator guarantees
(the perfect expert, the separator and margin, the relevant attributes, ...).

The kinds, their alphabets and the size limits are listed in :mod:`olcore.stream`.

Randomness only through ``seed`` and ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

from ..stream import KINDS, MAX_BYTES, MAX_CELLS, MAX_COLUMNS, MAX_ROUNDS, Stream, from_arrays
from .generators import (disjunction, expert_error_rates, loss_matrix, perfect_expert, regression,
                         rademacher_linear, separable, simplex_stream)
from .csv import format_help, read_csv, template_csv, to_csv
from .adversaries import adversary_budget, adversary_consistent, adversary_wm
from ..errors import StreamError  # noqa: F401  (olcore.streams.StreamError: the name older code imports)

__all__ = [
    "Stream", "KINDS", "MAX_ROUNDS", "MAX_COLUMNS", "MAX_CELLS", "MAX_BYTES",
    "perfect_expert", "expert_error_rates", "loss_matrix", "separable", "disjunction",
    "regression", "simplex_stream", "rademacher_linear", "from_arrays", "read_csv", "template_csv", "to_csv", "format_help",
    "adversary_consistent", "adversary_wm", "adversary_budget",
]
