r"""The compiler behind the fast paths: numba's ``njit(cache=True)``, its cache directory, and warm-up.

Every whole-stream function of the contract runs its rounds in one plain loop compiled with
numba (``@njit(cache=True)``).  This module

* chooses where numba keeps its on-disk cache: beside the modules when the package directory
  is writable (numba's default), otherwise, when ``NUMBA_CACHE_DIR`` is unset, a writable
  directory under the user's cache dir (``$XDG_CACHE_HOME/olcore/numba``, else
  ``~/.cache/olcore/numba``, else the system temp dir).  This must happen before numba is
  first imported, so :mod:`olcore` imports this module first;
* exports :func:`njit` (``numba.njit`` with ``cache=True``) and a registry of the kernels;
* :func:`warm` compiles or loads every kernel on tiny inputs; when the server starts (app.py's
  ``st.App`` lifespan), a background thread has child interpreters compile whatever the disk cache
  lacks and then loads every kernel (:func:`warm_in_background`), so pages keep answering while a
  fresh install compiles (24 s here).  A page that needs a kernel not cached yet still compiles
  that one itself: only a visit within those first seconds of a fresh install's first start waits.

Kernels take float64 / int64 C-contiguous arrays (0/1 advice: int8) and Python floats/ints
only (one specialisation each, one compile per algorithm); the Python wrappers cast before the
call.  A loop checks its input as it reads it (NaN/inf, alphabets, ranges) and reports the first
bad row; the wrapper then runs the full checks of :mod:`olcore.validate` for the message, so a
good stream is read once.  Large outputs (weight tables) are allocated by numpy and passed in.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

__all__ = ["njit", "kernel", "KERNELS", "warm", "warm_in_background", "warm_in_child", "cache_is_complete", "compile_missing",
           "cache_dir", "choose_cache_dir", "f64",
           "round_arrays", "big_empty", "exp_lanes", "float_bits", "bits_float"]

_PACKAGE_DIR = Path(__file__).resolve().parent


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=path, prefix=".olcore-probe-", delete=True)
        probe.close()
        return True
    except OSError:
        return False


def choose_cache_dir(package_dir: Path = _PACKAGE_DIR, environ=os.environ) -> str | None:
    """The ``NUMBA_CACHE_DIR`` to set, or ``None`` when numba's default (beside the modules) works.

    Returns ``None`` when ``NUMBA_CACHE_DIR`` is already set or ``package_dir`` is writable;
    otherwise the first writable of ``$XDG_CACHE_HOME/olcore/numba``,
    ``~/.cache/olcore/numba`` and ``<tempdir>/olcore-numba-<uid>``.
    """
    if environ.get("NUMBA_CACHE_DIR"):
        return None
    if os.access(package_dir, os.W_OK) and _writable(package_dir / "__pycache__"):
        return None
    candidates = []
    if environ.get("XDG_CACHE_HOME"):
        candidates.append(Path(environ["XDG_CACHE_HOME"]) / "olcore" / "numba")
    try:
        candidates.append(Path.home() / ".cache" / "olcore" / "numba")
    except (RuntimeError, KeyError):
        pass
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    candidates.append(Path(tempfile.gettempdir()) / f"olcore-numba-{uid}")
    for c in candidates:
        if _writable(c):
            return str(c)
    return None


_chosen = choose_cache_dir()
if _chosen is not None:
    os.environ["NUMBA_CACHE_DIR"] = _chosen

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is settled)
import numpy as np  # noqa: E402


def cache_dir() -> str:
    """Where the compiled kernels are cached (``NUMBA_CACHE_DIR`` or beside the modules)."""
    return os.environ.get("NUMBA_CACHE_DIR") or str(_PACKAGE_DIR)


def njit(fn=None, *, fastmath=False):
    """``numba.njit(cache=True)``: compile ``fn`` on first call, cache it on disk.

    ``@njit(fastmath=("reassoc", "nsz"))`` lets LLVM reorder that function's float sums (so it
    can add them in vector lanes); use it only on small kernels whose docstring says which sums
    are reordered, and whose results the contract test compares with a tolerance."""
    if fn is None:
        return lambda f: njit(f, fastmath=fastmath)
    dispatcher = numba.njit(cache=True, fastmath=set(fastmath))(fn) if fastmath else numba.njit(cache=True)(fn)
    _DISPATCHERS.append(dispatcher)
    return dispatcher


#: Every dispatcher made by :func:`njit` (each keeps its own index in the disk cache).
_DISPATCHERS: list = []


def cache_is_complete() -> bool:
    """Whether the disk cache holds a current entry for every kernel made by :func:`njit` (numba's
    index of each, written for this source; a stale or missing index means a compile is due).
    Reads numba's cache index (an internal API): any surprise counts as incomplete."""
    try:
        return all(d._cache._cache_file._load_index() for d in _DISPATCHERS)
    except Exception:  # noqa: BLE001 - a numba without these internals: assume a compile is due
        return False


#: name -> zero-argument callable that runs the kernel(s) of one algorithm on tiny inputs.
KERNELS: dict = {}


def kernel(name: str):
    """Register a warm-up for ``name``: ``@kernel("perceptron") def _warm(): ...``."""

    def deco(fn):
        KERNELS[name] = fn
        return fn

    return deco


_warm_lock = threading.Lock()
_warmed: set = set()


def warm(names=None) -> list[str]:
    """Compile (or load from the disk cache) every registered kernel on tiny inputs.

    Safe to call from several threads and more than once (each kernel is warmed once per
    process).  Returns the names warmed by this call.

    Parameters
    ----------
    names : iterable of str, default=None
        Only these kernels (default: all of :data:`KERNELS`).
    """
    # The algorithm packages register their kernels when imported; importing olcore (which any
    # import of this module does first) imports them all, so this module needs no import of them.
    done = []
    with _warm_lock:
        for name in (list(KERNELS) if names is None else names):   # a copy: a module imported meanwhile may register one
            if name in _warmed:
                continue
            KERNELS[name]()
            _warmed.add(name)
            done.append(name)
    return done


_background: threading.Thread | None = None
_background_lock = threading.Lock()

#: Seconds the compiling child may take before the server gives up on it and compiles in-process.
CHILD_TIMEOUT = 600.0


def warm_in_child(names=None, timeout: float = CHILD_TIMEOUT) -> int | None:
    """Compile the kernels into the disk cache in a child interpreter; its exit code (None if it
    could not run or timed out).

    numba compiles under the GIL and one process-wide compiler lock, so a compile in the server's
    own process stalls every page for its duration (40 s for all kernels on a fresh install here).
    A child compiles on another core while the server answers; the server then only loads the
    kernels from the cache (under a second for all).

    Parameters
    ----------
    names : iterable of str, default=None
        Only these kernels (default: all of :data:`KERNELS`).
    timeout : float
        Seconds before the child is killed.
    """
    code = "import olcore, sys; olcore.warm(sys.argv[1:] or None)"
    cmd = [sys.executable, "-c", code, *(list(names) if names is not None else [])]
    try:       # the child inherits NUMBA_CACHE_DIR when this module chose one
        child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, preexec_fn=_lower_priority)
    except OSError:
        return None
    _children.add(child)
    try:
        return child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return None
    finally:
        _children.discard(child)


_children: set = set()


def _lower_priority() -> None:
    """In a compiling child, before it starts: yield the CPU to the server (niceness 10), whose own
    work (a page that needs a kernel now, every other page's runs) comes first."""
    if hasattr(os, "nice"):
        os.nice(10)


@atexit.register
def _stop_children() -> None:
    """A server that stops does not leave its compiling child running."""
    for child in list(_children):
        child.kill()


#: Compiling children on a fresh install (numba compiles on one core per process): two took
#: 24 s here for every kernel, one 37 s.
CHILDREN = max(1, min(2, os.cpu_count() or 1))


def compile_missing() -> bool:
    """When the disk cache lacks a kernel (a fresh install, or changed sources), compile every kernel
    into it in :data:`CHILDREN` child interpreters and wait for them; returns whether it compiled.

    The server's warm-up runs this in its background thread; a test session runs it once before its
    workers start, so that the workers and the servers they start load the kernels instead of each
    compiling them again."""
    if cache_is_complete():
        return False
    names = list(KERNELS)
    parts = [names[i::CHILDREN] for i in range(CHILDREN) if names[i::CHILDREN]]
    threads = [threading.Thread(target=warm_in_child, args=(part,), daemon=True) for part in parts]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return True


def _warm_via_child() -> None:
    compile_missing()   # a fresh install, or sources changed: compile off this process
    warm()              # loads what the children cached; compiles here only what they could not


def warm_in_background() -> threading.Thread:
    """Start warming in a daemon thread, once per process (later calls return that thread).

    ``app.py`` calls this when the server starts (the lifespan of its ``st.App``), before any visitor,
    and again on every run (a no-op after the first call).
    When the disk cache lacks a kernel (:func:`cache_is_complete`: a fresh install, or a source
    changed), the thread has :data:`CHILDREN` child interpreters compile the kernels into it
    (:func:`warm_in_child`); then it loads them all (:func:`warm`: under a second).  A request that
    needs a kernel before that compiles (or loads) it itself.
    """
    global _background
    with _background_lock:
        if _background is None:
            _background = threading.Thread(target=_warm_via_child, name="olcore-warm", daemon=True)
            _background.start()
    return _background


from llvmlite import ir as _ir  # noqa: E402
from numba import types as _types  # noqa: E402
from numba.extending import intrinsic as _intrinsic  # noqa: E402


@_intrinsic
def float_bits(typingctx, x):
    """The 64 bits of a float64 as an int64 (a bit cast, no conversion)."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], _ir.IntType(64))
    return _types.int64(_types.float64), codegen


@_intrinsic
def bits_float(typingctx, k):
    """The float64 whose 64 bits are the int64 ``k`` (a bit cast, no conversion)."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], _ir.DoubleType())
    return _types.float64(_types.int64), codegen


_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01            # ln 2 split in two (fdlibm): k * _LN2_HI is exact
_LN2_LO = 1.90821492927058770002e-10
_ROUND = 6755399441055744.0                      # 1.5 * 2**52: x + _ROUND rounds x to a whole number


@numba.njit(cache=True, fastmath={"contract"})
def exp_lanes(x):
    r""":math:`e^x` for :math:`x \le 0` (and a little above) in plain arithmetic that LLVM vectorises
    (numba's ``np.exp`` calls libm once per value: no vector lanes without Intel's SVML).

    :math:`x = k\ln 2 + r` with :math:`k` the nearest whole number to :math:`x/\ln 2` and
    :math:`|r| \le \ln 2 / 2` (Cody-Waite: :math:`\ln 2` in two parts, so :math:`r` is exact to
    about :math:`2^{-60}`), :math:`e^r` by its Taylor polynomial to degree 13 (the remainder is below
    :math:`5\cdot 10^{-18}` relative), times :math:`2^k` made from its bits in two factors, so
    results below :math:`2^{-1022}` underflow gradually as libm's do.  Measured: within 1 ulp of
    libm's ``exp`` on :math:`[-760, 0]`, the same 0 below about -745; ``x`` below -1400 is taken
    as -1400 (the result is 0 either way).  NaN is not handled (callers check their input first).
    """
    x = max(x, -1400.0)
    kd = x * _LOG2E + _ROUND
    k = float_bits(kd) - float_bits(_ROUND)
    kd = kd - _ROUND
    r = (x - kd * _LN2_HI) - kd * _LN2_LO
    p = 1.0 + r * (1.0 + r * (1 / 2 + r * (1 / 6 + r * (1 / 24 + r * (1 / 120 + r * (1 / 720 + r * (
        1 / 5040 + r * (1 / 40320 + r * (1 / 362880 + r * (1 / 3628800 + r * (1 / 39916800 + r * (
            1 / 479001600 + r * (1 / 6227020800)))))))))))))
    k1 = k >> 1
    return p * bits_float((k1 + 1023) << 52) * bits_float((k - k1 + 1023) << 52)


def f64(a) -> np.ndarray:
    """``a`` as a read-only C-contiguous float64 array: the one type every kernel takes for its
    inputs (numba compiles read-only and writable arrays separately; a read-only view of the
    caller's array costs no copy)."""
    v = np.ascontiguousarray(a, dtype=np.float64).view()
    v.setflags(write=False)
    return v


_HUGE = 1 << 21          # a transparent huge page (x86-64)


def round_arrays(*spec) -> list:
    """Fresh output arrays for a loop, ``spec`` = ``(dtype, length), ...``, carved from one numpy
    allocation when they are large.

    The per-round arrays of a 10^5-round trace are 0.1-0.8 MB each: each fresh one costs a page
    fault per 4 KB page touched (about 450 faults, 1-1.5 ms here, more than the loop itself at
    d = 2), since glibc hands such blocks back to the OS when they are freed.  From 1 MB in
    total they are carved from one block that starts on a 2 MB boundary and which numpy (for
    4 MB and more) marks for transparent huge pages: a fault per 2 MB instead.  Each array is a
    view of the block (8-byte aligned); :func:`freeze` freezes the block with them.
    """
    sizes = [(np.dtype(dt), int(n)) for dt, n in spec]
    offsets, total = [], 0
    for dt, n in sizes:
        offsets.append(total)
        total += -(-dt.itemsize * n // 8) * 8
    if total < (1 << 20):
        return [np.empty(n, dtype=dt) for dt, n in sizes]
    block = np.empty(max(-(-total // _HUGE) * _HUGE + _HUGE, 1 << 22), dtype=np.uint8)
    start = -block.ctypes.data % _HUGE
    return [block[start + o:start + o + dt.itemsize * n].view(dt) for (dt, n), o in zip(sizes, offsets)]


def big_empty(shape, dtype=np.float64) -> np.ndarray:
    """``np.empty(shape)``; from 1 MB, a view of a block that starts on a 2 MB boundary and is
    marked for transparent huge pages (see :func:`round_arrays`): a weight table or a copy of a
    loss matrix is written once, page by page, right after it is allocated."""
    n = int(np.prod(shape))
    return round_arrays((dtype, n))[0].reshape(shape)
