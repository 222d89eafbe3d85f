r"""CSV streams: read and validate a file, write one, example templates and format help."""

from __future__ import annotations

import csv
import io
import re

import numpy as np

from ..errors import StreamError
from ..stream import MAX_BYTES, MAX_COLUMNS, MAX_ROUNDS, Stream, _check_size, _kind, from_arrays, value_range
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
        raise StreamError.bad("file", type(source).__name__, "CSV text, bytes or an uploaded file", label="The file")
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def _line(i: int, c: int | None = None) -> str:
    # data row i (0-based) sits on line i + 2 of the file: line 1 is the header
    return f"line {i + 2}" + ("" if c is None else f", column {c + 1}")


_NAMES = {",": "','", ";": "';'", "\t": "a tab", "|": "'|'"}
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?\s*$")


def _separator_hint(lines: list[str], delim: str) -> str:
    """A sentence for a file written in a decimal-comma locale (``1,5;2,0;-1``) or whose rows use another column
    separator than its header, appended to the error the file raised; ``""`` when nothing points that way.

    This reader takes ``,``, ``;`` or a tab between columns (whichever the header line uses) and ``.`` as the
    decimal mark (``float`` syntax)."""
    body = lines[1:201]

    def decimal_commas(sep: str) -> bool:
        return any(_DECIMAL_COMMA.match(c) for ln in body for c in ln.split(sep))

    def decimal_hint(sep: str) -> str:
        return (f" This file seems to use {_NAMES.get(sep, repr(sep))} between columns and ',' as the decimal mark "
                "(1,5 for one and a half): save it with ',' between columns and '.' as the decimal mark (1.5), "
                "for example as 'CSV (comma delimited)' from a spreadsheet set to an English locale.")

    if delim != ",":
        if decimal_commas(delim):
            return decimal_hint(delim)
        if any("," in ln and delim not in ln for ln in body):
            return (f" The header separates its columns with {_NAMES.get(delim, repr(delim))} but the rows with ',': "
                    "use one separator, ',' between columns and '.' as the decimal mark.")
        return ""
    for other in (";", "\t"):
        if any(other in ln for ln in body):
            if decimal_commas(other):
                return decimal_hint(other)
            return (f" The header separates its columns with ',' but the rows contain {_NAMES[other]}: use one "
                    "separator, ',' between columns and '.' as the decimal mark.")
    if any(len(ln.split(",")) > len(lines[0].split(",")) for ln in body):
        return (" If the file writes decimals with a comma (0,5 for a half), save it with '.' as the decimal mark "
                "(0.5): a comma separates columns.")
    return ""


def _hinted(exc: StreamError, hint: str) -> StreamError:
    return StreamError(str(exc) + hint, field=exc.field) if hint else exc


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
        non-numeric cells, NaN or inf, labels outside the kind's alphabet, numbers out of
        range (:func:`olcore.stream.value_range`), too many rows or columns.  The message
        names the line and column; for a file in a decimal-comma locale (``1,5;2,0;-1``) or
        whose rows use another separator than its header, it says so and how to save it.
    """
    spec = _kind(kind)
    data = _read_bytes(source)
    if len(data) > max_bytes:
        raise StreamError.bad("file", f"{len(data) / 2**20:.1f} MB", f"a CSV file of at most {max_bytes / 2**20:.0f} MB",
                              label="The file")
    if b"\x00" in data:
        raise StreamError.bad("file", "binary data (NUL bytes)", "a plain-text CSV file", label="The file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StreamError.bad("file", f"bytes that are not UTF-8 text (at byte {exc.start})",
                              "a plain-text CSV file", label="The file") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise StreamError(f"The file is empty; expected a header line and one line per round: {spec.what}.", "file")
    try:
        dialect = csv.Sniffer().sniff(lines[0], delimiters=",;\t")
        delim = dialect.delimiter
    except csv.Error:
        delim = ","
    try:
        return _parse(lines, delim, kind)
    except StreamError as exc:
        raise _hinted(exc, _separator_hint(lines, delim)) from None


def _parse(lines: list[str], delim: str, kind: str) -> Stream:
    spec = _kind(kind)
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
        raise StreamError.bad("file", "a header but no rounds", "at least one line of data after the header",
                              label="The file")
    width = len(header)
    for i, row in enumerate(body):
        if len(row) != width:
            raise StreamError.bad(_line(i), f"{len(row)} value{'' if len(row) == 1 else 's'}",
                                  f"{width}, one per column of the header")
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
    return from_arrays(kind, X, y, {"source": "csv", "columns": header}, at=_line, user=True)


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


_COLUMNS = {
    "experts": "`e1`, `e2`, …, `en`: one per expert, its prediction (0 or 1); then `y`: the outcome (0 or 1)",
    "experts01": "`e1`, `e2`, …, `en`: one per expert, its prediction in [0, 1]; then `y`: the outcome in [0, 1]",
    "losses": "`l1`, `l2`, …, `ln`: one per expert, its loss in [0, 1] (no `y` column)",
    "linear": "`x1`, `x2`, …, `xd`: one per feature (real numbers); then `y`: the label, -1 or +1",
    "disjunction": "`x1`, `x2`, …, `xN`: one per boolean attribute (0 or 1); then `y`: the label, 0 or 1",
    "regression": ("`x1`, `x2`, …, `xd`: one per feature (real numbers; Theorem 1 assumes ‖x‖ ≤ 1, and the page "
                   "can rescale); then `y`: the target (a real number)"),
    "oco": ("`x1`, `x2`, …, `xd`: one per feature (real numbers); then `y`: -1 or +1 for the logistic, hinge and "
            "linear losses, any real number for the squared loss"),
}


def format_help(kind: str) -> str:
    """One paragraph describing the CSV format of ``kind`` (for the upload widget): the columns by name,
    the label column ``y`` and its values, the range of real numbers, the separators, the limits."""
    spec = _kind(kind)
    numbers = (f" Every number must be {value_range()} (rescale a column outside this range)."
               if spec.x_values == "real" else "")
    return (f"A header line, then one line per round. Columns, in this order: {_COLUMNS[kind]}. Example header: "
            f"`{_header_example(kind)}`.{numbers} Separate columns with commas and write decimals with a point "
            f"(`0.5`, not `0,5`). At most {MAX_ROUNDS:,} rounds, {MAX_COLUMNS:,} columns, {MAX_BYTES // 2**20} MB.")
