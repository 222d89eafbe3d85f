import pickle

import numpy as np
import pytest

from olcore import StreamError, Trace


def dense(T=5, k=3, seed=0):
    rng = np.random.default_rng(seed)
    return Trace(losses=rng.random(T), predictions=rng.integers(0, 2, T),
                 weight_table=rng.random((T + 1, k)), mistakes=rng.random(T) < 0.5,
                 expert_losses=rng.random((T, k)))


def test_dense_trace_shapes_and_cumulatives():
    tr = dense()
    assert tr.T == 5 and tr.k == 3
    assert tr.weights.shape == (6, 3)
    np.testing.assert_allclose(tr.cumulative_loss, np.cumsum(tr.losses))
    best = np.cumsum(tr.expert_losses, axis=0).min(axis=1)
    np.testing.assert_allclose(tr.regret, np.cumsum(tr.losses) - best)
    assert tr.n_mistakes == int(tr.mistakes.sum())


def test_compact_weights_expand_to_the_same_rows():
    table = np.array([[0.0, 0.0], [1.0, -1.0], [2.0, 0.5]])
    index = np.array([0, 0, 1, 1, 1, 2])
    tr = Trace(losses=np.zeros(5), predictions=np.zeros(5), weight_table=table, weight_index=index)
    np.testing.assert_array_equal(tr.weights, table[index])
    for t in range(6):
        np.testing.assert_array_equal(tr.weights_at(t), table[index[t]])
    np.testing.assert_array_equal(tr.weights_on([5, 0, 2]), table[[2, 0, 1]])


def test_arrays_are_read_only_and_copied():
    losses = np.ones(3)
    tr = Trace(losses=losses, predictions=np.zeros(3), weight_table=np.zeros((4, 1)))
    losses[0] = 7
    assert tr.losses[0] == 1
    with pytest.raises(ValueError):
        tr.losses[0] = 2
    with pytest.raises(AttributeError):
        tr.losses = np.zeros(3)


def test_trace_pickles_for_the_cache():
    tr = dense()
    _ = tr.weights
    back = pickle.loads(pickle.dumps(tr))
    np.testing.assert_array_equal(back.weights, tr.weights)


@pytest.mark.parametrize("kwargs, field", [
    (dict(losses=np.zeros((2, 2)), predictions=np.zeros(2), weight_table=np.zeros((3, 1))), "losses"),
    (dict(losses=np.zeros(2), predictions=np.zeros(3), weight_table=np.zeros((3, 1))), "predictions"),
    (dict(losses=np.zeros(2), predictions=np.zeros(2), weight_table=np.zeros((2, 1))), "weight_table"),
    (dict(losses=np.zeros(2), predictions=np.zeros(2), weight_table=np.zeros((1, 1)), weight_index=[0, 0]), "weight_index"),
    (dict(losses=np.zeros(2), predictions=np.zeros(2), weight_table=np.zeros((1, 1)), weight_index=[0, 0, 1]), "weight_index"),
    (dict(losses=np.zeros(2), predictions=np.zeros(2), weight_table=np.zeros((3, 1)), mistakes=[True]), "mistakes"),
    (dict(losses=np.zeros(2), predictions=np.zeros(2), weight_table=np.zeros((3, 1)), expert_losses=np.zeros((3, 2))), "expert_losses"),
])
def test_bad_shapes_raise_stream_error_naming_the_field(kwargs, field):
    with pytest.raises(StreamError) as e:
        Trace(**kwargs)
    assert e.value.field == field
    assert "expected" in str(e.value)


def test_weights_at_out_of_range():
    with pytest.raises(StreamError, match="round"):
        dense().weights_at(6)


def test_expert_losses_may_be_made_on_first_read():
    from olcore.trace import LazyArray

    made = []

    def make(a):
        made.append(1)
        return a.astype(float)

    bits = np.array([[0, 1], [1, 1], [0, 0]], dtype=np.int8)
    tr = Trace(losses=np.zeros(3), predictions=np.zeros(3), weight_table=np.zeros((4, 2)),
               expert_losses=LazyArray((3, 2), make, bits))
    assert made == []
    e = tr.expert_losses
    assert made == [1] and e.dtype == float and not e.flags.writeable and tr.expert_losses is e
    np.testing.assert_array_equal(tr.cumulative_expert_loss[-1], [1.0, 2.0])
    with pytest.raises(StreamError, match="expert_losses"):
        Trace(losses=np.zeros(2), predictions=np.zeros(2), weight_table=np.zeros((3, 2)),
              expert_losses=LazyArray((3, 2), make, bits))
