"""Serve a lecture hall on one link: N replicas of the app behind HAProxy, with session affinity.

    python -m scripts.hall --replicas 2 --port 8501                      # http://127.0.0.1:8501
    python -m scripts.hall --replicas 4 --port 8501 --address 0.0.0.0    # the hall's network
    python -m scripts.hall --replicas 2 --print-config                   # show the HAProxy config only

Starts N ``streamlit run app.py`` processes on free loopback ports (127.0.0.1 only: nobody
reaches a replica except through the balancer), writes an HAProxy configuration for them and
runs Debian's ``haproxy`` (``/usr/sbin/haproxy``; ``apt-get install haproxy``) on ``--address``:``--port``.
Then it opens every lesson once on every replica, so that the first students do not wait for a
replica's imports (``--no-warm``: not), and prints "Ctrl-C stops the hall.".  Ctrl-C
(or SIGTERM, or ``--for SECONDS``) stops the balancer and every replica; so does the balancer's death.

Why affinity: a Streamlit session is one websocket (``/_stcore/stream``) plus HTTP requests that
must reach the process holding that websocket (a file upload is a ``PUT /_stcore/upload_file/
<session id>/...``; any other replica answers 400 "Invalid session_id").  HAProxy inserts a
cookie (``olab_replica``) on a browser's first response and sends every later request carrying it,
the websocket upgrade included, to the same replica; new browsers go to the replica with the
fewest open connections (``balance leastconn``).  Each replica's numpy uses one BLAS thread
(:data:`REPLICA_ENV`): the parallelism is the replicas'.

The hall heals.  A replica that dies (a crash, the kernel's OOM killer, ``kill -9``) is started
again by the hall on the same port, with the same environment and cookie secret, so the
balancer's ``server rN`` line and the browsers' cookies stay valid; the hall says so in one line
("replica r1 exited (signal 9 SIGKILL); restarting it on 127.0.0.1:PORT", then "replica r1 is
back ...").  A replica that dies again soon after its start is restarted after a pause that doubles
each time (up to :data:`MAX_BACKOFF` seconds), so one that cannot start does not spin.  Meanwhile
HAProxy stops sending anything to it: its health check (``/_stcore/health`` every second, the next
one 300 ms after a failure) marks it DOWN after two failures, and a request that finds it gone
before that is retried at once on another replica (``option redispatch 1``, ``retry-on
conn-failure``), which answers with its own cookie.  A busy replica is not marked down for being
slow (an answer within ``timeout check 30s`` keeps it UP).  So the browsers of a dead replica come
back within a second or two on the others (on an idle machine): Streamlit's frontend reconnects its
websocket, the app's reconnect keeper (:mod:`olapp.reconnect`, on when ``OLAB_REPLICA`` names the
replica) makes it rerun the page at once from its link and widgets, and the page says once, in
words, that the view was rebuilt and that an uploaded stream must be uploaded again (the session
state of the lost process, an uploaded file included, is gone).  Only the balancer's death stops
the hall by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import ctypes
import io
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from scripts.served_app import ROOT, free_port, stop, streamlit_command, wait_healthy

HAPROXY = os.environ.get("OLAB_HAPROXY", "/usr/sbin/haproxy")
#: the affinity cookie HAProxy inserts (its value names the replica: r1, r2, ...)
COOKIE = "olab_replica"
#: Each replica is one process using about one core: its numpy linear algebra runs on one thread.
#: OpenBLAS's default (a thread per core, spinning while it waits) makes every session's solve
#: fight the other sessions and replicas for the cores: on the 2-core test machine, under load,
#: the Widrow-Hoff lesson's EG section took 7-10 s of wall time (2-3 s CPU) per seed with it and
#: 0.15 s (0.05 s CPU) with one thread.  A variable already set in the environment wins.
REPLICA_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: The environment variable that tells a replica its name in the balancer (r1, r2...): the app's
#: reconnect keeper and notice (:mod:`olapp.reconnect`) are on in a replica of a hall only.
REPLICA_NAME = "OLAB_REPLICA"
#: A replica that ran this long before it died is restarted at once; one that dies sooner after its
#: (re)start waits before the next start: 1 s, then twice the last pause, up to :data:`MAX_BACKOFF`.
STABLE_AFTER = 60.0
MAX_BACKOFF = 30.0
#: The pause before restarting a replica that died after a stable run.
FIRST_PAUSE = 0.0


def replica_env(**more: str) -> dict[str, str]:
    """The environment of a replica: this one, :data:`REPLICA_ENV` where unset, and ``more``."""
    return {**REPLICA_ENV, **os.environ, **more}


def haproxy_path() -> str | None:
    """Path of the haproxy binary, or None when it is not installed."""
    if Path(HAPROXY).exists():
        return HAPROXY
    return shutil.which("haproxy")


def haproxy_config(address: str, port: int, replica_ports: list[int], stats_socket: str | None = None) -> str:
    """The HAProxy configuration of a hall: one frontend on address:port, one backend of replicas."""
    servers = "\n".join(f"    server r{i} 127.0.0.1:{p} cookie r{i}" for i, p in enumerate(replica_ports, start=1))
    stats = f"    stats socket {stats_socket} mode 600 level user\n" if stats_socket else ""
    return f"""# Generated by scripts/hall.py: {len(replica_ports)} replicas of the Online Learning Lab.
global
    maxconn 4096
{stats}
defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout http-request 15s
    timeout http-keep-alive 15s
    timeout queue 30s
    # a session is one long-lived websocket: tunnel/client/server idle timeouts of an hour
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout client-fin 10s

frontend hall
    bind {address}:{port}
    default_backend replicas

backend replicas
    # new browsers go to the replica with the fewest open connections (websockets are long-lived);
    # the cookie then keeps each browser's websocket and HTTP requests (uploads) on that replica
    balance leastconn
    cookie {COOKIE} insert indirect nocache httponly
    # a request whose replica is gone (connection refused, or closed with no answer) is retried at
    # once on another replica, which answers with its own cookie: a dead replica's browsers reconnect
    # elsewhere even before the health check has marked it down
    option redispatch 1
    retries 2
    retry-on conn-failure empty-response
    option httpchk GET /_stcore/health
    http-check expect status 200
    # a dead replica refuses the connection: DOWN after 2 failed checks (the second 300 ms after the
    # first), UP again after 2 good checks a second apart.  No "observe layer4 ... mark-down": marking
    # the replica down on the first refused request leaves one server active, and HAProxy then holds
    # that request's redispatch for a second (its retry turn-around); before the check marks it down,
    # a refused request is redispatched at once.
    default-server check inter 1s fastinter 300ms downinter 1s fall 2 rise 2
    # a busy replica (a hall arriving at once) answers late but is alive: it keeps its sessions.
    # With a 5 s read timeout one overloaded replica was marked DOWN and HAProxy answered 503 to the
    # rest of the hall.  Only a refused connection or an answer later than 30 s counts against a replica.
    timeout check 30s
{servers}
"""


try:     # resolved once here: the child, forked from a process with threads (the healer), only calls it
    _PRCTL = ctypes.CDLL("libc.so.6", use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - not Linux/glibc
    _PRCTL = None
_PR_SET_PDEATHSIG, _SIGTERM = 1, int(signal.SIGTERM)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Ask Linux to SIGTERM this child when the thread of the hall process that started it ends
    (the main thread, or the healer thread for a restarted replica), even by SIGKILL."""
    if _PRCTL is not None:
        with contextlib.suppress(Exception):
            _PRCTL(_PR_SET_PDEATHSIG, _SIGTERM)


def _how(returncode: int) -> str:
    """How a process ended, in words: ``signal 9 SIGKILL`` or ``code 1``."""
    if returncode < 0:
        try:
            return f"signal {-returncode} {signal.Signals(-returncode).name}"
        except ValueError:
            return f"signal {-returncode}"
    return f"code {returncode}"


def _healthy(base: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(base + "/_stcore/health", timeout=timeout) as r:
            return r.status == 200
    except OSError:
        return False


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass
class Replica:
    """One app server of a hall: its name in the balancer (``r1``...), its port, its current process."""

    name: str
    port: int
    proc: subprocess.Popen
    log: Path
    restarts: int = 0                 # how many times the hall started it again
    started: float = field(default_factory=time.monotonic)  # when the current process started
    back: bool = True                 # the current process answered its health check and the balancer sees it UP
    died: float | None = None         # when the hall found the last process dead
    retry_at: float | None = None     # dead and not started again yet: when it will be
    pause: float = 0.0                # the last pause before a restart (the backoff)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Hall:
    """A running hall: the balancer's URL, the replicas' URLs and processes.

    ``procs[i]`` is replica ``r{i+1}``'s current process (the hall replaces it when it restarts the
    replica).  :meth:`heal` is one pass of the supervision that restarts dead replicas; :func:`hall`
    runs it in a background thread (``heal=True``).  ``events`` keeps every line the hall said.
    """

    base: str
    replicas: list[str]
    procs: list[subprocess.Popen]
    balancer: subprocess.Popen
    config_path: Path
    stats_socket: Path
    logs: list[Path] = field(default_factory=list)
    members: list[Replica] = field(default_factory=list)
    launch: Callable[[str, int, Path], subprocess.Popen] | None = None   # (name, port, log) -> a new process
    say: Callable[[str], None] = _say
    events: list[tuple[float, str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _closing: bool = False

    def stats(self) -> dict[str, dict[str, str]]:
        """HAProxy's ``show stat`` for each replica (``r1``...): ``stot`` (connections served),
        ``scur`` (open now), ``status`` (UP/DOWN)..."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(str(self.stats_socket))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        text = data.decode().lstrip("# ")
        return {row["svname"]: row for row in csv.DictReader(io.StringIO(text))
                if row.get("pxname") == "replicas" and row["svname"] not in ("BACKEND", "FRONTEND")}

    def alive(self) -> bool:
        """The balancer and every replica's current process are running (right now)."""
        return self.balancer.poll() is None and all(p.poll() is None for p in self.procs)

    def up(self) -> dict[str, bool]:
        """For each replica: its process runs, answers its health check, and the balancer sees it UP."""
        try:
            status = {name: row["status"] for name, row in self.stats().items()}
        except OSError:
            status = {}
        return {r.name: r.proc.poll() is None and _healthy(r.base) and status.get(r.name, "").startswith("UP")
                for r in self.members}

    def wait_whole(self, timeout: float = 60.0) -> float:
        """Wait until every replica is :meth:`up` and the supervision has said that every restarted
        one is back; return the seconds waited (raise after ``timeout``)."""
        t0 = time.monotonic()
        while not (all((up := self.up()).values()) and all(r.back for r in self.members)):
            if time.monotonic() - t0 > timeout:
                raise RuntimeError(f"the hall is not whole after {timeout:.0f} s: {up}")
            time.sleep(0.2)
        return time.monotonic() - t0

    def _tell(self, line: str) -> None:
        self.events.append((time.monotonic(), line))
        self.say(line)

    def heal(self) -> list[str]:
        """One pass of the supervision: start again every replica found dead (at once, or after its
        backoff pause), and tell when a restarted one is back (healthy and UP in the balancer).
        Returns the lines said.  Call it from a thread that lives as long as the hall: Linux stops a
        replica (``PR_SET_PDEATHSIG``) when the thread that started it ends."""
        said: list[str] = []
        with self._lock:
            if self._closing or self.launch is None:
                return said
            now = time.monotonic()
            for i, r in enumerate(self.members):
                code = r.proc.poll()
                if code is not None and r.retry_at is None:          # found dead just now
                    soon = r.restarts > 0 and now - r.started < STABLE_AFTER
                    r.pause = min(MAX_BACKOFF, max(1.0, 2 * r.pause)) if soon else FIRST_PAUSE
                    r.died, r.retry_at, r.back = now, now + r.pause, False
                    said.append(f"replica {r.name} exited ({_how(code)}); restarting it on 127.0.0.1:{r.port}"
                                + (f" in {r.pause:.0f} s (it died {now - r.started:.0f} s after its last start)"
                                   if r.pause else ""))
                if r.retry_at is not None and now >= r.retry_at:
                    r.proc = self.procs[i] = self.launch(r.name, r.port, r.log)
                    r.retry_at, r.started = None, time.monotonic()
                    r.restarts += 1
                elif not r.back and r.retry_at is None and r.proc.poll() is None and _healthy(r.base, 0.5):
                    with contextlib.suppress(OSError):
                        if self.stats().get(r.name, {}).get("status", "").startswith("UP"):
                            r.back = True
                            said.append(f"replica {r.name} is back on 127.0.0.1:{r.port} "
                                        f"({time.monotonic() - (r.died or r.started):.1f} s after it exited; "
                                        f"restart {r.restarts})")
        for line in said:
            self._tell(line)
        return said

    def _supervise(self, stop_event: threading.Event, interval: float) -> None:
        while not stop_event.wait(interval):
            try:
                self.heal()
            except Exception as exc:  # noqa: BLE001 - the supervision outlives one failed pass
                self._tell(f"hall: supervision pass failed: {type(exc).__name__}: {exc}")

    def _close(self) -> None:
        with self._lock:
            self._closing = True


@contextlib.contextmanager
def hall(replicas: int = 2, port: int | None = None, address: str = "127.0.0.1", timeout: float = 120.0,
         log_dir: str | Path | None = None, extra: tuple[str, ...] = (), heal: bool = True,
         say: Callable[[str], None] = _say):
    """Start ``replicas`` app servers and HAProxy on ``address:port``; yield a :class:`Hall`; stop all.

    Every process is stopped on every exit path (and is SIGTERMed by Linux if this process dies).
    ``extra``: more ``streamlit run`` options for every replica.  ``heal``: a background thread runs
    :meth:`Hall.heal` four times a second, restarting any replica that dies.  ``say``: where the
    hall's lines go (standard error).
    """
    exe = haproxy_path()
    if exe is None:
        raise RuntimeError("haproxy not found: install Debian's package 'haproxy' (apt-get install haproxy)")
    if replicas < 1:
        raise ValueError(f"replicas: found {replicas}, expected at least 1")
    port = port or free_port()
    work = Path(tempfile.mkdtemp(prefix="olab-hall-"))
    logs_at = Path(log_dir) if log_dir else work
    logs_at.mkdir(parents=True, exist_ok=True)
    # one cookie secret for every replica (and every restart of one), so that cookies one signs the others accept
    env = replica_env(STREAMLIT_SERVER_COOKIE_SECRET=secrets.token_hex(16))
    procs: list[subprocess.Popen] = []
    files = []                          # the balancer's log
    outputs: dict[str, object] = {}     # each replica's log, open for its current process
    balancer = None
    healer: threading.Thread | None = None
    stop_healing = threading.Event()
    h: Hall | None = None

    def launch(name: str, port: int, log_path: Path) -> subprocess.Popen:
        log = open(log_path, "a+b")     # a restarted replica's output follows its predecessor's
        if name in outputs:
            outputs[name].close()
        outputs[name] = log
        return subprocess.Popen(streamlit_command(port, *extra), env={**env, REPLICA_NAME: name},
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)

    try:
        members = []
        for i in range(1, replicas + 1):
            name, p, log_path = f"r{i}", free_port(), logs_at / f"replica-r{i}.log"
            log_path.write_bytes(b"")
            r = Replica(name, p, launch(name, p, log_path), log_path)
            members.append(r)
            procs.append(r.proc)
        for r in members:
            wait_healthy(r.base, timeout, r.proc, outputs[r.name])
        ports = [r.port for r in members]
        config = work / "haproxy.cfg"
        sock = work / "haproxy.sock"
        config.write_text(haproxy_config(address, port, ports, str(sock)))
        blog = open(logs_at / "haproxy.log", "w+b")
        files.append(blog)
        balancer = subprocess.Popen([exe, "-db", "-f", str(config)], stdout=blog, stderr=subprocess.STDOUT,
                                    preexec_fn=_die_with_parent)
        host = "127.0.0.1" if address in ("0.0.0.0", "::", "") else address
        h = Hall(f"http://{host}:{port}", [r.base for r in members], procs, balancer, config, sock,
                 [r.log for r in members] + [logs_at / "haproxy.log"], members, launch, say)
        wait_healthy(h.base, 30, balancer, blog)
        deadline = time.monotonic() + 30      # every replica UP in the balancer's own checks
        while True:
            with contextlib.suppress(OSError):
                if all(r["status"].startswith("UP") for r in h.stats().values()):
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the balancer does not see every replica UP: {h.stats()}")
            time.sleep(0.2)
        if heal:
            healer = threading.Thread(target=h._supervise, args=(stop_healing, 0.25), name="olab-hall-healer",
                                      daemon=True)
            healer.start()
        yield h
    finally:
        stop_healing.set()
        if healer is not None:
            healer.join(timeout=10)
        if h is not None:
            h._close()                 # no restart from here on
        if balancer is not None:
            stop(balancer, grace=5)
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            stop(proc)
        for f in [*files, *outputs.values()]:
            f.close()
        shutil.rmtree(work, ignore_errors=True)       # the config, the socket and (without log_dir) the logs


class _Stop(Exception):
    pass


def warm(h: Hall, timeout: float = 120.0) -> None:
    """Open every lesson once on every replica (straight to the replica, all replicas at once), so
    the first students do not wait for a replica's imports and first runs."""
    import asyncio

    from olapp import registry
    from scripts.stclient import Session

    slugs = [lesson.slug for lesson in registry.lessons()]

    async def replica(base: str) -> list[str]:
        failed = []
        for slug in slugs:
            try:
                async with Session.open(base, slug, timeout=timeout) as s:
                    if not s.last.ok:
                        failed.append(f"{slug}: {s.last.errors[:1]}")
            except Exception as exc:  # noqa: BLE001 - a warm-up failure is reported, not fatal
                failed.append(f"{slug}: {type(exc).__name__}")
        return failed

    async def every() -> list[list[str]]:
        return await asyncio.gather(*(replica(b) for b in h.replicas))

    t0 = time.monotonic()
    print(f"Warming the replicas: every lesson once on each ({len(slugs)} pages)...", flush=True)
    failed = asyncio.run(every())
    for i, f in enumerate(failed, start=1):
        if f:
            print(f"  replica r{i}: warm-up failed on {', '.join(f)}", file=sys.stderr, flush=True)
    print(f"Warm in {time.monotonic() - t0:.0f} s.", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=2, help="app processes (about one per core)")
    ap.add_argument("--port", type=int, default=8501, help="the hall's port (the balancer's)")
    ap.add_argument("--address", default="127.0.0.1",
                    help="the balancer's address: 0.0.0.0 serves the hall's network (replicas stay on loopback)")
    ap.add_argument("--for", dest="duration", type=float, default=None, metavar="SECONDS",
                    help="stop by itself after this many seconds (default: run until Ctrl-C)")
    ap.add_argument("--log-dir", default=None, help="keep the replicas' and the balancer's logs here")
    ap.add_argument("--no-warm", action="store_true",
                    help="do not open every lesson once on every replica before announcing the link "
                         "(a replica's first visit of a page imports its modules and may compile kernels)")
    ap.add_argument("--print-config", action="store_true", help="print the HAProxy configuration and exit")
    args = ap.parse_args(argv)
    if args.print_config:
        print(haproxy_config(args.address, args.port, [free_port() for _ in range(args.replicas)]), end="")
        return 0

    def _on_signal(signum, _frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)     # a second Ctrl-C must not cut the clean-up short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise _Stop(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    try:
        with hall(args.replicas, args.port, args.address, log_dir=args.log_dir) as h:
            print(f"Online Learning Lab: {args.replicas} replicas behind HAProxy on {h.base}"
                  f"{' (and every address of this machine: port ' + str(args.port) + ')' if args.address == '0.0.0.0' else ''}",
                  flush=True)
            for i, r in enumerate(h.replicas, start=1):
                print(f"  replica r{i}: {r} (log {h.logs[i - 1]})", flush=True)
            if not args.no_warm:
                warm(h)
            print("Ctrl-C stops the hall.", flush=True)
            end = time.monotonic() + args.duration if args.duration else None
            # a replica that dies is restarted by the hall's healer thread; only the balancer's death ends it
            while h.balancer.poll() is None:
                if end is not None and time.monotonic() >= end:
                    break
                time.sleep(0.5)
            else:
                print(f"stopping: haproxy exited ({_how(h.balancer.returncode)})"
                      + (f"; its log: {h.logs[-1]}" if args.log_dir else ""), file=sys.stderr)
                return 1
    except _Stop as exc:
        print(f"\nstopped ({exc}): the balancer and every replica are down.", file=sys.stderr)
    except RuntimeError as exc:
        print(f"hall: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
