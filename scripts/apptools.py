"""Small tools shared by the tests and the benchmarks that drive app.py under AppTest."""

from __future__ import annotations

import logging
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app.py"


def registered_pages() -> list[str]:
    """Page names served by app.py, in navigation order (``pages/<name>.py``), from the lesson registry."""
    from olapp import registry

    return [entry.slug for entries in registry.sections().values() for entry in entries]


class LastError(logging.Handler):
    """Keeps the last logged exception: the app's config redacts messages on the page, the log does not."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.last = ""

    def emit(self, record):
        if record.exc_info and record.exc_info[1] is not None:
            e = record.exc_info[1]
            self.last = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
