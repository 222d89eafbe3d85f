r"""Trace: the per-round record of one run, the one thing pages plot.

A run of an online algorithm over rounds :math:`t = 1, \dots, T` is recorded as arrays
indexed by the 0-based round ``t``:

* ``losses`` (T,) float: the learner's loss :math:`\ell_t` in round ``t``;
* ``predictions`` (T,): the learner's prediction :math:`\hat y_t`;
* ``weights`` (T+1, k): row ``t`` holds the weights used to predict in round ``t``,
  the last row the final weights;
* ``mistakes`` (T,) bool, for classifiers: whether :math:`\hat y_t \ne y_t`;
* ``expert_losses`` (T, n), for expert algorithms: the experts' losses;
* ``extras``: named per-round arrays for the proof view (potentials and their bounds).

Weights are stored compactly: ``weight_table`` (K, k) holds the distinct weight vectors
and ``weight_index`` (T+1,) says which row is in force before each round.  Dense
algorithms use ``weight_index = arange(T+1)``; conservative ones (Perceptron, Winnow)
store one row per mistake, so a 10^5-round run of a d = 1000 Perceptron does not
materialise a (T+1) x d history.  ``trace.weights`` builds the full (T+1, k) array on
first use; ``trace.weights_at(t)`` and ``trace.weights_on(rounds)`` never do.

A run may also record the weights of some rounds only (the expert functions' ``record=``
option, e.g. every 100th round or the final weights): then ``weight_rounds`` (K,) lists the
rounds whose weights ``weight_table`` holds, ``weight_index[t]`` is ``-1`` for a round not
recorded, ``trace.recorded_rounds`` says which rounds are available, and ``trace.weights``,
``weights_at`` and ``weights_on`` raise :class:`olcore.StreamError` for rounds not recorded
(they never return another round's weights).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterator, Mapping

import numpy as np

from .errors import StreamError

__all__ = ["Trace", "LazyExtras", "LazyArray", "record_rounds"]


def record_rounds(record, T: int) -> np.ndarray | None:
    """The rounds whose weights a run keeps (its ``weight_rounds``), for every learner's ``record``:
    ``None`` for ``"every"`` (all T+1 rows, the contract), ``[0, T]`` for ``"final"`` (the first and
    the last weights), or rounds 0, s, 2s, ... and T for a stride ``s >= 1``.

    A run of T = 10^5 rounds over n = 10^3 experts with ``record="every"`` holds a (T+1) x n table
    (800 MB); a page that plots 200 frames needs ``record=T // 200``.
    """
    if isinstance(record, str):
        if record == "every":
            return None
        if record == "final":
            return np.array([0, T], dtype=np.int64) if T > 0 else np.array([0], dtype=np.int64)
    elif isinstance(record, (int, np.integer)) and not isinstance(record, bool) and record >= 1:
        if record == 1:
            return None
        r = np.arange(0, T + 1, int(record), dtype=np.int64)
        return r if r[-1] == T else np.append(r, np.int64(T))
    raise StreamError.bad("record", repr(record), "'every', 'final' or a stride (an integer >= 1)")


def _readonly_all_the_way(a: np.ndarray) -> bool:
    """``a`` and every array it is a view of are read-only (nobody can change it).

    The chain may end in the buffer owner of an array a numba kernel returned (its
    ``_MemInfo``), which exposes no writable view of its own.
    """
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return False
        a = a.base
    return a is None or type(a).__name__ == "_MemInfo"


def _frozen(a, name: str, dtype=None) -> np.ndarray:
    if (isinstance(a, np.ndarray) and (dtype is None or a.dtype == np.dtype(dtype))
            and _readonly_all_the_way(a)):
        return a                      # already frozen: share it (no copy of a large array)
    arr = np.array(a, dtype=dtype, copy=True)
    arr.setflags(write=False)
    return arr


class LazyExtras(Mapping):
    r"""Trace extras of which some are computed on first use (each once, then frozen and kept).

    A whole-stream run returns its proof-view quantities (e.g. the Perceptron's :math:`M_t`,
    :math:`\|w_t\|^2` and :math:`M_t R^2`, each (T+1,)) as functions of what its loop recorded,
    so a run whose page never reads them does not build them.  Reading ``extras[name]`` gives
    the same array either way.  Pickles (``st.cache_data``) and copies as a plain dict of every
    value.

    Parameters
    ----------
    eager : mapping of str to array
        Values already computed.
    lazy : mapping of str to zero-argument callable
        Values computed on first access.
    """

    def __init__(self, eager: Mapping[str, np.ndarray], lazy: Mapping[str, Callable[[], np.ndarray]]):
        self._values = {k: _frozen(v, k) for k, v in eager.items()}
        self._lazy = {k: f for k, f in lazy.items() if k not in self._values}
        self._order = list(self._values) + list(self._lazy)

    def __getitem__(self, key: str) -> np.ndarray:
        if key in self._values:
            return self._values[key]
        make = self._lazy.get(key)
        if make is None:
            raise KeyError(key)
        value = np.asarray(make())
        if value.base is None:                       # a fresh array: freeze it in place, no copy
            value.setflags(write=False)
        value = self._values[key] = _frozen(value, key)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, key) -> bool:
        return key in self._values or key in self._lazy

    def __reduce__(self):
        return (dict, (dict(self.items()),))

    def __repr__(self) -> str:
        return f"LazyExtras({self._order!r})"


class LazyArray:
    """An array made on first use: ``LazyArray(shape, make, *args)`` stands for ``make(*args)``,
    an array of ``shape``.  :class:`Trace` takes one for ``expert_losses`` (e.g. the float64
    losses of a run whose loop kept them as int8: an eighth of the bytes to write, and the
    float64 array is only built if a page reads it).  ``make`` and ``args`` must pickle (a
    module-level function and arrays): a trace pickles with the array made."""

    __slots__ = ("shape", "make", "args")

    def __init__(self, shape, make: Callable[..., np.ndarray], *args):
        self.shape = tuple(int(d) for d in shape)
        self.make = make
        self.args = args

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __call__(self) -> np.ndarray:
        return self.make(*self.args)


class _LazyField:
    """A dataclass field that may hold a :class:`LazyArray`, made (and frozen) on first read."""

    def __set_name__(self, owner, name):
        self.slot = "_" + name
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return None                               # the dataclass default
        v = obj.__dict__.get(self.slot)
        if isinstance(v, LazyArray):
            made = np.asarray(v())
            if made.shape != v.shape:
                raise StreamError.bad(self.name, f"shape {made.shape}", f"{v.shape}")
            if made.base is None:
                made.setflags(write=False)
            made = _frozen(made, self.name, float)
            obj.__dict__[self.slot] = made
            return made
        return v

    def __set__(self, obj, value):
        obj.__dict__[self.slot] = value


@dataclass(frozen=True, eq=False)
class Trace:
    """Per-round arrays of one run (see the module docstring for shapes).

    Parameters
    ----------
    losses : array (T,)
    predictions : array (T,)
    weight_table : array (K, k)
        Distinct weight vectors, in the order they came into force.
    weight_index : int array (T+1,), default=None
        Row of ``weight_table`` in force before round ``t``; ``None`` means
        ``arange(T+1)`` (then ``weight_table`` must have T+1 rows).
    mistakes : bool array (T,), default=None
    expert_losses : array (T, n) or LazyArray, default=None
        A :class:`LazyArray` is made into the array on first read of ``trace.expert_losses``.
    extras : mapping of str to array, default=empty
        Proof-view quantities, each indexed by round (a :class:`LazyExtras` computes some of
        them on first use).
    weight_rounds : int array (K,), default=None
        When only some rounds' weights are recorded: the round of each row of
        ``weight_table`` (strictly increasing, in 0..T); ``weight_index`` must then be
        ``None`` (it is derived, with ``-1`` for rounds not recorded).

    Arrays passed in are copied and frozen, except arrays that are already read-only
    (and views of read-only arrays only), which are shared as they are.
    """

    losses: np.ndarray
    predictions: np.ndarray
    weight_table: np.ndarray
    weight_index: np.ndarray | None = None
    mistakes: np.ndarray | None = None
    expert_losses: np.ndarray | None = _LazyField()
    extras: Mapping[str, np.ndarray] = field(default_factory=dict)
    weight_rounds: np.ndarray | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        losses = _frozen(self.losses, "losses", float)
        if losses.ndim != 1:
            raise StreamError.bad("losses", f"shape {losses.shape}", "a 1-D array (T,)")
        T = losses.shape[0]
        set_(self, "losses", losses)
        preds = _frozen(self.predictions, "predictions")
        if preds.shape[:1] != (T,):
            raise StreamError.bad("predictions", f"shape {preds.shape}", f"({T},)")
        set_(self, "predictions", preds)
        table = _frozen(self.weight_table, "weight_table", float)
        if table.ndim == 1:
            table = _frozen(table[:, None], "weight_table", float)
        if table.ndim != 2 or table.shape[0] == 0:
            raise StreamError.bad("weight_table", f"shape {table.shape}", "a 2-D array (K, k), K >= 1")
        set_(self, "weight_table", table)
        if self.weight_rounds is not None:
            rounds = _frozen(self.weight_rounds, "weight_rounds", np.intp)
            if self.weight_index is not None:
                raise StreamError.bad("weight_index", "given with weight_rounds", "one of the two")
            if rounds.shape != (table.shape[0],):
                raise StreamError.bad("weight_rounds", f"shape {rounds.shape}", f"({table.shape[0]},), one per row")
            if rounds.size and (rounds[0] < 0 or rounds[-1] > T or np.any(np.diff(rounds) <= 0)):
                raise StreamError.bad("weight_rounds", "rounds out of order or outside 0..T",
                                      f"strictly increasing rounds in 0..{T}")
            index = np.full(T + 1, -1, dtype=np.intp)
            index[rounds] = np.arange(rounds.size)
            index.setflags(write=False)
            set_(self, "weight_rounds", rounds)
        elif self.weight_index is None:
            if table.shape[0] != T + 1:
                raise StreamError.bad("weight_table", f"{table.shape[0]} rows", f"T+1 = {T + 1} rows")
            index = _frozen(np.arange(T + 1), "weight_index", np.intp)
        else:
            index = _frozen(self.weight_index, "weight_index", np.intp)
            if index.shape != (T + 1,):
                raise StreamError.bad("weight_index", f"shape {index.shape}", f"({T + 1},)")
            if T + 1 and (index.min() < 0 or index.max() >= table.shape[0]):
                raise StreamError.bad("weight_index", "an index outside weight_table", f"0..{table.shape[0] - 1}")
        set_(self, "weight_index", index)
        if self.mistakes is not None:
            m = _frozen(self.mistakes, "mistakes", bool)
            if m.shape != (T,):
                raise StreamError.bad("mistakes", f"shape {m.shape}", f"({T},)")
            set_(self, "mistakes", m)
        e = self.__dict__.get("_expert_losses")
        if e is not None:
            if not isinstance(e, LazyArray):
                e = _frozen(e, "expert_losses", float)
            if len(e.shape) != 2 or e.shape[0] != T:
                raise StreamError.bad("expert_losses", f"shape {e.shape}", f"({T}, n)")
            set_(self, "expert_losses", e)
        if not isinstance(self.extras, LazyExtras):
            set_(self, "extras", {k: _frozen(v, k) for k, v in dict(self.extras).items()})

    def __getstate__(self):
        self.expert_losses                            # noqa: B018  (a LazyArray is made: pickles as an array)
        return self.__dict__

    # -- sizes -------------------------------------------------------------------------
    @property
    def T(self) -> int:
        """Number of rounds played."""
        return int(self.losses.shape[0])

    @property
    def k(self) -> int:
        """Length of a weight vector."""
        return int(self.weight_table.shape[1])

    # -- weights -----------------------------------------------------------------------
    @property
    def recorded_rounds(self) -> np.ndarray:
        """The rounds ``t`` (in 0..T) whose weights this trace holds (all T+1 unless recorded sparsely)."""
        if self.weight_rounds is None:
            return np.arange(self.T + 1)
        return self.weight_rounds

    def _not_recorded(self, rounds) -> StreamError:
        r = np.asarray(rounds).reshape(-1)
        return StreamError.bad("round", f"round {int(r[0])} (weights not recorded)",
                               "a recorded round (see trace.recorded_rounds; run with record='every' "
                               "for every round)")

    @cached_property
    def weights(self) -> np.ndarray:
        """(T+1, k): row ``t`` is the weight vector used in round ``t`` (last row final).

        Raises :class:`olcore.StreamError` if the run recorded only some rounds' weights.
        """
        if self.weight_rounds is not None and self.weight_rounds.size != self.T + 1:
            missing = np.flatnonzero(self.weight_index < 0)
            raise self._not_recorded(missing[:1])
        w = self.weight_table[self.weight_index]
        w.setflags(write=False)
        return w

    def weights_at(self, t: int) -> np.ndarray:
        """Weights in force before round ``t`` (``t = T`` gives the final weights)."""
        if not 0 <= t <= self.T:
            raise StreamError.bad("round", str(t), f"an integer in 0..{self.T}")
        j = self.weight_index[t]
        if j < 0:
            raise self._not_recorded([t])
        return self.weight_table[j]

    def weights_on(self, rounds) -> np.ndarray:
        """Weights before each of ``rounds`` (an int array), without building all T+1 rows."""
        j = self.weight_index[np.asarray(rounds, dtype=np.intp)]
        if np.any(j < 0):
            raise self._not_recorded(np.asarray(rounds)[j < 0])
        return self.weight_table[j]

    # -- cumulative quantities ---------------------------------------------------------
    @cached_property
    def cumulative_loss(self) -> np.ndarray:
        """(T,): :math:`L_t = \\sum_{s \\le t} \\ell_s`."""
        c = np.cumsum(self.losses)
        c.setflags(write=False)
        return c

    @property
    def total_loss(self) -> float:
        return float(self.cumulative_loss[-1]) if self.T else 0.0

    @property
    def n_mistakes(self) -> int:
        """Total number of mistakes (classifiers only)."""
        if self.mistakes is None:
            raise StreamError("n_mistakes: this trace has no mistakes array (not a classifier).", "mistakes")
        return int(self.mistakes.sum())

    @cached_property
    def cumulative_expert_loss(self) -> np.ndarray:
        """(T, n): each expert's cumulative loss (expert algorithms only)."""
        if self.expert_losses is None:
            raise StreamError("expert_losses: this trace has none (not an expert algorithm).", "expert_losses")
        c = np.cumsum(self.expert_losses, axis=0)
        c.setflags(write=False)
        return c

    @cached_property
    def regret(self) -> np.ndarray:
        """(T,): :math:`L_t - \\min_i L_{i,t}`, the regret to the best expert so far."""
        best = self.cumulative_expert_loss.min(axis=1) if self.T else np.zeros(0)
        r = self.cumulative_loss - best
        r.setflags(write=False)
        return r
