r"""Streams: seeded generators, user-supplied arrays and CSV files, all validated.

Every stream is a :class:`Stream`: a kind, the per-round inputs ``X`` (T, k), the labels
``y`` (T,) (``None`` for a loss matrix) and ``info``, the facts its generator guarantees
(the perfect expert, the separator and margin, the relevant attributes, ...).

Kinds and their alphabets
-------------------------
=============  ==========================  ======================  =========================
kind           ``X``                       ``y``                   used by
=============  ==========================  ======================  =========================
experts        expert advice in {0,1}      outcome in {0,1}        Halving, WM, RWM
experts01      expert advice in [0,1]      outcome in [0,1]        Weighted Average
losses         expert losses in [0,1]      (none)                  Hedge
linear         real features               label in {-1,+1}        Perceptron, OGD, PA
disjunction    attributes in {0,1}         label in {0,1}          Winnow
regression     real features, ||x|| <= 1   real target             Widrow-Hoff
=============  ==========================  ======================  =========================

Randomness only through ``seed`` and ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import StreamError
from .validate import (as_labels, as_matrix, check_binary, check_int, check_param,
                       check_seed, check_unit_interval)

__all__ = [
    "Stream", "KINDS", "MAX_ROUNDS", "MAX_COLUMNS", "MAX_CELLS", "MAX_BYTES",
    "perfect_expert", "expert_error_rates", "loss_matrix", "separable", "disjunction",
    "regression", "from_arrays", "read_csv", "template_csv", "to_csv", "format_help",
]

MAX_ROUNDS = 100_000
MAX_COLUMNS = 10_000
MAX_CELLS = 5_000_000
MAX_BYTES = 20 * 1024 * 1024  # matches server.maxUploadSize in .streamlit/config.toml


@dataclass(frozen=True, eq=False)
class Stream:
    """A validated stream of T rounds.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    X : array (T, k)
        Round ``t`` shows ``X[t]`` (expert advice, features or a loss vector).
    y : array (T,) or None
        Round ``t`` reveals ``y[t]``; ``None`` for kind ``"losses"``.
    info : dict
        What the generator guarantees, e.g. ``{"best": 3}`` or
        ``{"v": ..., "gamma": 0.1, "R": 1.0}``.
    """

    kind: str
    X: np.ndarray
    y: np.ndarray | None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def T(self) -> int:
        return int(self.X.shape[0])

    @property
    def k(self) -> int:
        return int(self.X.shape[1])


# -- kinds -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Kind:
    prefix: str            # feature column names in CSV files: prefix + 1..k
    x_values: str          # "binary", "unit" or "real"
    y_values: Any          # None (no label), "real", "unit", or a tuple alphabet
    what: str              # one line for error messages and the format help


KINDS: dict[str, _Kind] = {
    "experts": _Kind("e", "binary", (0, 1), "one column per expert's prediction (0 or 1), then the outcome y (0 or 1)"),
    "experts01": _Kind("e", "unit", "unit", "one column per expert's prediction in [0, 1], then the outcome y in [0, 1]"),
    "losses": _Kind("l", "unit", None, "one column per expert's loss in [0, 1]; one row per round"),
    "linear": _Kind("x", "real", (-1, 1), "one column per feature (real numbers), then the label y (-1 or +1)"),
    "disjunction": _Kind("x", "binary", (0, 1), "one column per boolean attribute (0 or 1), then the label y (0 or 1)"),
    "regression": _Kind("x", "real", "real", "one column per feature (real numbers, ||x|| <= 1 for the bound), then the target y"),
}


def _kind(kind: str) -> _Kind:
    if kind not in KINDS:
        raise StreamError.bad("kind", repr(kind), "one of " + ", ".join(KINDS))
    return KINDS[kind]


def _check_size(T: int, k: int) -> None:
    if T > MAX_ROUNDS:
        raise StreamError.bad("rounds", f"{T:,} rows", f"at most {MAX_ROUNDS:,} rounds")
    if k > MAX_COLUMNS:
        raise StreamError.bad("columns", f"{k:,} feature columns", f"at most {MAX_COLUMNS:,}")
    if T * k > MAX_CELLS:
        raise StreamError.bad("size", f"{T:,} x {k:,} = {T * k:,} values", f"at most {MAX_CELLS:,} values")


def _row_col(r: int, c: int | None = None) -> str:
    return f"row {r + 1}" + ("" if c is None else f", column {c + 1}")


def from_arrays(kind: str, X, y=None, info: dict | None = None, *, at=_row_col) -> Stream:
    """Validate user-supplied arrays as a stream of ``kind`` (see the module table).

    Raises
    ------
    StreamError
        Wrong shape, non-numeric or non-finite values, values outside the kind's
        alphabet or range, no rounds, or more than the size limits.
    """
    spec = _kind(kind)
    A = as_matrix(X, "X", at=at)
    _check_size(*A.shape)
    if spec.x_values == "binary":
        check_binary(A, "X", at=at)
    elif spec.x_values == "unit":
        check_unit_interval(A, "X", at=at)
    if spec.y_values is None:
        if y is not None:
            raise StreamError.bad("y", "labels", f"no labels for kind {kind!r}")
        v = None
    else:
        if y is None:
            raise StreamError.bad("y", "no labels", f"one label per round for kind {kind!r}")
        alphabet = spec.y_values if isinstance(spec.y_values, tuple) else None
        v = as_labels(y, A.shape[0], "y", alphabet, at=at)
        if spec.y_values == "unit":
            check_unit_interval(v, "y", at=at)
    if kind in ("experts", "disjunction"):
        A = A.astype(np.int8)
        v = v.astype(np.int8)
    elif kind == "linear":
        v = v.astype(np.int8)
    A.setflags(write=False)
    if v is not None:
        v.setflags(write=False)
    return Stream(kind, A, v, dict(info or {}))


# -- expert streams -----------------------------------------------------------------------

def perfect_expert(T: int = 64, n: int = 8, seed: int = 0, p_wrong: float = 0.5) -> Stream:
    r"""Expert advice with one perfect expert among ``n``.

    The outcomes :math:`y_t` are fair coin flips; expert ``best`` (chosen at random)
    always predicts :math:`y_t`; every other expert is wrong independently with
    probability ``p_wrong`` each round.  Halving's assumption holds:
    :math:`\min_i M_i = 0`.

    Parameters
    ----------
    T : int, default=64
    n : int, default=8
    seed : int, default=0
    p_wrong : float, default=0.5

    Returns
    -------
    Stream of kind ``"experts"`` with ``info = {"best": i}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 1, MAX_COLUMNS)
    p_wrong = check_param(p_wrong, "p_wrong", 0, 1)
    rng = np.random.default_rng(check_seed(seed))
    y = rng.integers(0, 2, size=T)
    wrong = rng.random((T, n)) < p_wrong
    best = int(rng.integers(n))
    wrong[:, best] = False
    X = np.where(wrong, 1 - y[:, None], y[:, None])
    return from_arrays("experts", X, y, {"best": best})


def expert_error_rates(T: int, error_rates, seed: int = 0) -> Stream:
    r"""Experts that err independently at their own rates.

    Outcomes are fair coin flips; expert :math:`i` predicts :math:`1 - y_t` with
    probability ``error_rates[i]`` and :math:`y_t` otherwise.

    Returns
    -------
    Stream of kind ``"experts"`` with ``info = {"best": i, "best_mistakes": M}``,
    the expert with the fewest realised mistakes (lowest index on ties).
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    p = np.asarray(error_rates, dtype=float)
    if p.ndim != 1 or p.size < 1:
        raise StreamError.bad("error_rates", f"shape {p.shape}", "a list of n >= 1 rates")
    check_unit_interval(p, "error_rates")
    rng = np.random.default_rng(check_seed(seed))
    y = rng.integers(0, 2, size=T)
    wrong = rng.random((T, p.size)) < p
    X = np.where(wrong, 1 - y[:, None], y[:, None])
    m = wrong.sum(axis=0)
    return from_arrays("experts", X, y, {"best": int(m.argmin()), "best_mistakes": int(m.min())})


def loss_matrix(T: int = 500, n: int = 10, seed: int = 0, means=None,
                distribution: str = "bernoulli") -> Stream:
    r"""An arbitrary loss matrix :math:`L \in [0,1]^{T \times n}` for Hedge.

    Expert :math:`i`'s losses are i.i.d. with mean ``means[i]`` (default: drawn
    uniformly from [0.2, 0.8]); ``distribution`` is ``"bernoulli"`` (losses in {0, 1})
    or ``"beta"`` (continuous losses, Beta with concentration 4).

    Returns
    -------
    Stream of kind ``"losses"`` with ``info = {"means": array (n,)}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 1, MAX_COLUMNS)
    rng = np.random.default_rng(check_seed(seed))
    mu = rng.uniform(0.2, 0.8, size=n) if means is None else np.asarray(means, dtype=float)
    if mu.shape != (n,):
        raise StreamError.bad("means", f"shape {mu.shape}", f"({n},)")
    check_unit_interval(mu, "means")
    if distribution == "bernoulli":
        L = (rng.random((T, n)) < mu).astype(float)
    elif distribution == "beta":
        c = 4.0
        a, b = np.maximum(mu * c, 1e-3), np.maximum((1 - mu) * c, 1e-3)
        L = rng.beta(a, b, size=(T, n))
    else:
        raise StreamError.bad("distribution", repr(distribution), "'bernoulli' or 'beta'")
    return from_arrays("losses", L, None, {"means": mu})


# -- linear classification -----------------------------------------------------------------

def separable(T: int = 200, d: int = 2, gamma: float = 0.1, R: float = 1.0,
              noise: float = 0.0, seed: int = 0) -> Stream:
    r"""A linearly separable stream with margin exactly :math:`\gamma` and radius :math:`R`.

    A unit separator :math:`v` is drawn uniformly on the sphere.  Each point is
    :math:`x_t = s_t m_t v + z_t` with sign :math:`s_t = \pm 1`, margin component
    :math:`m_t \sim U[\gamma, R]` and :math:`z_t \perp v` uniform in the (d-1)-ball of
    radius :math:`\sqrt{R^2 - m_t^2}`; so :math:`\|x_t\| \le R` and
    :math:`y_t\, v \cdot x_t = m_t \ge \gamma` with :math:`y_t = s_t`.  One point lies
    exactly on the margin and one exactly on the sphere (T >= 2), so the measured
    :math:`R` and :math:`\gamma` equal the prescribed ones.

    With ``noise > 0`` each label is flipped independently with that probability;
    the stream is then usually not separable (``info["flipped"]`` says where).

    Parameters
    ----------
    T : int, default=200
    d : int, default=2
    gamma : float, default=0.1
        Margin, 0 < gamma <= R.
    R : float, default=1.0
        Radius, R > 0.
    noise : float, default=0.0
        Label-flip probability in [0, 0.5].
    seed : int, default=0

    Returns
    -------
    Stream of kind ``"linear"`` with ``info = {"v", "gamma", "R", "noise", "flipped"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    d = check_int(d, "d", 1, MAX_COLUMNS)
    R = check_param(R, "R", 0, None, lo_open=True)
    gamma = check_param(gamma, "gamma", 0, R, lo_open=True)
    noise = check_param(noise, "noise", 0, 0.5)
    _check_size(T, d)
    rng = np.random.default_rng(check_seed(seed))
    v = rng.standard_normal(d)
    v /= np.linalg.norm(v)
    s = np.where(rng.random(T) < 0.5, -1, 1)
    m = rng.uniform(gamma, R, size=T)
    # Extremes: one point on the margin, another on the sphere.
    m[0] = gamma
    if T >= 2:
        m[1] = R
    # z: uniform direction orthogonal to v, radius r * sqrt(R^2 - m^2), r ~ U^(1/(d-1)).
    Z = rng.standard_normal((T, d))
    Z -= np.outer(Z @ v, v)
    norms = np.linalg.norm(Z, axis=1)
    norms[norms == 0] = 1.0
    radius = np.sqrt(np.maximum(R**2 - m**2, 0.0))
    r = rng.random(T) ** (1.0 / max(d - 1, 1)) if d > 1 else np.zeros(T)
    r[0] = 1.0  # the margin point also lies on the sphere: gamma^2 + (R^2 - gamma^2) = R^2
    Z *= (r * radius / norms)[:, None]
    X = (s * m)[:, None] * v + Z
    perm = rng.permutation(T)  # the extreme points need not come first
    X, s = X[perm], s[perm]
    y = s.copy()
    flipped = rng.random(T) < noise
    y[flipped] *= -1
    return from_arrays("linear", X, y, {"v": v, "gamma": gamma, "R": R, "noise": noise,
                                        "flipped": np.flatnonzero(flipped)})


def disjunction(T: int = 500, N: int = 100, k: int = 3, seed: int = 0, p: float | None = None) -> Stream:
    r"""Boolean attributes labelled by a monotone k-literal disjunction.

    :math:`y_t = x_{t,i_1} \vee \dots \vee x_{t,i_k}` for ``k`` relevant attributes
    drawn at random among ``N``.  Each attribute is 1 independently with probability
    ``p``; the default :math:`p = 1 - 2^{-1/k}` makes both labels equally likely.

    Returns
    -------
    Stream of kind ``"disjunction"`` with ``info = {"relevant": sorted indices, "k", "N"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    N = check_int(N, "N", 1, MAX_COLUMNS)
    k = check_int(k, "k", 1, N)
    _check_size(T, N)
    p = 1.0 - 0.5 ** (1.0 / k) if p is None else check_param(p, "p", 0, 1)
    rng = np.random.default_rng(check_seed(seed))
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    X = (rng.random((T, N)) < p).astype(np.int8)
    y = X[:, relevant].max(axis=1)
    return from_arrays("disjunction", X, y, {"relevant": relevant, "k": k, "N": N})


# -- regression ---------------------------------------------------------------------------

def regression(T: int = 200, d: int = 2, seed: int = 0, noise: float = 0.1,
               u=None, norm_u: float = 1.0) -> Stream:
    r"""A regression stream :math:`y_t = u \cdot x_t + \varepsilon_t` with :math:`\|x_t\| \le 1`.

    :math:`x_t` is uniform in the unit ball of :math:`\mathbb{R}^d`, the noise
    :math:`\varepsilon_t \sim N(0, \text{noise}^2)`, and :math:`u` is a random vector
    of norm ``norm_u`` unless given.

    Returns
    -------
    Stream of kind ``"regression"`` with ``info = {"u", "noise"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    d = check_int(d, "d", 1, MAX_COLUMNS)
    noise = check_param(noise, "noise", 0, None)
    _check_size(T, d)
    rng = np.random.default_rng(check_seed(seed))
    if u is None:
        norm_u = check_param(norm_u, "norm_u", 0, None)
        u = rng.standard_normal(d)
        u *= norm_u / np.linalg.norm(u)
    else:
        u = as_matrix(u, "u")[:, 0]
        if u.shape != (d,):
            raise StreamError.bad("u", f"length {u.size}", f"length d = {d}")
    G = rng.standard_normal((T, d))
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    X = G * (rng.random(T) ** (1.0 / d))[:, None]
    y = X @ u + noise * rng.standard_normal(T)
    return from_arrays("regression", X, y, {"u": u, "noise": noise})


# -- CSV ------------------------------------------------------------------------------------

def _read_bytes(source) -> bytes:
    if isinstance(source, bytes):
        return source
    if isinstance(source, str):
        return source.encode("utf-8")
    if hasattr(source, "getvalue"):
        data = source.getvalue()
    elif hasattr(source, "read"):
        data = source.read()
    else:
        raise StreamError.bad("file", type(source).__name__, "CSV text, bytes or an uploaded file")
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def _line(i: int, c: int | None = None) -> str:
    # data row i (0-based) sits on line i + 2 of the file: line 1 is the header
    return f"line {i + 2}" + ("" if c is None else f", column {c + 1}")


def read_csv(source, kind: str, *, max_bytes: int = MAX_BYTES) -> Stream:
    """Read and validate a CSV stream of ``kind``.

    Format: a header line, then one line per round.  Every column but the last is an
    input (expert prediction, loss, feature or attribute); the last column, named
    ``y``, is the label.  Kind ``"losses"`` has no ``y`` column.  See
    :func:`template_csv` for an example of each kind.

    Parameters
    ----------
    source : bytes, str, or a file-like object (``read`` or ``getvalue``)
    kind : str
        One of :data:`KINDS`.
    max_bytes : int, default=MAX_BYTES

    Raises
    ------
    StreamError
        Empty or binary file, not UTF-8, too large, no or bad header, ragged rows,
        non-numeric cells, NaN or inf, labels outside the kind's alphabet, values out of
        range, too many rows or columns.  The message names the line and column.
    """
    spec = _kind(kind)
    data = _read_bytes(source)
    if len(data) > max_bytes:
        raise StreamError.bad("file", f"{len(data) / 2**20:.1f} MB", f"a CSV file of at most {max_bytes / 2**20:.0f} MB")
    if b"\x00" in data:
        raise StreamError.bad("file", "binary data (NUL bytes)", "a plain-text CSV file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StreamError.bad("file", f"bytes that are not UTF-8 text (at byte {exc.start})",
                              "a plain-text CSV file") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise StreamError.bad("file", "an empty file", f"a header line and one line per round: {spec.what}")
    try:
        dialect = csv.Sniffer().sniff(lines[0], delimiters=",;\t")
        delim = dialect.delimiter
    except csv.Error:
        delim = ","
    rows = list(csv.reader(lines, delimiter=delim))
    header = [h.strip() for h in rows[0]]
    if all(_is_number(h) for h in header):
        raise StreamError.bad("header (line 1)", "numbers", "column names, e.g. " + _header_example(kind))
    has_y = spec.y_values is not None
    if has_y:
        if len(header) < 2:
            raise StreamError.bad("header (line 1)", f"{len(header)} column", "at least one input column and a last column named y")
        if header[-1].lower() != "y":
            raise StreamError.bad("header (line 1)", f"last column {header[-1]!r}", "the label column y last, e.g. " + _header_example(kind))
    body = rows[1:]
    if not body:
        raise StreamError.bad("file", "a header but no rounds", "at least one line of data after the header")
    width = len(header)
    for i, row in enumerate(body):
        if len(row) != width:
            raise StreamError.bad(_line(i), f"{len(row)} values", f"{width}, one per column of the header")
    _check_size(len(body), width - has_y)
    try:
        A = np.array(body, dtype=float)
    except ValueError:
        for i, row in enumerate(body):
            for c, cell in enumerate(row):
                if not _is_number(cell):
                    raise StreamError.bad(_line(i, c), repr(cell.strip()[:40]), "a number") from None
        raise  # pragma: no cover - np.array failed but every cell parses
    X, y = (A[:, :-1], A[:, -1]) if has_y else (A, None)
    return from_arrays(kind, X, y, {"source": "csv", "columns": header}, at=_line)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _header_example(kind: str, k: int = 3) -> str:
    spec = _kind(kind)
    cols = [f"{spec.prefix}{i}" for i in range(1, k + 1)]
    return ",".join(cols + (["y"] if spec.y_values is not None else []))


def to_csv(stream: Stream) -> str:
    """The stream as CSV text in the format :func:`read_csv` reads."""
    spec = _kind(stream.kind)
    cols = [f"{spec.prefix}{i}" for i in range(1, stream.k + 1)]
    A = stream.X if stream.y is None else np.column_stack([stream.X, stream.y])
    if stream.y is not None:
        cols.append("y")
    buf = io.StringIO()
    buf.write(",".join(cols) + "\n")
    np.savetxt(buf, A, delimiter=",", fmt="%.10g")
    return buf.getvalue()


_TEMPLATE_STREAMS = {
    "experts": lambda: perfect_expert(T=6, n=4, seed=1),
    "experts01": lambda: from_arrays("experts01", [[0.9, 0.2, 0.5], [0.1, 0.7, 0.5], [1.0, 0.0, 0.5]], [1, 0, 1]),
    "losses": lambda: loss_matrix(T=6, n=3, seed=1),
    "linear": lambda: separable(T=6, d=2, gamma=0.2, seed=1),
    "disjunction": lambda: disjunction(T=6, N=5, k=2, seed=1),
    "regression": lambda: regression(T=6, d=2, seed=1),
}


def template_csv(kind: str) -> str:
    """A small example CSV of ``kind`` for users to download and edit."""
    _kind(kind)
    return to_csv(_TEMPLATE_STREAMS[kind]())


def format_help(kind: str) -> str:
    """One paragraph describing the CSV format of ``kind`` (for the upload widget)."""
    spec = _kind(kind)
    return (f"A header line, then one line per round: {spec.what}. Example header: "
            f"`{_header_example(kind)}`. At most {MAX_ROUNDS:,} rounds, {MAX_COLUMNS:,} columns, "
            f"{MAX_BYTES // 2**20} MB.")


# -- adversaries (experts) -------------------------------------------------------------------
# Owner: issue 3.  Source: seeds/000_8a17f779656f0ef2.txt (UCL COMP0078, problems 3.1 and 4).

__all__ += ["adversary_consistent", "adversary_wm"]


def adversary_consistent(n: int = 8, learner=None, labels=None, extra_rounds: int = 0,
                         seed: int = 0) -> Stream:
    r"""An adaptive adversary that forces a mistake every round yet keeps a consistent expert.

    Let :math:`C_t` be the experts consistent so far.  While :math:`|C_t| \ge 2` the
    adversary shows advice that splits :math:`C_t`: its first
    :math:`\lfloor |C_t|/2 \rfloor` members (by index) predict 1, the others 0 (experts
    outside :math:`C_t` predict seeded coin flips).  It asks the learner for
    :math:`\hat y_t`, then reveals :math:`y_t = 1 - \hat y_t`.  The experts that agreed
    with :math:`y_t` stay consistent, at least :math:`\lfloor |C_t|/2 \rfloor` of them, so a
    deterministic learner errs in each of at least :math:`\lfloor\log_2 n\rfloor` rounds
    while some expert is never wrong.  Against Halving (ties predict 1) exactly
    :math:`\lfloor |C_t|/2 \rfloor` survive, so Halving makes exactly
    :math:`\lfloor\log_2 n\rfloor` mistakes: its bound is tight (problem 4 of the notes).

    Then ``extra_rounds`` rounds follow in which every expert's advice is a seeded coin
    flip and :math:`y_t` is the (first) surviving expert's advice, so it stays consistent.

    With ``labels`` the outcomes are not chosen by the adversary but given (the page's
    "you are the adversary" mode): round ``t`` reveals ``labels[t]``; the advice still
    splits :math:`C_t` while :math:`|C_t| \ge 2` and is coin flips afterwards, so a label
    sequence may leave no consistent expert.

    Parameters
    ----------
    n : int, default=8
        Number of experts (1..MAX_COLUMNS).
    learner : object with ``predict(x)`` and ``update(x, y)``, default=None
        A fresh deterministic learner over ``n`` experts; ``None`` means
        ``olcore.experts.Halving(n)``.  It is driven in place.
    labels : sequence of {0, 1}, default=None
    extra_rounds : int, default=0
    seed : int, default=0

    Returns
    -------
    Stream of kind ``"experts"`` with ``info``: ``best`` (a consistent expert, or the one
    with fewest mistakes), ``best_mistakes``, ``forced_rounds`` (rounds played while
    :math:`|C_t| \ge 2`) and ``learner_predictions`` (the :math:`\hat y_t` the learner gave).
    """
    n = check_int(n, "n", 1, MAX_COLUMNS)
    extra_rounds = check_int(extra_rounds, "extra_rounds", 0, MAX_ROUNDS)
    rng = np.random.default_rng(check_seed(seed))
    if learner is None:
        from .experts import Halving  # lazy: olcore.experts imports this module
        learner = Halving(n)
    if labels is not None:
        labels = np.asarray(labels)
        if labels.ndim != 1 or labels.size > MAX_ROUNDS or not np.isin(labels, (0, 1)).all():
            raise StreamError.bad("labels", f"{labels.tolist()[:10]}", "a list of 0/1 outcomes")
    C = np.ones(n, dtype=bool)
    rows, ys, preds = [], [], []
    forced = 0
    t = 0
    while True:
        if labels is not None:
            if t >= labels.size:
                break
        elif C.sum() < 2:
            if t >= forced + extra_rounds:
                break
        x = rng.integers(0, 2, size=n).astype(np.int8)
        idx = np.flatnonzero(C)
        splitting = idx.size >= 2
        if splitting:
            x[idx] = 0
            x[idx[: idx.size // 2]] = 1
        yhat = int(learner.predict(x))
        if labels is not None:
            y_t = int(labels[t])
        elif splitting:
            y_t = 1 - yhat
        else:
            y_t = int(x[idx[0]]) if idx.size else int(rng.integers(0, 2))
        forced += bool(splitting and labels is None)
        learner.update(x, y_t)
        C &= x == y_t
        rows.append(x)
        ys.append(y_t)
        preds.append(yhat)
        t += 1
    if not rows:  # n == 1 and no extra rounds: one uninformative round
        x = np.zeros(n, dtype=np.int8)
        yhat = int(learner.predict(x))
        learner.update(x, 0)
        rows, ys, preds = [x], [0], [yhat]
    X = np.array(rows, dtype=np.int8)
    y = np.array(ys, dtype=np.int8)
    m = (X != y[:, None]).sum(axis=0)
    return from_arrays("experts", X, y, {
        "best": int(m.argmin()), "best_mistakes": int(m.min()), "forced_rounds": forced,
        "learner_predictions": np.array(preds, dtype=np.int8), "adversary": "consistent"})


def adversary_wm(T: int = 100, beta: float = 0.5, n: int = 2) -> Stream:
    r"""The stream of exercise 3.1: deterministic Weighted Majority errs every round.

    Even-indexed experts always predict 0, odd-indexed ones always 1.  The adversary
    runs deterministic WM with ``beta`` (ties predict 1) and reveals
    :math:`y_t = 1 - \hat y_t`, so WM makes :math:`T` mistakes, while the two groups
    share those :math:`T` mistakes and the best expert makes at most about :math:`T/2`:
    WM's loss is about **twice** the best expert's, for every :math:`\beta`; no
    deterministic master can have sublinear :math:`c`-regret for :math:`c < 2`.  The
    stream is fixed before any coin is flipped, so against it Randomized WM and Hedge
    (oblivious adversary) stay close to the best expert.

    Parameters
    ----------
    T : int, default=100
    beta : float, default=0.5
        The WM penalty factor the stream is built against, in [0, 1).
    n : int, default=2
        Number of experts (>= 2).

    Returns
    -------
    Stream of kind ``"experts"`` with ``info``: ``best``, ``best_mistakes``, ``beta``,
    ``wm_mistakes`` (= T) and ``adversary`` = ``"wm"``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 2, MAX_COLUMNS)
    beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
    _check_size(T, n)
    from .experts import WeightedMajority  # lazy: olcore.experts imports this module
    wm = WeightedMajority(n, beta)
    x = (np.arange(n) % 2).astype(np.int8)
    y = np.empty(T, dtype=np.int8)
    for t in range(T):
        y[t] = 1 - wm.predict(x)
        wm.update(x, int(y[t]))
    X = np.broadcast_to(x, (T, n))
    m = (X != y[:, None]).sum(axis=0)
    return from_arrays("experts", X, y, {"best": int(m.argmin()), "best_mistakes": int(m.min()),
                                         "beta": beta, "wm_mistakes": T, "adversary": "wm"})
