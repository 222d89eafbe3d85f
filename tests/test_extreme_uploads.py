"""Accepted means handled, on the pages: an upload with an extreme cell is refused with a message about the file,
or, within the range, the page runs and shows no nan, no inf and no internal field name.

The first case is the issue's: /online_svm?part=Second-order+Perceptron&stream=Upload with the linear template and one
cell set to 1e308 (an OverflowError before the range existed).
"""

from __future__ import annotations

import re
import warnings

import pytest

from olcore import streams
from olcore.stream import VALUE_MAX
from olcore.validate import sci
from tests.helpers import run_page

_NONFINITE = re.compile(r"(?<![A-Za-z\\])(nan|inf)(?![A-Za-z])", re.IGNORECASE)
_INTERNAL = re.compile(r"^\s*[A-Za-z_]\w*\s*:|\b[a-z]{2,}_[a-z_0-9]+\b")


def _with_cell(kind: str, value: float, row: int = 2, col: int = 0) -> bytes:
    lines = streams.template_csv(kind).strip().split("\n")
    cells = lines[row].split(",")
    cells[col] = repr(value)
    lines[row] = ",".join(cells)
    return ("\n".join(lines) + "\n").encode()


def _shown(at) -> str:
    return "\n".join(el.value for el in list(at.markdown) + list(at.caption) + list(at.warning) + list(at.info)
                     + list(at.error) + list(at.success))


def _upload(page: str, query: dict, data: bytes, kind: str):
    at = run_page(page, query={"stream": "Upload", **query})
    at.file_uploader[0].set_value((f"{kind}.csv", data, "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.fixture(autouse=True)
def _overflow_is_an_error():
    """A numpy overflow anywhere on the page (an analysis, a figure's cast) fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def test_the_issues_overflow_is_refused_at_the_upload_with_line_column_and_range():
    at = _upload("pages/online_svm.py", {"part": "Second-order Perceptron"}, _with_cell("linear", 1e308), "linear")
    assert at.error, _shown(at)
    msg = at.error[0].value.replace("\\", "")               # (the page shows the file's text literally: escaped)
    assert "line 3, column 1" in msg and sci(VALUE_MAX) in msg and "rescale the column" in msg, msg
    assert not _INTERNAL.search(msg.split(": ", 1)[1]), msg          # after the file's name


@pytest.mark.parametrize("page, kind, query", [
    ("pages/online_svm.py", "linear", {"part": "Second-order Perceptron"}),
    ("pages/perceptron.py", "linear", {}),
    ("pages/kernel_perceptron.py", "linear", {"kernel": "polynomial", "degree": "6"}),
    ("pages/widrow_hoff.py", "regression", {}),
])
def test_a_cell_at_the_end_of_the_range_runs_and_shows_only_finite_numbers(page, kind, query):
    at = _upload(page, query, _with_cell(kind, VALUE_MAX), kind)
    shown = _shown(at)
    assert not at.error, shown
    assert not _NONFINITE.search(shown), _NONFINITE.search(shown)


def test_widrow_hoff_without_rescaling_says_it_diverges_in_words():
    at = _upload("pages/widrow_hoff.py", {}, _with_cell("regression", VALUE_MAX), "regression")
    at.toggle(key="rescale").set_value(False).run()
    assert not at.exception
    msgs = [e.value for e in at.error]
    assert msgs and "Widrow-Hoff diverges" in msgs[0] and "Rescale x into the unit ball" in msgs[0], msgs
    assert not _INTERNAL.search(msgs[0]) and not _NONFINITE.search(msgs[0]), msgs
