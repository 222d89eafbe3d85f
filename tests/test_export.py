import io

import numpy as np
import pandas as pd

from olcore import Trace, export, streams


def make(T=6, k=2, seed=0):
    rng = np.random.default_rng(seed)
    s = streams.separable(T=T, d=k, gamma=0.1, seed=seed)
    W = rng.standard_normal((T + 1, k))
    tr = Trace(losses=rng.random(T), predictions=np.sign(rng.standard_normal(T)), weight_table=W,
               mistakes=rng.random(T) < 0.5)
    return s, tr


def test_columns_and_values_round_trip_through_csv():
    s, tr = make()
    df = pd.read_csv(io.StringIO(export.run_csv(tr, s, bound=np.arange(6.0))))
    assert list(df.columns) == ["round", "x1", "x2", "label", "prediction", "loss", "cumulative_loss",
                                "bound", "mistake", "w1", "w2"]
    np.testing.assert_array_equal(df["round"], np.arange(1, 7))
    np.testing.assert_allclose(df[["x1", "x2"]].to_numpy(), s.X, rtol=1e-9)
    np.testing.assert_allclose(df["cumulative_loss"], np.cumsum(tr.losses), rtol=1e-9)
    # the weights of row t are the ones used in round t, not the final ones
    np.testing.assert_allclose(df[["w1", "w2"]].to_numpy(), tr.weights[:-1], rtol=1e-9)


def test_epochs_cycle_the_stream_rows():
    s, _ = make(T=3)
    tr = Trace(losses=np.zeros(7), predictions=np.zeros(7), weight_table=np.zeros((1, 2)),
               weight_index=np.zeros(8, dtype=int))
    df, _ = export.run_frame(tr, s)
    np.testing.assert_allclose(df["x1"].to_numpy(), s.X[[0, 1, 2, 0, 1, 2, 0], 0])


def test_wide_blocks_are_left_out_with_a_note():
    s, tr = make(T=50, k=4)
    df, notes = export.run_frame(tr, s, max_cells=250)
    assert "x1" in df and "w1" not in df
    assert any("weights left out" in n for n in notes)
    df, notes = export.run_frame(tr, s, max_cells=10)
    assert "x1" not in df and len(notes) == 2


def test_left_out_says_what_run_frame_leaves_out():
    s, tr = make(T=50, k=4)
    for cells in (10, 250, 10_000):
        assert export.left_out(tr, s, max_cells=cells) == export.run_frame(tr, s, max_cells=cells)[1]


def test_column_extras_are_written_after_mistake_and_other_extras_are_not():
    from olcore.trace import LazyExtras

    s, tr = make(T=4, k=2)

    def never():
        raise AssertionError("a lazy extra was made by the export")

    t2 = Trace(losses=tr.losses, predictions=tr.predictions, weight_table=np.zeros((1, 0)),
               weight_index=np.zeros(5, dtype=int), mistakes=tr.mistakes,
               extras=LazyExtras({export.COLUMN_PREFIX + "score": np.arange(4.0), "M": np.zeros(5)},
                                 {"norm_sq": never}))
    df, notes = export.run_frame(t2, s)
    assert list(df.columns) == ["round", "x1", "x2", "label", "prediction", "loss", "cumulative_loss", "mistake",
                                "score"] and notes == []          # no weights (k = 0), no other extras
    np.testing.assert_array_equal(df["score"], np.arange(4.0))
    df, _ = export.run_frame(tr, s)                                # a trace without them: the columns as before
    assert "score" not in df and list(df.columns)[-2:] == ["w1", "w2"]
