"""``olcore.report.BoundReport``: the report type lives in :mod:`olcore.bounds.report`; this name stays."""

from .bounds.report import BoundReport

__all__ = ["BoundReport"]
