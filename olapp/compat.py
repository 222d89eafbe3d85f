"""Every private Streamlit and plotly name the app uses, in one module, each behind a check.

The app runs on the public API of Streamlit and plotly.  Where a private name buys a measured gain
(``benchmarks/PERFORMANCE.md``), it is a *hook* here: a function with a public fallback, used only
while a check at first use finds the internals as this module expects them.  A Streamlit or plotly
release that moved a name leaves the hook off: the app takes the public way, and the server says
so in one line (``olab: hook <name> is off: <why>; <fallback>``).  ``docs/ARCHITECTURE.md`` lists the
hooks and how to upgrade either library.

============================  ==========================================  ===============================
hook                          what it buys                                public fallback
============================  ==========================================  ===============================
``chart_element``             a chart's element sent from its memoised     ``st.plotly_chart``
                              JSON (no validation and serialisation of a
                              figure that did not change)
``plotly_dict``               a figure's dict without plotly's deep copy   ``fig.to_dict()``
``pages_directory``           the first request after a start to a         the flag left alone (only that
                              ``/lesson`` link runs app.py                 one request runs the page alone)
``query_params_seed``         widgets read a link rewritten on arrival     ``st.switch_page`` to the same
                              (old keys, hostile values) in the same run   page with the rewritten link
``script_folder``             the navigation's pages built once per app    built on every run
``network_url``               the hall's address printed at start          Streamlit's banner alone
``play_driver``               Play animates in the browser (the driver     the server steps the rounds
                              reads Streamlit's and plotly.js's page:
                              ``olapp/play_driver.js``)
============================  ==========================================  ===============================

Switch hooks off with the environment variable ``OLAB_HOOKS_OFF`` (``all``, or names separated by
commas), as a changed Streamlit would leave them; ``tests/test_compat.py`` runs every page so.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import inspect
import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

__all__ = ["HOOKS", "active", "status", "switched_off", "send_chart", "plotly_dict", "typed_array_spec", "leave_pages_directory_mode",
           "reseed_widgets_from_url", "script_folder", "network_url", "versions",
           "startup_lines", "OFF_ENV"]

_LOG = logging.getLogger("olab")

#: The environment variable that switches hooks off: ``all`` or ``name,name``.
OFF_ENV = "OLAB_HOOKS_OFF"


@dataclass(frozen=True)
class Hook:
    """A private name in use: what it buys, its public fallback, and the check that it looks as expected
    (``check()`` returns ``None`` when it does, else why not, in words)."""

    name: str
    buys: str
    fallback: str
    check: Callable[[], str | None]


HOOKS: dict[str, Hook] = {}
_status: dict[str, str | None] = {}          # name -> None (on) or why it is off, computed once
_forced: set[str] | None = None              # names switched off by switched_off() (tests)
_lock = threading.Lock()


def _hook(name: str, buys: str, fallback: str):
    def register(check: Callable[[], str | None]):
        HOOKS[name] = Hook(name, buys, fallback, check)
        return check
    return register


def _off_by_env() -> set[str]:
    words = {w.strip() for w in os.environ.get(OFF_ENV, "").split(",") if w.strip()}
    return set(HOOKS) if words & {"all", "1", "true", "yes"} else words


def _why_off(name: str) -> str | None:
    if _forced is not None and name in _forced:
        return "switched off (test)"
    if name in _off_by_env():
        return f"switched off ({OFF_ENV})"
    try:
        return HOOKS[name].check()
    except Exception as exc:  # noqa: BLE001 - any surprise in a check means: not as expected
        return f"{type(exc).__name__}: {exc}"


def active(name: str) -> bool:
    """Whether hook ``name`` is on (checked once per process; a hook found off logs one line)."""
    with _lock:
        if name not in _status:
            why = _status[name] = _why_off(name)
            if why is not None:
                _LOG.warning("olab: hook %s is off: %s; %s", name, why, HOOKS[name].fallback)
        return _status[name] is None


def status() -> dict[str, str | None]:
    """Every hook's state: ``None`` when on, else why it is off."""
    for name in HOOKS:
        active(name)
    return {name: _status[name] for name in HOOKS}


@contextlib.contextmanager
def switched_off(names: str | set[str] = "all") -> Iterator[None]:
    """Run with hooks off (all of them, or ``names``), as a Streamlit whose internals moved would leave
    them; the states found before are restored after.  For tests."""
    global _forced
    with _lock:
        saved, saved_forced = dict(_status), _forced
        _forced = set(HOOKS) if names == "all" else set(names)
        _status.clear()
    try:
        yield
    finally:
        with _lock:
            _forced = saved_forced
            _status.clear()
            _status.update(saved)


def _params(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


def _missing(names, where) -> str | None:
    gone = [n for n in names if n not in where]
    return f"not found: {', '.join(gone)}" if gone else None


# --- charts: the element st.plotly_chart sends, from memoised JSON ---------------------------------

_ELEMENT_ID_ARGS = ("plotly_spec", "plotly_config", "selection_mode", "is_selection_activated", "theme", "width",
                    "height")


@_hook("chart_element", "a chart's element sent from its memoised JSON", "charts go through st.plotly_chart")
def _check_chart_element() -> str | None:
    import streamlit as st
    from streamlit.elements.lib.form_utils import current_form_id  # noqa: F401
    from streamlit.elements.lib.layout_utils import LayoutConfig
    from streamlit.elements.lib.utils import compute_and_register_element_id
    from streamlit.proto.PlotlyChart_pb2 import PlotlyChart

    fields = PlotlyChart.DESCRIPTOR.fields_by_name
    enqueue = getattr(type(st._main), "_enqueue", None)
    plotly_chart = inspect.getsource(type(st._main).plotly_chart)
    return (_missing(("theme", "form_id", "spec", "config", "id"), fields)
            or _missing(("element_type", "user_key", "dg", "key_as_main_identity"),
                        _params(compute_and_register_element_id))
            or _missing(("delta_type", "element_proto", "layout_config"), _params(enqueue) if enqueue else [])
            or _missing(("width", "height"), _params(LayoutConfig))
            # the element's identity is computed from the same arguments as st.plotly_chart's
            or _missing([f"{a}=" for a in _ELEMENT_ID_ARGS] + ['"plotly_chart"'], plotly_chart))


def send_chart(spec: str, height: int | None, key: str | None, config: str, where, spec_id: str) -> None:
    """Send a plotly chart from its JSON ``spec``: the element ``st.plotly_chart(fig, key=key, config=config)``
    sends (``config`` as JSON; ``spec_id`` the digest of ``spec``, the element's identity), without
    validating and serialising the figure again."""
    import streamlit as st

    if not active("chart_element"):
        where.plotly_chart(json.loads(spec), key=key, config=json.loads(config), theme="streamlit")
        return
    from streamlit.elements.lib.form_utils import current_form_id
    from streamlit.elements.lib.layout_utils import LayoutConfig
    from streamlit.elements.lib.utils import compute_and_register_element_id
    from streamlit.proto.PlotlyChart_pb2 import PlotlyChart

    dg = where if hasattr(where, "_enqueue") else st._main
    proto = PlotlyChart()
    proto.theme = "streamlit"
    proto.form_id = current_form_id(dg)
    proto.spec = spec
    proto.config = config
    proto.id = compute_and_register_element_id(
        "plotly_chart", user_key=key, key_as_main_identity=False, dg=dg, plotly_spec=spec_id,
        plotly_config=config, selection_mode=("points", "box", "lasso"), is_selection_activated=False,
        theme="streamlit", width="stretch", height="content", alt=None)
    dg._enqueue("plotly_chart", proto, layout_config=LayoutConfig(width="stretch", height=height or 450))


# --- plotly: a figure's dict without the deep copy --------------------------------------------------

#: _plotly_utils.utils.is_skipped_key: values under these keys are never converted (nor walked).
_SKIPPED = ("geojson", "layer", "layers", "range")
#: plotly.js's names of the numpy types it reads as typed arrays.
_SHORT = {"int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2", "int32": "i4", "uint32": "u4",
          "float32": "f4", "float64": "f8"}
#: 64-bit integers narrowed as plotly narrows them: the smallest type that holds the array's range.
_NARROW = {"int64": (np.int8, np.int16, np.int32), "uint64": (np.uint8, np.uint16, np.uint32)}
_SCALARS = (str, int, float, type(None))
_F8 = np.dtype("<f8")
_I8 = np.dtype("<i8")


@_hook("plotly_dict", "a figure's dict without plotly's deep copy", "figures are converted by fig.to_dict()")
def _check_plotly_dict() -> str | None:
    import plotly.graph_objects as go
    from _plotly_utils.utils import is_homogeneous_array, to_typed_array_spec  # noqa: F401

    fig = go.Figure(go.Scatter(x=np.arange(5), y=np.linspace(0, 1, 5), customdata=np.arange(6).reshape(3, 2),
                               marker={"size": np.array([1, 300, 2, 3, 4])}), layout={"title": {"text": "t"}})
    mine = _plotly_dict(fig)
    if mine is None:
        return "go.Figure has no _data, _layout or _frame_objs"
    if json.dumps(mine, sort_keys=True, default=repr) != json.dumps(fig.to_dict(), sort_keys=True, default=repr):
        return "the dict differs from fig.to_dict()'s"
    return None


def typed_array_spec(v: np.ndarray) -> dict | None:
    """A numeric numpy array as plotly.js's typed-array spec (``{"dtype", "bdata"[, "shape"]}``: its
    C-ordered bytes in base64), exactly as plotly.py writes it: 64-bit integers narrowed to the smallest
    of 8, 16 or 32 bits that holds their range. ``None`` where plotly keeps the array as it is (empty,
    0-d, wider than 32 bits, not a number type, not in the machine's byte order). The one encoder of
    the app: figures (:func:`_plotly_dict`) and Play's frames (:mod:`olapp.animation`) both use it."""
    if not isinstance(v, np.ndarray) or v.ndim == 0 or v.size == 0 or not v.dtype.isnative:
        return None
    a = np.ascontiguousarray(v)
    if a.dtype.name in _NARROW:
        lo, hi = a.min(), a.max()
        a = next((a.astype(t) for t in _NARROW[a.dtype.name] if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max), None)
        if a is None:
            return None
    short = _SHORT.get(a.dtype.name)
    if short is None:
        return None
    out = {"dtype": short, "bdata": base64.b64encode(a).decode("ascii")}
    if a.ndim > 1:
        out["shape"] = str(a.shape)[1:-1]
    return out


def _typed(v: np.ndarray):
    """``to_typed_array_spec(v)`` for a numpy array: :func:`typed_array_spec`, and plotly's own
    function for what that leaves as it is."""
    from _plotly_utils.utils import to_typed_array_spec

    spec = typed_array_spec(v)
    return spec if spec is not None else to_typed_array_spec(copy.deepcopy(v))


def _walk(obj):
    """A copy of ``obj`` (dicts, lists and tuples new, leaves shared) with every array that is a dict's
    value (under a key not skipped) as its typed-array spec; an array in a list or tuple stays an array."""
    from _plotly_utils.utils import is_homogeneous_array, to_typed_array_spec

    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k in _SKIPPED:
                out[k] = v
            elif isinstance(v, np.ndarray):
                out[k] = _typed(v)
            elif isinstance(v, (dict, list, tuple)) or isinstance(v, _SCALARS):
                out[k] = _walk(v)
            elif is_homogeneous_array(v):         # a pandas Series, a list-like with __array__, ...
                out[k] = to_typed_array_spec(copy.deepcopy(v))
            else:
                out[k] = v
        return out
    if isinstance(obj, list):
        return [_walk(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_walk(v) for v in obj)
    return obj


def _plotly_dict(fig) -> dict | None:
    try:
        data, layout, frames = fig._data, fig._layout, fig._frame_objs
    except AttributeError:
        return None
    if frames:
        return fig.to_dict()
    return {"data": [_walk(tr) for tr in data], "layout": _walk(layout)}


def plotly_dict(fig) -> dict:
    """``fig.to_dict()`` (equal: same keys in the same order, same values, arrays as plotly.js typed-array
    specs), from a structural copy instead of plotly's deep copy of every array."""
    if not active("plotly_dict"):
        return fig.to_dict()
    out = _plotly_dict(fig)
    return fig.to_dict() if out is None else out


# --- pages: the pages/ folder is not Streamlit's legacy page list -----------------------------------

@_hook("pages_directory", "the first request to a /lesson link after a start runs app.py",
       "that one request may run the lesson's file without app.py")
def _check_pages_directory() -> str | None:
    from streamlit.runtime.pages_manager import PagesManager

    if not isinstance(getattr(PagesManager, "uses_pages_directory", 0), (bool, type(None))):
        return "PagesManager.uses_pages_directory is not a flag"
    return None


def leave_pages_directory_mode(rerun: bool = False) -> None:
    """Streamlit runs a script from ``pages/`` directly (its pre-``st.navigation`` mode) until app.py has
    called ``st.navigation`` once in the process: switch that mode off at once (and, with ``rerun``,
    inside a page file's run, rerun through app.py)."""
    if not active("pages_directory"):
        return
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if not rerun:
        PagesManager.uses_pages_directory = False
    elif PagesManager.uses_pages_directory and get_script_run_ctx() is not None:
        PagesManager.uses_pages_directory = False
        import streamlit as st

        st.rerun()


# --- links: widgets seeded from a link rewritten on arrival -----------------------------------------

@_hook("query_params_seed", "widgets read a link rewritten on arrival in the same run",
       "the page is reopened once (st.switch_page) with the rewritten link")
def _check_query_params_seed() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: F401
    from streamlit.runtime.state.query_params import QueryParams
    from streamlit.runtime.state.safe_session_state import SafeSessionState

    return (_missing(["set_initial_query_params_from_current"], dir(QueryParams))
            or _missing(["query_params"], dir(SafeSessionState)))


def reseed_widgets_from_url() -> bool:
    """Widgets are seeded from the query string the page was loaded with, not from ``st.query_params``:
    make the seed the parameters as they are now (Streamlit's own call on a page change).  Returns
    ``False`` when the hook is off: the caller then reopens the page with the link as it is now."""
    if not active("query_params_seed"):
        return False
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return False
    with ctx.session_state.query_params() as qp:
        qp.set_initial_query_params_from_current()
    return True


# --- navigation: the app's folder, to build its pages once ------------------------------------------

@_hook("script_folder", "the navigation's pages built once per app folder", "the pages are built on every run")
def _check_script_folder() -> str | None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: F401

    return _missing(["main_script_parent"], dir(PagesManager))


def script_folder() -> Path | None:
    """The folder of the script being run (app.py's), or ``None`` when unknown."""
    if not active("script_folder"):
        return None
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return getattr(getattr(get_script_run_ctx(), "pages_manager", None), "main_script_parent", None)


# --- the hall's address -----------------------------------------------------------------------------

@_hook("network_url", "the hall's address printed at start", "Streamlit's banner alone")
def _check_network_url() -> str | None:
    from streamlit import config
    from streamlit.net_util import get_internal_ip  # noqa: F401

    return _missing(["get_where_defined", "get_option"], dir(config))


def network_url() -> str | None:
    """On every interface (``--server.address 0.0.0.0``), the address students open, when Streamlit's
    banner does not print it (it prints ``browser.serverAddress`` only, which .streamlit/config.toml
    sets so that it never asks another host for this machine's address).  The address comes from the
    routing table; a UDP socket's connect sends nothing."""
    import streamlit as st

    if st.get_option("server.address") not in ("0.0.0.0", "::") or not active("network_url"):
        return None
    from streamlit import config
    from streamlit.net_util import get_internal_ip

    if not config.get_where_defined("browser.serverAddress").endswith("config.toml"):
        return None                 # (a --browser.serverAddress or its variable is what the banner printed)
    ip = get_internal_ip()
    return f"http://{ip}:{st.get_option('server.port')}" if ip else None


# --- Play in the browser ----------------------------------------------------------------------------

@_hook("play_driver", "Play animates in the browser (olapp/play_driver.js reads Streamlit's and plotly.js's page)",
       "the server steps the rounds while Play plays")
def _check_play_driver() -> str | None:
    import streamlit as st

    if not hasattr(getattr(st, "components", None), "v2"):
        return "st.components.v2 not found"
    return None


# --- what the server runs on ------------------------------------------------------------------------

#: The packages whose versions the server reports at start.
REPORTED = ("streamlit", "plotly", "numpy", "numba", "pandas")
LOCK = Path(__file__).resolve().parent.parent / "requirements.txt"


def versions() -> dict[str, str]:
    """The installed version of each reported package."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in REPORTED:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


def locked(lock: Path = LOCK) -> dict[str, str]:
    """``{package: version}`` pinned in the lock (``name==version`` lines)."""
    out = {}
    try:
        text = lock.read_text(encoding="utf-8")
    except OSError:
        return out
    for line in text.splitlines():
        req = line.split("#", 1)[0].split(";", 1)[0].strip()
        if "==" in req:
            name, _, ver = req.partition("==")
            out[name.strip().lower().replace("_", "-")] = ver.strip()
    return out


def startup_lines(lock: Path = LOCK) -> list[str]:
    """What the server prints at start: one line with the versions it runs and each hook's state, and
    one warning line per reported package whose version is not the lock's."""
    found, pinned = versions(), locked(lock)
    hooks = status()
    line = ("olab: Online Learning Lab on " + ", ".join(f"{k} {v}" for k, v in found.items())
            + "; hooks " + ", ".join(f"{k} {'on' if why is None else 'off'}" for k, why in hooks.items()))
    lines = [line]
    for name, ver in found.items():
        want = pinned.get(name)
        if want is not None and want != ver:
            lines.append(f"olab: warning: {name} {ver} is installed; the lock ({lock.name}) was tested with "
                         f"{want} (pip install -r {lock.name} installs it)")
    return lines
