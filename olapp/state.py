"""Settings that live in the URL.

Widgets are bound to query parameters with ``bind="query-params"`` (Streamlit drops values
it cannot use).  This module holds the few URL flags that are not widgets.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["flag", "presenter_mode"]

_TRUE = {"1", "true", "yes", "on"}


def flag(name: str) -> bool:
    """True when the URL has ``?name=1`` (or true/yes/on); anything else is False."""
    value = st.query_params.get(name)
    return value is not None and str(value).strip().lower() in _TRUE


def presenter_mode() -> bool:
    """``?present=1``: hide the controls and enlarge fonts for a projector."""
    return flag("present")
