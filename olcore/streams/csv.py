r"""CSV streams: read and validate a file, write one, example templates and format help."""

from __future__ import annotations

import csv
import io

import numpy as np

from ..errors import StreamError
from ..stream import KINDS, MAX_BYTES, MAX_COLUMNS, MAX_ROUNDS, Stream, _check_size, _kind, from_arrays
from .generators import disjunction, loss_matrix, perfect_expert, regression, separable

__all__ = ["read_csv", "to_csv", "template_csv", "format_help"]


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
    "linear": lambda: separable(T=12, d=2, gamma=0.2, seed=1),      # /mistakes_to_risk needs 10 rows
    "disjunction": lambda: disjunction(T=6, N=5, k=2, seed=1),
    "regression": lambda: regression(T=6, d=2, seed=1),
    "oco": lambda: from_arrays("oco", separable(T=6, d=2, gamma=0.2, seed=1).X, separable(T=6, d=2, gamma=0.2, seed=1).y),
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
