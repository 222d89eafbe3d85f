"""A Streamlit session without a browser: the frontend's side of ``/_stcore/stream``, for load tests.

    async with Session.open("http://127.0.0.1:8501", "perceptron", "seed=3") as s:
        first = s.last                       # the first run: seconds, status, elements...
        run = await s.set_widget("seed", 4)  # the browser's rerun after the seed input changed
        assert run.ok and run.digest != first.digest

What a browser does, in the same order (Streamlit 1.67's frontend):

1. ``GET /<page>?<query>`` (the HTML; a balancer's affinity cookie arrives here) and
   ``GET /_stcore/health`` (sets the ``_streamlit_xsrf`` cookie); cookies are kept per session;
2. a websocket to ``/_stcore/stream`` with subprotocols ``["streamlit", <xsrf token>]`` and the cookies;
3. ``BackMsg.rerun_script`` (a ``ClientState``): the URL's ``query_string`` and ``page_name`` (the URL
   path) on the first run; afterwards the current page's ``page_script_hash`` (from the ``navigation``
   ForwardMsg) and the ``widget_states`` of every widget the user changed (the others keep their
   values in the server's session state);
4. ForwardMsgs: ``new_session``, ``session_status_changed``, ``navigation``, ``delta``... and
   ``script_finished`` (status ``FINISHED_EARLY_FOR_RERUN`` when ``st.navigation`` reruns for the
   page: the view is complete only at ``FINISHED_SUCCESSFULLY``).

A widget bound to the URL (``bind="query-params"``) is written to the address bar by the frontend
itself: :meth:`Session.set_widget` updates the query string it sends, as the browser does.

Like the frontend's ``ForwardMsgCache``, a session keeps every message the server marks
``metadata.cacheable`` (a new element of 10 KB or more, e.g. a chart), sends their hashes with each
rerun (``cached_message_hashes``), and resolves the server's ``ref_hash`` messages from its cache; an
entry not used for more than the server's ``max_cached_message_age`` successful runs (2) is dropped.
So an unchanged chart costs the server what it costs a browser: a reference, not its bytes.

:attr:`Run.digest` hashes every element the run drew (widgets' current values, the random Styler
ids of dataframes and the per-run ids of download buttons left out), so two sessions showing the
same view have the same digest: a load test checks isolation by comparing a session's digest with
a lone session's for the same settings.  Only loopback or a URL the caller gives is contacted.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlparse

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

__all__ = ["Session", "Run", "ProtocolError", "http_get"]

FINISHED = 0                 # ForwardMsg.script_finished: FINISHED_SUCCESSFULLY
FINISHED_EARLY_FOR_RERUN = 2
FINISHED_FRAGMENT_RUN = 3    # FINISHED_FRAGMENT_RUN_SUCCESSFULLY
_ALERT_ERROR = 1             # Alert.Format.ERROR


class ProtocolError(RuntimeError):
    """The server answered something a browser would not accept (closed socket, bad status...)."""


@dataclass
class Run:
    """One script run as the browser sees it: from the BackMsg sent to ``script_finished``."""

    seconds: float = 0.0
    status: int | None = None
    elements: int = 0
    bytes: int = 0
    refs: int = 0                  # elements sent as a reference to the session's message cache
    errors: list[str] = field(default_factory=list)    # st.exception / st.error shown by the run
    digest: str = ""
    server_values: dict[str, float | str] = field(default_factory=dict)   # widget key -> value the server set

    @property
    def ok(self) -> bool:
        return self.status == FINISHED and not self.errors


async def http_get(url: str, cookies: dict[str, str] | None = None, timeout: float = 30.0,
                   method: str = "GET") -> tuple[int, dict[str, list[str]], bytes]:
    """A minimal HTTP/1.1 request over asyncio (no thread pool): status, headers, body."""
    u = urlparse(url)
    path = u.path or "/"
    if u.query:
        path += "?" + u.query
    head = [f"{method} {path} HTTP/1.1", f"Host: {u.netloc}", "Connection: close",
            "User-Agent: olab-stclient", "Accept: */*"]
    if cookies:
        head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))

    async def go():
        reader, writer = await asyncio.open_connection(u.hostname, u.port or 80)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            await writer.drain()
            data = await reader.read()
        finally:
            writer.close()
            with _suppress():
                await writer.wait_closed()
        return data

    data = await asyncio.wait_for(go(), timeout)
    header, _, body = data.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        raise ProtocolError(f"GET {url}: no HTTP status line in {lines[:1]}") from None
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers.setdefault(k.strip().lower(), []).append(v.strip())
    if "chunked" in ",".join(headers.get("transfer-encoding", [])).lower():
        body = _dechunk(body)
    return status, headers, body


def _dechunk(body: bytes) -> bytes:
    out, i = b"", 0
    while True:
        j = body.find(b"\r\n", i)
        if j < 0:
            return out
        n = int(body[i:j].split(b";")[0] or b"0", 16)
        if n == 0:
            return out
        out += body[j + 2:j + 2 + n]
        i = j + 2 + n + 2


class _suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], Exception)


def _normalised(element) -> tuple[str, bytes]:
    """An element's type and its bytes without the per-session parts (see the module docstring)."""
    kind = element.WhichOneof("type")
    inner = getattr(element, kind)
    copy = type(inner)()
    copy.CopyFrom(inner)
    for name in ("value", "set_value", "url", "deferred_file_id"):
        if name in copy.DESCRIPTOR.fields_by_name:
            copy.ClearField(name)
    uid = b""
    if kind == "dataframe" and copy.arrow_data.HasField("styler"):   # pandas Styler: a random uuid
        uid = copy.arrow_data.styler.uuid.encode()
        copy.arrow_data.styler.uuid = ""
    raw = copy.SerializeToString(deterministic=True)
    if uid:
        raw = raw.replace(uid, b"x")
    return kind, raw


class Session:
    """One browser tab's session; use :meth:`open` (an async context manager)."""

    def __init__(self, base: str, page: str, query: str = "", timeout: float = 60.0):
        self.base = base.rstrip("/")
        self.page = page.strip("/")
        self.query = dict(parse_qsl(query, keep_blank_values=True))
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.ws = None
        self.session_id = ""
        self.page_hash = ""
        self.widget_ids: dict[str, str] = {}        # user key -> widget id
        self.url_keys: dict[str, str] = {}          # user key -> its query_param_key (bound widgets)
        self.widget_states: dict[str, object] = {}  # widget id -> WidgetState the user set
        self.runs: list[Run] = []
        self.message_cache: dict[str, list] = {}    # hash -> [encoded ForwardMsg, run count when last used]
        self.max_message_age = 2                    # runs; the server's new_session says
        self._run_count = 0
        self.opened_at = 0.0
        self.connect_seconds = 0.0

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, base: str, page: str, query: str = "", timeout: float = 60.0) -> "_Opening":
        """``async with Session.open(base, page, query) as s``: the page loaded and its first run finished."""
        return _Opening(cls(base, page, query, timeout))

    def _keep_cookies(self, headers: dict[str, list[str]]) -> None:
        for raw in headers.get("set-cookie", []):
            c = SimpleCookie()
            c.load(raw)
            for k, morsel in c.items():
                self.cookies[k] = morsel.value

    async def connect(self) -> Run:
        import websockets

        self.opened_at = time.perf_counter()
        status, headers, _ = await http_get(f"{self.base}/{self.page}?{urlencode(self.query)}", self.cookies,
                                            self.timeout)
        if status != 200:
            raise ProtocolError(f"GET /{self.page}: HTTP {status}")
        self._keep_cookies(headers)
        status, headers, _ = await http_get(f"{self.base}/_stcore/health", self.cookies, self.timeout)
        if status != 200:
            raise ProtocolError(f"GET /_stcore/health: HTTP {status}")
        self._keep_cookies(headers)
        ws_url = "ws" + self.base[len("http"):] + "/_stcore/stream"
        protocols = ["streamlit"] + ([self.cookies["_streamlit_xsrf"]] if "_streamlit_xsrf" in self.cookies else [])
        extra = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        self.ws = await asyncio.wait_for(websockets.connect(
            ws_url, subprotocols=protocols, additional_headers=extra, origin=self.base,
            max_size=None, open_timeout=self.timeout, ping_interval=None, compression=None), self.timeout)
        self.connect_seconds = time.perf_counter() - self.opened_at
        first = await self._rerun(first=True)
        first.seconds = time.perf_counter() - self.opened_at      # the whole page load, HTTP included
        return first

    async def close(self) -> None:
        if self.ws is not None:
            with _suppress():
                await asyncio.wait_for(self.ws.close(), 5)
            self.ws = None

    # -- reruns -------------------------------------------------------------------------
    @property
    def last(self) -> Run:
        return self.runs[-1]

    @property
    def replica(self) -> str | None:
        """The balancer's affinity cookie (``olab_replica``), None without a balancer."""
        return self.cookies.get("olab_replica")

    async def set_widget(self, key: str, value) -> Run:
        """Change the widget with user key ``key`` to ``value`` (int, float, str or bool) and rerun."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        wid = self.widget_ids.get(key)
        if wid is None:
            raise ProtocolError(f"no widget with key {key!r} on /{self.page} (keys: {sorted(self.widget_ids)})")
        w = WidgetState(id=wid)
        if isinstance(value, bool):
            w.bool_value = value
        elif isinstance(value, int):
            w.int_value = value
        elif isinstance(value, float):
            w.double_value = value
        else:
            w.string_value = str(value)
        self.widget_states[wid] = w
        if key in self.url_keys:                     # the frontend writes a bound widget to the URL
            self.query[self.url_keys[key]] = str(value)
        return await self._rerun()

    async def _rerun(self, first: bool = False) -> Run:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = urlencode(self.query)
        cs.page_name = self.page if first else ""
        cs.page_script_hash = "" if first else self.page_hash
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        cs.context_info.url = f"{self.base}/{self.page}?{cs.query_string}"
        for w in self.widget_states.values():
            cs.widget_states.widgets.add().CopyFrom(w)
        cs.cached_message_hashes.extend(self.message_cache)
        run = Run()
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        await asyncio.wait_for(self._read_run(run), self.timeout)
        run.seconds = time.perf_counter() - t0
        self.runs.append(run)
        return run

    async def _read_run(self, run: Run) -> None:
        import websockets

        h = hashlib.sha1()
        while True:
            try:
                data = await self.ws.recv()
            except websockets.ConnectionClosed as exc:
                raise ProtocolError(f"websocket closed during a run: {exc}") from None
            run.bytes += len(data)
            f = ForwardMsg()
            f.ParseFromString(data)
            f = self._through_cache(f, data, run)
            kind = f.WhichOneof("type")
            if kind == "delta":
                d = f.delta
                if d.WhichOneof("type") == "new_element":
                    e = d.new_element
                    et, raw = _normalised(e)
                    run.elements += 1
                    h.update(repr(tuple(f.metadata.delta_path)).encode() + et.encode() + raw)
                    inner = getattr(e, et)
                    wid = getattr(inner, "id", "") if "id" in inner.DESCRIPTOR.fields_by_name else ""
                    if isinstance(wid, str) and wid.startswith("$$ID-"):
                        key = wid.rsplit("-", 1)[-1]
                        self.widget_ids[key] = wid
                        if getattr(inner, "query_param_key", ""):
                            self.url_keys[key] = inner.query_param_key
                        fields = inner.DESCRIPTOR.fields_by_name
                        if getattr(inner, "set_value", False) and "value" in fields:
                            v = inner.value
                            run.server_values[key] = v if isinstance(v, (int, float, str, bool)) else list(v)
                    if et == "exception":
                        run.errors.append(f"exception: {e.exception.type}: {e.exception.message[:200]}")
                    elif et == "alert" and e.alert.format == _ALERT_ERROR:
                        run.errors.append(f"st.error: {e.alert.body[:200]}")
            elif kind == "new_session":
                self.session_id = f.new_session.initialize.session_id
                self.max_message_age = f.new_session.config.max_cached_message_age or self.max_message_age
                h = hashlib.sha1()           # the rerun for the page starts the view afresh
            elif kind == "navigation":
                self.page_hash = f.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = dict(parse_qsl(f.page_info_changed.query_string, keep_blank_values=True))
            elif kind == "page_not_found":
                run.errors.append(f"page not found: {f.page_not_found.page_name}")
            elif kind == "script_finished":
                run.status = f.script_finished
                if run.status in (FINISHED, FINISHED_FRAGMENT_RUN):
                    self._age_cache()
                if run.status != FINISHED_EARLY_FOR_RERUN:
                    run.digest = h.hexdigest()
                    return


    def _through_cache(self, f: ForwardMsg, data: bytes, run: Run) -> ForwardMsg:
        """The frontend's ``ForwardMsgCache.processMessagePayload``: keep a cacheable message, and
        replace a reference by the cached message (with the reference's metadata: its place)."""
        if f.WhichOneof("type") == "ref_hash":
            entry = self.message_cache.get(f.ref_hash)
            if entry is None:
                raise ProtocolError(f"the server referred to message {f.ref_hash}, which this session never cached")
            entry[1] = self._run_count
            cached = ForwardMsg()
            cached.ParseFromString(entry[0])
            cached.metadata.CopyFrom(f.metadata)
            run.refs += 1
            return cached
        if f.metadata.cacheable and f.hash:
            entry = self.message_cache.setdefault(f.hash, [data, self._run_count])
            entry[1] = self._run_count
        return f

    def _age_cache(self) -> None:
        """After a successful run: drop what was not used for more than ``max_message_age`` runs.
        (The frontend also spares messages of fragments that did not run: this app has none.)"""
        self._run_count += 1
        for h in [h for h, (_, used) in self.message_cache.items() if self._run_count - used > self.max_message_age]:
            del self.message_cache[h]


class _Opening:
    def __init__(self, session: Session):
        self.session = session

    async def __aenter__(self) -> Session:
        try:
            await self.session.connect()
        except BaseException:
            await self.session.close()
            raise
        return self.session

    async def __aexit__(self, *exc) -> None:
        await self.session.close()
