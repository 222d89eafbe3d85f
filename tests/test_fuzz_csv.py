"""Fuzz every CSV reader: random bytes and structured mutations of valid files.

The only exception that may escape is StreamError, with a message that says what was
expected.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olcore import StreamError, streams

KINDS = list(streams.KINDS)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_or_stream_error(data, kind):
    try:
        s = streams.read_csv(data, kind)
    except StreamError as exc:
        msg = str(exc)
        assert msg and "expected" in msg, msg
        return None
    # anything accepted is a valid stream of that kind
    assert s.X.ndim == 2 and s.X.shape[0] >= 1 and np.isfinite(s.X).all()
    if s.y is not None:
        assert s.y.shape == (s.X.shape[0],) and np.isfinite(s.y).all()
    return s


@FUZZ
@given(data=st.binary(max_size=400), kind=st.sampled_from(KINDS))
def test_random_bytes(data, kind):
    read_or_stream_error(data, kind)


CELL = st.one_of(
    st.sampled_from(["0", "1", "-1", "0.5", "nan", "inf", "-inf", "", " ", "1e309", "abc", "1,2",
                     "\"1\"", "0x10", "1_000", "٣", "∞", "NaN", "+1", "1.0e-3", "y"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-3, 3).map(str),
    st.text(max_size=5),
)


@FUZZ
@given(kind=st.sampled_from(KINDS),
       header=st.lists(st.sampled_from(["e1", "x1", "l1", "y", "Y", "", "1", "a b", "\ufeffy"]), min_size=0, max_size=5),
       rows=st.lists(st.lists(CELL, min_size=0, max_size=6), min_size=0, max_size=8),
       sep=st.sampled_from([",", ";", "\t", "|"]),
       newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_structured_mutations(kind, header, rows, sep, newline):
    text = newline.join([sep.join(header)] + [sep.join(r) for r in rows])
    read_or_stream_error(text, kind)


@FUZZ
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**16), cut=st.integers(0, 400),
       junk=st.binary(max_size=8))
def test_valid_files_truncated_or_spliced(kind, seed, cut, junk):
    good = streams.template_csv(kind).encode()
    rng = np.random.default_rng(seed)
    pos = int(rng.integers(0, len(good) + 1))
    read_or_stream_error(good[:cut], kind)
    read_or_stream_error(good[:pos] + junk + good[pos:], kind)


@pytest.mark.parametrize("kind", KINDS)
def test_valid_template_is_accepted(kind):
    assert read_or_stream_error(streams.template_csv(kind), kind) is not None
