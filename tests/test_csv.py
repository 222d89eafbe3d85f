"""Every CSV validation path gives a StreamError saying what is wrong and what is expected."""

import io

import numpy as np
import pytest

from olcore import StreamError, stream, streams


@pytest.mark.parametrize("kind", list(streams.KINDS))
def test_template_round_trips(kind):
    text = streams.template_csv(kind)
    s = streams.read_csv(text, kind)
    again = streams.read_csv(streams.to_csv(s), kind)
    np.testing.assert_allclose(s.X, again.X)
    assert s.kind == kind


def test_generated_stream_round_trips_through_csv_exactly_enough():
    s = streams.separable(T=50, d=3, gamma=0.1, seed=2)
    back = streams.read_csv(streams.to_csv(s).encode(), "linear")
    np.testing.assert_allclose(back.X, s.X, rtol=1e-9)
    np.testing.assert_array_equal(back.y, s.y)


def test_accepts_file_like_objects_bom_semicolons_and_blank_lines():
    text = "\ufeffx1;x2;y\n0.5;0.25;1\n\n-0.5;0.1;-1\n"
    s = streams.read_csv(io.BytesIO(text.encode("utf-8")), "linear")
    np.testing.assert_array_equal(s.y, [1, -1])
    assert s.X.shape == (2, 2)


BAD = [
    ("empty", b"", "experts", "empty"),
    ("only blank lines", b"\n\n  \n", "experts", "empty"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "experts", "binary"),
    ("not utf-8", b"e1,y\n\xff\xfe,1\n", "experts", "UTF-8"),
    ("no header", b"1,0,1\n0,1,0\n", "experts", "header"),
    ("label not last", b"y,e1\n1,0\n", "experts", "last column"),
    ("header only", b"e1,e2,y\n", "experts", "no rounds"),
    ("one column", b"y\n1\n", "experts", "at least one input"),
    ("ragged short", b"e1,e2,y\n1,0,1\n1,0\n", "experts", "line 3"),
    ("ragged long", b"e1,e2,y\n1,0,1,1\n", "experts", "line 2"),
    ("text cell", b"x1,x2,y\n0.1,abc,1\n", "linear", "'abc'"),
    ("nan", b"x1,x2,y\n0.1,nan,1\n", "linear", "NaN"),
    ("inf", b"x1,y\n0.1,1\ninf,-1\n", "linear", "line 3"),
    ("label alphabet linear", b"x1,y\n0.1,0\n", "linear", "-1, 1"),
    ("label alphabet experts", b"e1,y\n1,2\n", "experts", "0, 1"),
    ("advice not binary", b"e1,e2,y\n1,0.5,1\n", "experts", "only 0 and 1"),
    ("loss out of range", b"l1,l2\n0.1,1.5\n", "losses", "[0, 1]"),
    ("attribute not binary", b"x1,x2,y\n1,2,1\n", "disjunction", "only 0 and 1"),
    ("regression nan target", b"x1,y\n0.1,nan\n", "regression", "NaN"),
    ("experts01 outcome out of range", b"e1,y\n0.5,1.2\n", "experts01", "[0, 1]"),
]


@pytest.mark.parametrize("name, data, kind, needle", BAD, ids=[b[0] for b in BAD])
def test_bad_files_raise_a_clear_stream_error(name, data, kind, needle):
    with pytest.raises(StreamError) as e:
        streams.read_csv(data, kind)
    msg = str(e.value)
    assert needle.lower() in msg.lower(), msg
    assert "expected" in msg


def test_error_names_the_line_and_column_of_the_bad_cell():
    with pytest.raises(StreamError) as e:
        streams.read_csv(b"x1,x2,y\n0,0,1\n0,0,1\n0,0,-1\n0.3,7x,1\n", "linear")
    assert "line 5, column 2" in str(e.value)


def test_too_large_file():
    with pytest.raises(StreamError, match="MB"):
        streams.read_csv(b"e1,y\n" + b"1,1\n" * 100, "experts", max_bytes=50)


def test_too_many_rows_and_columns(monkeypatch):
    monkeypatch.setattr(stream, "MAX_ROUNDS", 3)  # the limit lives in the leaf olcore.stream
    with pytest.raises(StreamError, match="at most 3 rounds"):
        streams.read_csv(b"e1,y\n1,1\n1,1\n1,1\n1,1\n", "experts")
    monkeypatch.setattr(stream, "MAX_COLUMNS", 2)
    with pytest.raises(StreamError, match="at most 2"):
        streams.read_csv(b"e1,e2,e3,y\n1,1,1,1\n", "experts")


def test_unknown_kind():
    with pytest.raises(StreamError, match="kind"):
        streams.read_csv(b"a,y\n1,1\n", "images")


def test_from_arrays_checks_label_presence():
    with pytest.raises(StreamError, match="no labels"):
        streams.from_arrays("linear", [[1.0]], None)
    with pytest.raises(StreamError, match="no labels for kind"):
        streams.from_arrays("losses", [[0.5]], [1])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.bool_, np.float64, np.float32])
def test_binary_kinds_accept_every_numeric_type_without_sharing_the_callers_array(dtype):
    X = np.array([[1, 0, 1], [0, 0, 1]], dtype=dtype)
    s = streams.from_arrays("disjunction", X, [1, 0])
    assert s.X.dtype == np.int8 and s.X.tolist() == [[1, 0, 1], [0, 0, 1]]
    assert not np.shares_memory(s.X, X) and X.flags.writeable      # the caller's array stays the caller's


@pytest.mark.parametrize("dtype, bad", [(np.int8, -1), (np.int8, 2), (np.uint8, 255), (np.int64, 3),
                                        (np.int64, -2**40), (np.float64, 0.5), (np.float64, np.nan)])
def test_binary_kinds_name_the_first_bad_entry_whatever_the_type(dtype, bad):
    X = np.zeros((4, 3), dtype=dtype)
    X[2, 1] = bad
    with pytest.raises(StreamError, match=r"row 3, column 2") as err:
        streams.from_arrays("experts", X, [0, 1, 0, 1])
    assert "0 and 1" in str(err.value) or "finite" in str(err.value)


def test_from_arrays_keeps_a_float_array_read_only_and_copies_labels_it_converts():
    """The ownership rule in from_arrays' docstring: a float64 X is kept (and frozen), not copied;
    labels converted to int8 are a new array and the caller's stays writable."""
    X = np.random.default_rng(0).normal(size=(6, 2))
    y = np.array([1.0, -1.0, 1.0, 1.0, -1.0, 1.0])
    s = stream.from_arrays("linear", X, y)
    assert s.X is X and not X.flags.writeable
    assert s.y.dtype == np.int8 and not s.y.flags.writeable and y.flags.writeable
