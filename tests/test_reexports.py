"""Every name olcore.bounds and olcore.streams exposed before the split is still importable there."""

from __future__ import annotations

import pytest

import olcore
from olcore import bounds, comparators, export, measure, stream, streams

BOUNDS_BEFORE = [
    "halving", "weighted_majority", "weighted_majority_constants", "randomized_weighted_majority",
    "weighted_average", "WEIGHTED_AVERAGE_ETA_MAX", "hedge", "hedge_eta", "hedge_regret", "perceptron",
    "perceptron_nonseparable", "winnow", "winnow_general", "ogd_hinge", "ogd_hinge_eta", "ogd_hinge_regret",
    "passive_aggressive_separable", "passive_aggressive_pa1", "passive_aggressive_pa2", "radius", "margin",
    "hinge_loss", "squared_hinge_loss", "best_u_nonseparable", "widrow_hoff", "widrow_hoff_best_eta",
    "widrow_hoff_tuned", "check_unit_ball", "UnitBallReport", "widrow_hoff_clairvoyant",
    "widrow_hoff_comparator", "widrow_hoff_min", "widrow_hoff_optimal_eta", "widrow_hoff_theorem",
    "WidrowHoffBound", "online_to_batch", "widrow_hoff_prefix_min", "StreamError",
]
STREAMS_BEFORE = [
    "Stream", "KINDS", "MAX_ROUNDS", "MAX_COLUMNS", "MAX_CELLS", "MAX_BYTES", "perfect_expert",
    "expert_error_rates", "loss_matrix", "separable", "disjunction", "regression", "from_arrays", "read_csv",
    "template_csv", "to_csv", "format_help", "adversary_consistent", "adversary_wm", "StreamError",
]


@pytest.mark.parametrize("name", BOUNDS_BEFORE)
def test_bounds_names(name):
    assert hasattr(bounds, name)


@pytest.mark.parametrize("name", STREAMS_BEFORE)
def test_streams_names(name):
    assert hasattr(streams, name)


def test_moved_names_are_the_same_objects():
    for n in measure.__all__:
        assert getattr(bounds, n) is getattr(measure, n)
    for n in comparators.__all__:
        assert getattr(bounds, n) is getattr(comparators, n)
    for n in stream.__all__:
        assert getattr(streams, n) is getattr(stream, n)
    assert set(bounds.__all__) >= set(BOUNDS_BEFORE) - {"StreamError"}
    assert set(streams.__all__) >= set(STREAMS_BEFORE) - {"StreamError"}


def test_old_homes_of_moved_names():
    from olcore.linear.eg import simplex_stream
    assert simplex_stream is streams.simplex_stream
    assert export.MAX_CELLS == export.MAX_EXPORT_CELLS and export.MAX_EXPORT_CELLS != streams.MAX_CELLS
    assert olcore.BoundReport is bounds.BoundReport
