"""Accepted means handled: extreme but accepted numbers reach every lesson's analysis without overflow.

A real-valued stream (an upload of kind ``linear``, ``regression`` or ``oco``, or the Perceptron's typed
points) is accepted only if every number is 0 or has a size in [VALUE_MIN, VALUE_MAX]
(:data:`olcore.stream.VALUE_MAX`); anything else is refused when the stream is validated, with a message that
names the row and column and the range.  Within the range every analysis a page runs on such a stream must
either refuse it with a message a student can read (a :class:`olcore.StreamError` whose text names no internal
field) or return numbers that are finite where they are shown: the texts the lesson's content module builds
from the analysis (no ``nan``/``inf``), the claims those texts carry (true), and the theorem boxes (an
inequality with finite numbers whenever the theorem applies).

Hypothesis draws the streams: whole streams scaled to the ends of the range, cells drawn from the extremes
(±VALUE_MAX, ±VALUE_MIN, 0, ±1, log-uniform sizes), one extreme cell in an ordinary stream, constant columns,
rows of zeros.  Profiles are derandomized and bounded, so a run is reproducible and takes well under a minute;
``EXTREME_EXAMPLES=k`` in the environment multiplies the examples by k and draws them at random (a deeper search,
as was run to choose the range: see :data:`olcore.stream.VALUE_MAX`).
"""

from __future__ import annotations

import math
import os
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olcore import StreamError, claims, streams
from olcore.bounds.report import BoundReport
from olcore.stream import VALUE_MAX, VALUE_MIN
from olcore.validate import sci

HI, LO = VALUE_MAX, VALUE_MIN
E_HI, E_LO = int(round(math.log10(HI))), int(round(math.log10(LO)))


def profile(n: int):
    """A fixed, derandomized profile; ``EXTREME_EXAMPLES=k`` (an environment variable) multiplies the examples by
    k and draws them at random, for a deeper search than CI's."""
    k = int(os.environ.get("EXTREME_EXAMPLES", "0"))
    return settings(max_examples=n * max(k, 1), deadline=None, derandomize=k == 0, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ---- what a user may read -------------------------------------------------------------------------

_INTERNAL = re.compile(r"^\s*[A-Za-z_]\w*\s*:|\b[a-z]{2,}_[a-z_0-9]+\b")
_NONFINITE = re.compile(r"(?<![A-Za-z\\])(nan|inf)(?![A-Za-z])", re.IGNORECASE)


def user_facing(msg: str) -> None:
    """A message a page shows: says what was wrong and what is expected, in words (no ``X: found ...``,
    no ``best_fixed``-style identifiers), and no non-finite number."""
    assert msg, "an empty message"
    assert not _INTERNAL.search(msg), f"internal field name in a shown message: {msg!r}"


def shown(*texts) -> None:
    """Texts a page shows: no nan/inf printed, every claim they carry holds."""
    for t in texts:
        if t is None:
            continue
        if isinstance(t, (list, tuple)):
            shown(*t)
            continue
        if isinstance(t, dict):
            shown(*t.keys(), *t.values())
            continue
        if isinstance(t, BoundReport):
            report(t)
            continue
        if not isinstance(t, str):
            continue
        assert not _NONFINITE.search(t), f"a non-finite number is shown: {t!r}"
        bad = [c for c in claims.claims_of(t) if not c.holds]
        assert not bad, f"a false claim is shown: {bad[0].what!r} in {t!r}"


def report(r: BoundReport) -> None:
    """A theorem box: the inequality and the reason it does not apply have finite numbers; a theorem that
    applies has a finite value."""
    shown(r.latex, r.why_not, r.statement)
    if r.applies:
        assert math.isfinite(r.value) or not r.latex, f"{r.theorem}: applies with value {r.value}"


def run(fn, *args, **kwargs):
    """``fn(*args)``: its result, or ``None`` after checking a StreamError's message is for a user.  Numpy's
    overflow and invalid-value warnings are errors here: accepted numbers must compute without them."""
    with warnings.catch_warnings(), np.errstate(over="raise", invalid="raise", divide="raise"):
        warnings.simplefilter("error", RuntimeWarning)
        try:
            return fn(*args, **kwargs)
        except StreamError as exc:
            user_facing(str(exc))
            return None


# ---- the streams --------------------------------------------------------------------------------

def _in_range(v: float) -> bool:
    return v == 0 or LO <= abs(v) <= HI


SIZED = st.builds(lambda m, e, s: s * m * 10.0 ** e, st.floats(1.0, 9.99), st.integers(E_LO, E_HI - 1),
                  st.sampled_from([1.0, -1.0])).filter(_in_range)
EXTREME = st.one_of(st.sampled_from([0.0, HI, -HI, LO, -LO, 1.0, -1.0, HI / 3, -LO * 7]), SIZED)
SCALES = st.one_of(st.sampled_from([HI, LO, 1.0, HI / 7]), st.builds(lambda e: 10.0 ** e, st.integers(E_LO, E_HI)))


@st.composite
def matrices(draw, T_min: int = 2, T_max: int = 10, d_max: int = 3) -> np.ndarray:
    T = draw(st.integers(T_min, T_max))
    d = draw(st.integers(1, d_max))
    pattern = draw(st.sampled_from(["cells", "scaled", "one cell", "constant column", "zero rows"]))
    base = np.array(draw(st.lists(st.floats(-1, 1, allow_subnormal=False), min_size=T * d, max_size=T * d)),
                    dtype=float).reshape(T, d)
    if pattern == "cells":
        X = np.array(draw(st.lists(EXTREME, min_size=T * d, max_size=T * d)), dtype=float).reshape(T, d)
    elif pattern == "scaled":
        s = draw(SCALES)
        X = base * s
    elif pattern == "one cell":
        X = base.copy()
        X[draw(st.integers(0, T - 1)), draw(st.integers(0, d - 1))] = draw(EXTREME)
    elif pattern == "constant column":
        X = base * draw(SCALES)
        X[:, draw(st.integers(0, d - 1))] = draw(EXTREME)
    else:
        X = base * draw(SCALES)
        X[draw(st.integers(0, T - 1))] = 0.0
    bad = (X != 0) & ((np.abs(X) < LO) | (np.abs(X) > HI))
    X[bad] = np.clip(np.sign(X[bad]) * np.clip(np.abs(X[bad]), LO, HI), -HI, HI)
    return X


def signs(draw, T: int) -> np.ndarray:
    return np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T)), dtype=float)


@st.composite
def linear_streams(draw, T_min: int = 2, T_max: int = 10, d_max: int = 3):
    X = draw(matrices(T_min, T_max, d_max))
    return streams.from_arrays("linear", X, signs(draw, X.shape[0]), user=True)


@st.composite
def regression_streams(draw, kind: str = "regression"):
    X = draw(matrices())
    how = draw(st.sampled_from(["extreme", "linear", "signs"]))
    if how == "extreme":
        y = np.array(draw(st.lists(EXTREME, min_size=X.shape[0], max_size=X.shape[0])), dtype=float)
    elif how == "linear":
        y = np.clip(X.sum(axis=1), -HI, HI)
        y[(y != 0) & (np.abs(y) < LO)] = 0.0
    else:
        y = signs(draw, X.shape[0])
    return streams.from_arrays(kind, X, y, user=True)


# ---- the range itself ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["linear", "regression", "oco"])
@pytest.mark.parametrize("value", [HI * 1.5, -HI * 10, 1e308, LO / 2, -LO / 1000, 5e-324])
def test_values_just_outside_the_range_are_refused_with_row_column_and_range(kind, value):
    X = np.ones((4, 3))
    X[2, 1] = value
    with pytest.raises(StreamError) as e:
        streams.from_arrays(kind, X, [1.0, -1.0, 1.0, -1.0], user=True)
    msg = str(e.value)
    assert "row 3, column 2" in msg and sci(HI) in msg and sci(LO) in msg, msg
    if abs(value) < LO:         # a stream derived from a valid one (divided by its radius) may hold smaller numbers
        assert streams.from_arrays(kind, X, [1.0, -1.0, 1.0, -1.0]).X[2, 1] == value
    # the same cell in an uploaded file: named by the file's line and column
    text = "x1,x2,x3,y\n" + "\n".join(",".join(repr(v) for v in row) + f",{lab}" for row, lab in
                                       zip(X.tolist(), [1, -1, 1, -1]))
    with pytest.raises(StreamError) as e:
        streams.read_csv(text, kind)
    msg = str(e.value)
    assert msg.startswith("line 4, column 2: found") and sci(HI) in msg and "rescale the column" in msg, msg
    user_facing(msg)


@pytest.mark.parametrize("kind", ["regression", "oco"])
def test_a_real_target_outside_the_range_is_refused(kind):
    with pytest.raises(StreamError) as e:
        streams.read_csv(f"x1,y\n0.5,1\n0.25,{HI * 2!r}\n", kind)
    assert "line 3, column 2" in str(e.value)
    user_facing(str(e.value))


def test_the_ends_of_the_range_are_accepted():
    X = np.array([[HI, -HI], [LO, -LO], [0.0, 1.0]])
    s = streams.from_arrays("regression", X, [HI, -LO, 0.0], user=True)
    assert s.X.max() == HI and s.y[0] == HI


@pytest.mark.parametrize("value", [HI * 2, -LO / 10])
def test_typed_points_and_links_go_through_the_same_range(value):
    """The Perceptron's typed points (the table, and ``?pts=`` in a link) are refused outside the range, in words."""
    from olapp.content import perceptron as text
    from olcore.lessons import perceptron as P

    with pytest.raises(StreamError) as e:
        P.typed_stream([0.5, value], [0.1, 0.2], [1, -1])
    msg = str(e.value)
    assert msg.startswith("point 2, x1: found") and sci(HI) in msg, msg
    user_facing(msg)
    link = P.encode_points([0.5, value], [0.1, 0.2], [1, -1])
    with pytest.raises(StreamError, match="point 2") as e:
        P.parse_points(link)
    assert sci(HI) in str(e.value)
    start, warning = text.typed_start(link)
    assert start == text.TYPED and "could not be read" in warning and sci(HI) in warning
    assert sci(HI) in text.HELP.typed


@pytest.mark.parametrize("kind", ["linear", "regression", "oco"])
def test_the_upload_help_states_the_range(kind):
    assert sci(HI) in streams.format_help(kind) and sci(LO) in streams.format_help(kind)


def test_what_a_page_shows_of_a_library_message_names_no_internal_field():
    """controls.show_error shows StreamError.shown(): a check written for programs ("eta: found 0; ...") reads in
    words on a page, the field stays an attribute; messages already in words are shown as they are."""
    from olcore.validate import check_param

    with pytest.raises(StreamError) as e:
        check_param(0.0, "eta", 0, 1, lo_open=True)
    assert str(e.value).startswith("eta: found 0") and e.value.field == "eta"
    assert e.value.shown() == "The learning rate η: found 0; expected a number in (0, 1]."
    assert StreamError.bad("best_fixed", "a gap", "less").shown() == "The best fixed point θ*: found a gap; expected less."
    assert StreamError.bad("w_hat", "1", "2").shown() == "A value the lesson uses: found 1; expected 2."
    with pytest.raises(StreamError) as e:
        streams.read_csv("x1,y\n1e300,1\n", "linear")
    assert e.value.shown() == str(e.value) and str(e.value).startswith("line 2, column 1: found 1e+300")
    for msg in (e.value.shown(), StreamError.bad("X", "inf at row 1", "finite").shown()):
        user_facing(msg)


# ---- every lesson, on extreme streams ---------------------------------------------------------------

@profile(40)
@given(stream=linear_streams(), epochs=st.sampled_from([1, 3]))
def test_perceptron(stream, epochs):
    from olapp.content import perceptron as T
    from olcore.lessons import perceptron as P

    a = run(P.analyse, stream, epochs, "Upload")
    if a is None:
        return
    shown(T.readout(a), T.tally(a, a.T), T.mistakes(a, True), T.run_line(a), T.proof(a),
          T.convergence(a), a.novikoff, a.nonseparable, a.bound)
    if a.d == 2:
        for t in (0, a.T // 2, a.T):
            shown(T.data_space(a, t), T.weight_space(a, t))
    else:
        shown(T.not_2d(a))
    c = run(P.compare, stream, a.epochs, 1.0, 0.1, a.u)
    if c is not None:
        shown(T.compare(a, c), T.hyperplanes(c))
    r = run(P.ogd_regret, stream, a.epochs, a.u)
    if r is not None:
        shown(T.ogd_regret(r), r.report)
    cons = run(P.conservative, stream, a.epochs)
    if cons is not None:
        shown(T.conservative(cons))
    h = run(P.hinge_view, stream, a.u)
    if h is not None:
        shown(T.hinge_indicator(h), T.hinge_scale(h))
    g = run(P.regularised, stream, 0.5)
    if g is not None:
        shown(T.regularised(g))
    d = run(P.dual_ascent, stream, 1.0)
    if d is not None:
        shown(T.dual_sum(d), T.dual_increments(d), d.report)


@profile(25)
@given(stream=linear_streams(), alpha=st.sampled_from([0.5, 0.9]), a_sop=st.sampled_from([0.1, 1.0]))
def test_online_svm(stream, alpha, a_sop):
    from olapp.content import online_svm as T
    from olcore.lessons import online_svm as S

    a = run(S.analyse_alma, stream, alpha, 4)
    if a is not None:
        for t in (0, a.T // 2, a.T):
            shown(T.alma_readout(a, t), T.alma_updates(a, t), T.alma_margin(a, t))
            if a.X.shape[1] == 2:
                shown(T.alma_plane(a, t))
        shown(T.alma_updates(a), T.alma_margin(a), a.updates, a.final_margin)
    b = run(S.analyse_second_order, stream, a_sop)
    if b is not None:
        shown(T.sop_mistakes(b), T.table(b), T.table_caption(b), b.sop_bound, b.novikoff)
        if b.d == 2:
            shown(T.sop_plane(b))
    s = run(S.analyse_selective, stream, 0.1, a_sop)
    if s is not None:
        shown(T.selective(s), T.selective_sweep(s))
        if s.X.shape[1] == 2:
            shown(T.selective_plane(s, s.T))


@profile(25)
@given(stream=linear_streams(), K=st.sampled_from([("rbf", 2.0, 3, 1.0), ("rbf", 20.0, 3, 1.0), ("poly", 2.0, 6, 1.0),
                                                   ("poly", 2.0, 2, 0.0), ("linear", 2.0, 3, 1.0)]))
def test_kernel_perceptron(stream, K):
    from olapp.content import kernel_perceptron as T
    from olcore.lessons import kernel_perceptron as KP

    a = run(KP.analyse, stream, *K)
    if a is not None:
        for t in (0, a.T // 2, a.T):
            shown(T.status(a, t), T.mistakes(a, t), T.region(a, None, t))
        shown(T.mistakes(a), T.run_line(a), T.proof(a), T.download_columns(a), a.bound)
        assert math.isfinite(a.lim)
    b = run(KP.budget_run, stream, 2, 0, *K)
    if b is not None:
        shown(T.budget_status(b, b.trace.T), T.cache(b))
        if a is not None:
            shown(T.region(a, b, a.T))


@profile(20)
@given(stream=linear_streams(T_min=10, T_max=24), learner=st.sampled_from(["perceptron", "pa"]))
def test_mistakes_to_risk(stream, learner):
    from olapp.content import mistakes_to_risk as T
    from olcore.lessons import mistakes_to_risk as MR

    a = run(MR.analyse, stream, MR.UPLOAD, 5, 0.1, 0, learner, 0.05)
    if a is None:
        return
    for t in (0, a.n // 2, a.n):
        shown(T.status(a, t), T.ensemble(a, t), T.martingale(a, t))
    shown(T.derivation(a), T.choice(a), T.readout_choice(a), T.run_line(a), a.average_report, a.chosen_report,
          a.chosen_mistakes_report)
    r = run(MR.repetitions, MR.UPLOAD, min(a.n, MR.REP_N_MAX), 5, 0.1, 0, learner, 0.05, 5, stream)
    if r is not None:
        shown(T.repetitions(r))


@profile(15)
@given(data=st.data(), loss=st.sampled_from(["logistic", "squared", "hinge", "linear"]),
       domain=st.sampled_from([("ball", 1.0), ("box", 2.0), ("simplex", 1.0)]))
def test_ogd(data, loss, domain):
    from olapp.content import ogd as T
    from olcore.lessons import ogd as O

    s = data.draw(regression_streams("oco") if loss == "squared" else
                  linear_streams().map(lambda s: streams.from_arrays("oco", s.X, s.y.astype(float), user=True)))
    a = run(O.analyse, s, loss, domain[0], domain[1], None, O.PREFIX_POINTS, 1.0)
    if a is None:
        return
    for t in (0, a.T // 2, a.T):
        shown(T.status(a, t), T.regret(a, t))
        if s.X.shape[1] == 2:
            shown(T.plane(a, t))
    shown(T.nonexp(a), T.regret(a), T.g_line(a), T.run_line(a), T.potential(a), T.per_round(a), T.telescoping(a),
          a.theorem, a.proof_bound)


@profile(30)
@given(stream=regression_streams(), eta=st.sampled_from([0.01, 0.5, 0.99]), rescale=st.booleans())
def test_widrow_hoff(stream, eta, rescale):
    from olapp.content import widrow_hoff as T
    from olcore.lessons import widrow_hoff as W

    ball = run(W.unit_ball, stream)
    if ball is not None:
        shown(ball.message())
        rescale = rescale or ball.ok        # the page offers the toggle only outside the unit ball
    tu = run(W.tuning, stream, rescale)
    a = run(W.analyse, stream, eta, rescale)
    if tu is not None:
        shown(T.eta_button(tu), T.eta_metric(tu), T.eta_label(tu), T.eta_star(tu), T.sweep(tu, eta))
        assert 0 < tu.eta_best < 1 and math.isfinite(tu.bound_best)
    if a is not None:
        assert math.isfinite(a.R) and a.R > 0
        for t in (0, a.T // 2, a.T):
            shown(T.round_line(a, t), T.proof_round(a, t))
            if a.d == 2:
                shown(T.plane(a, t))
        shown(T.weights(a), T.cumulative(a), T.potential(a), T.telescoping(a), a.theorem1)
        if tu is not None:
            shown(T.readout(a, tu), T.run_line(a, tu))
    c = run(W.online_to_batch, stream, eta, 50, 5, 0, rescale)
    if c is not None:
        shown(T.online_to_batch(c), c.theorem2)
    im = run(W.implicit, stream, eta, rescale)
    if im is not None:
        shown(T.rates(im), T.implicit(im, im.T), im.rate_bound)


# ---- the 0/1 lessons: extreme patterns rather than extreme sizes ------------------------------------

@st.composite
def binary(draw, T_max: int = 12, n_max: int = 6):
    T, n = draw(st.integers(1, T_max)), draw(st.integers(1, n_max))
    how = draw(st.sampled_from(["random", "zeros", "ones", "constant columns"]))
    if how == "zeros":
        X = np.zeros((T, n), dtype=int)
    elif how == "ones":
        X = np.ones((T, n), dtype=int)
    else:
        X = np.array(draw(st.lists(st.sampled_from([0, 1]), min_size=T * n, max_size=T * n))).reshape(T, n)
        if how == "constant columns":
            X[:] = X[:1]
    y = np.array(draw(st.lists(st.sampled_from([0, 1]), min_size=T, max_size=T)))
    return X, y


@profile(20)
@given(Xy=binary())
def test_halving(Xy):
    from olapp.content import halving as T
    from olcore.lessons import halving as H

    a = run(H.analyse, streams.from_arrays("experts", *Xy))
    if a is not None:
        for t in (0, a.T):
            shown(T.tally(a, t), T.table(a, t), T.version_space(a, t), T.mistakes(a, t), T.proof_table(a, t),
                  T.proof_end(a, t))
        shown(T.tight(a), a.bound)


@profile(20)
@given(Xy=binary(), alpha=st.sampled_from([1.5, 2.0, 4.0]))
def test_winnow(Xy, alpha):
    from olapp.content import winnow as T
    from olcore.lessons import winnow as W

    a = run(W.analyse, streams.from_arrays("disjunction", *Xy), alpha)
    if a is not None:
        shown(T.tally(a, a.T), T.status(a, a.T), T.weights(a), T.mistakes(a), T.run_line(a), T.theorem_note(a),
              T.potential(a), a.bound)


@profile(15)
@given(Xy=binary(n_max=4), wa_loss=st.sampled_from(["square", "entropic"]))
def test_wm_vs_hedge(Xy, wa_loss):
    from olapp.content import wm_vs_hedge as T
    from olcore.lessons import wm_vs_hedge as WH

    s = streams.from_arrays("experts", *Xy)
    a = run(WH.analyse, s, 1 / math.e, 0.1, wa_loss, 1.0, 1.0, 0, False)
    if a is not None:
        shown(T.tally(a, a.T), T.weights_bar(a), T.cumulative(a), T.regret(a), T.hedge_proof(a),
              list(a.reports.values()))
        ta = run(WH.tuning, s, a.rwm_eta, 1 / math.e, 0)
        if ta is not None:
            shown(T.cmu_forms(ta), T.regret_forms(ta), T.average_regret(ta), T.two_regret(ta))
    we = run(WH.wa_equality, s)
    if we is not None:
        shown(T.wa_equality(we))
    sh = run(WH.scaled_hedge, s, 10.0)
    if sh is not None:
        shown(T.scaled_hedge(sh))
    sw = run(WH.sweep, s, "upload", 0.3, 0, 2, 5)
    if sw is not None:
        shown(T.sweep(sw))
