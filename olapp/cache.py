"""One process-wide memo for runs and figures, shared by every session of every page.

A lecture hall opens one link: a hundred sessions ask for the same run and the same figures.
:func:`memo` computes each once and hands every later caller *the same object*, without a copy.

Why not ``st.cache_data``: it pickles a result when storing it and unpickles a fresh copy on
every hit, and it hashes every argument by value on every call (a long stream once per analysis
per rerun); that cost more than most of the work it saved.  Here

- a result is shared as it is: results are immutable by contract (frozen dataclasses), and their
  numpy arrays are made read-only when stored, so a caller that tried to change one would fail
  loudly instead of changing every session's view;
- an argument that is itself a memoised result (an analysis passed to a figure builder) is keyed
  by a token given to it when it was stored, not by its contents; a :class:`olcore.Stream` is
  keyed by a hash of its data computed once per stream object; numbers, strings, tuples, small
  arrays and dataclasses of those by value;
- concurrent sessions that ask for the same key at once wait for one computation instead of
  each doing it (the hall's first minute), and give up their turn meanwhile (:mod:`olapp.turns`);
- an exception (a ``StreamError`` for a bad setting) is raised to the caller and not stored.

Entries are kept least-recently-used first out, at most ``MAX_ENTRIES`` per function.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import itertools
import threading
import weakref
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from olcore.stream import Stream

from .turns import TURNS

__all__ = ["memo", "key_of", "stream_hash", "per_object", "digest", "clear", "Uncacheable", "MAX_ENTRIES"]

#: Entries kept per memoised function (a run or a figure builder).
MAX_ENTRIES = 96


class Uncacheable(TypeError):
    """An argument of a type the memo cannot key (the call then runs without the memo)."""


def _add_array(h, a: np.ndarray) -> None:
    """Feed an array's dtype, shape and bytes to the hash ``h``."""
    a = np.ascontiguousarray(a)
    h.update(f"{a.dtype.str}{a.shape}".encode())     # dtype.str: str(dtype) costs 15 times more
    if a.dtype == object:               # its bytes are pointers: hash the values
        h.update(repr(a.tolist()).encode())
    elif a.size:                        # (memoryview cannot cast an empty array)
        h.update(memoryview(a).cast("B"))


def stream_hash(stream: Stream) -> str:
    """A content hash of a stream, so runs key on the data and not on the object."""
    h = hashlib.blake2b(digest_size=16)
    h.update(stream.kind.encode())
    for a in (stream.X, stream.y):
        if a is not None:
            _add_array(h, a)
    for k in sorted(stream.info):                  # arrays by their bytes: a repr elides long ones
        v = stream.info[k]
        h.update(k.encode())
        _add_array(h, v) if isinstance(v, np.ndarray) else h.update(repr(v).encode())
    return h.hexdigest()


_lock = threading.RLock()
_tokens: dict[int, tuple[int, Any]] = {}          # id(result) -> (token, result): results stay alive while keyed
_counter = itertools.count(1)
_stream_hashes: dict[int, tuple[weakref.ref, str]] = {}
_tables: dict[Any, "_Table"] = {}


def _stream_key(s: Stream) -> str:
    """The stream's content hash, computed once per stream object."""
    got = _stream_hashes.get(id(s))
    if got is not None and got[0]() is s:
        return got[1]
    digest = stream_hash(s)
    try:
        ref = weakref.ref(s, lambda _r, i=id(s): _stream_hashes.pop(i, None))
    except TypeError:                               # not weak-referenceable: hash it every time
        return digest
    _stream_hashes[id(s)] = (ref, digest)
    return digest


def _array_key(a: np.ndarray) -> tuple:
    """An array's key from its bytes; kept with the array while it lives if it cannot change (read-only
    down to the array that owns its memory): a stored result's arrays are frozen, and those a result
    computes on first use (``Trace.weights``, a cached property) are read-only too, so a rerun that
    passes them on does not hash them again."""
    if _frozen(a):
        return per_object(a, "key", lambda: _array_key_of(a))
    return _array_key_of(a)


def _array_key_of(a: np.ndarray) -> tuple:
    h = hashlib.blake2b(digest_size=16)
    _add_array(h, a)
    return ("nd", h.hexdigest())


def _frozen(a: np.ndarray) -> bool:
    """Whether no one can write to the array: it and every array it views are read-only, and the last
    owns its memory (a writeable array's read-only view changes with it)."""
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return False
        if a.base is None:
            return True
        a = a.base
    return False


def key_of(x: Any) -> Any:
    """A hashable key for an argument (see the module docstring); :class:`Uncacheable` if none."""
    tok = _tokens.get(id(x))
    if tok is not None and tok[1] is x:
        return ("tok", tok[0])
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return (type(x).__name__, x)
    if isinstance(x, np.generic):
        return ("np", x.item())
    if isinstance(x, Stream):
        return ("stream", _stream_key(x))
    if isinstance(x, np.ndarray):
        return _array_key(x)
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(key_of(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((key_of(k), key_of(v)) for k, v in x.items()))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__qualname__, tuple(key_of(getattr(x, f.name)) for f in dataclasses.fields(x)))
    if inspect.ismethod(x):                 # a bound method: its function and the object it is bound to
        return ("method", key_of(x.__func__), key_of(x.__self__))
    if callable(x) and "<" not in getattr(x, "__qualname__", "<"):     # a named function (never a lambda)
        return ("fn", getattr(x, "__module__", ""), x.__qualname__)
    raise Uncacheable(f"cannot key an argument of type {type(x).__name__}")


def _freeze(x: Any, found: list, seen: set[int] | None = None, depth: int = 0) -> None:
    """Make the numpy arrays of a result read-only (through dataclass fields, tuples, lists, dicts),
    collecting its parts worth a token in ``found`` (arrays of more than 64 values, dataclasses)."""
    seen = set() if seen is None else seen
    if id(x) in seen or depth > 6:
        return
    seen.add(id(x))
    if isinstance(x, np.ndarray):
        x.flags.writeable = False
        if x.size > 64 and depth:
            found.append(x)
    elif isinstance(x, (tuple, list)):
        for v in x:
            _freeze(v, found, seen, depth + 1)
    elif isinstance(x, dict):
        for v in x.values():
            _freeze(v, found, seen, depth + 1)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        if depth and not isinstance(x, Stream):
            found.append(x)
        for f in dataclasses.fields(x):
            _freeze(getattr(x, f.name, None), found, seen, depth + 1)


_parts: dict[int, list] = {}                      # id(result) -> the parts it gave tokens to
_MISSING = object()
_held: dict[int, int] = {}                        # id(result) -> how many table entries hold it


def _give_tokens(value: Any) -> None:
    """Token the result and its parts, so that passing ``a`` or ``a.trace.weights`` on is keyed at once."""
    parts: list = []
    _freeze(value, parts)
    if isinstance(value, (bool, int, float, str, bytes, type(None))):
        return
    for obj in [value, *parts]:
        if id(obj) not in _tokens or _tokens[id(obj)][1] is not obj:
            _tokens[id(obj)] = (next(_counter), obj)
    _parts[id(value)] = parts


def _hold(value: Any) -> None:
    """Count one more table entry holding ``value``."""
    _held[id(value)] = _held.get(id(value), 0) + 1


def _drop_tokens(value: Any) -> None:
    """Forget the tokens of an evicted result (unless another stored result holds the same object).

    The entries holding each result are counted (:func:`_hold`), so an eviction costs the same however
    many entries the tables hold.  Scanning them all, under the lock
    every session's lookup takes, made each eviction O(entries) and a busy server's reruns several times
    slower (benchmarks/PERFORMANCE.md)."""
    left = _held.get(id(value), 1) - 1
    if left > 0:
        _held[id(value)] = left
        return
    _held.pop(id(value), None)
    for obj in [value, *_parts.pop(id(value), [])]:
        got = _tokens.get(id(obj))
        if got is not None and got[1] is obj:
            del _tokens[id(obj)]


class _Table:
    """The entries of one function: key -> result, least recently used first."""

    def __init__(self, max_entries: int):
        self.max = max_entries
        self.d: OrderedDict = OrderedDict()
        self.busy: dict[Any, threading.Event] = {}

    def get(self, key, compute: Callable[[], Any]):
        while True:
            with _lock:
                if key in self.d:
                    self.d.move_to_end(key)
                    return self.d[key]
                event = self.busy.get(key)
                mine = event is None
                if mine:
                    event = self.busy[key] = threading.Event()
            if not mine:                    # another session computes it: wait without the turn, so that
                with TURNS.aside():         # runs that need something else go on; then read it (or compute it,
                    event.wait(timeout=120)     # if that failed)
                continue
            try:
                value = compute()
                with _lock:
                    _give_tokens(value)
                    old = self.d.pop(key, _MISSING)     # (stored meanwhile by a caller that did not wait)
                    self.d[key] = value
                    if old is not value:
                        _hold(value)
                        if old is not _MISSING:
                            _drop_tokens(old)
                    while len(self.d) > self.max:
                        _, old = self.d.popitem(last=False)
                        _drop_tokens(old)
                return value
            finally:
                with _lock:
                    self.busy.pop(key, None)
                event.set()


def memo(fn: Callable, *args, **kwargs) -> Any:
    """``fn(*args, **kwargs)``, computed once per distinct arguments and shared by every caller.

    ``fn`` must be a pure function of its arguments.  An argument the memo cannot key makes the
    call run unmemoised (and still correctly).
    """
    try:
        key = (key_of(args), key_of(tuple(sorted(kwargs.items()))))
        if inspect.ismethod(fn):            # a bound method: one entry per object it is bound to
            key += (key_of(fn.__self__),)
    except Uncacheable:
        return fn(*args, **kwargs)
    name = (getattr(fn, "__module__", ""), getattr(fn, "__qualname__", repr(fn)))
    with _lock:
        table = _tables.get(name)
        if table is None:
            table = _tables[name] = _Table(MAX_ENTRIES)
    return table.get(key, lambda: fn(*args, **kwargs))


_per_object: dict[int, tuple[weakref.ref, dict]] = {}


def per_object(obj: Any, slot: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept as long as ``obj`` lives, once per ``slot`` (e.g. a figure's JSON)."""
    with _lock:
        got = _per_object.get(id(obj))
        if got is not None and got[0]() is obj and slot in got[1]:
            return got[1][slot]
    value = compute()
    try:
        ref = weakref.ref(obj, lambda _r, i=id(obj), table=_per_object: table.pop(i, None))   # (table: still there at exit)
    except TypeError:
        return value
    with _lock:
        got = _per_object.get(id(obj))
        if got is None or got[0]() is not obj:
            got = _per_object[id(obj)] = (ref, {})
        got[1][slot] = value
    return value


def digest(text: str) -> str:
    """A short content hash of a string (an element's identity, without hashing it twice)."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def clear() -> None:
    """Forget every entry (benchmarks measure a cold run after this)."""
    with _lock:
        _tables.clear()
        _tokens.clear()
        _stream_hashes.clear()
        _per_object.clear()
        _parts.clear()
        _held.clear()
