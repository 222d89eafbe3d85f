"""The one exception olcore raises for bad input."""

from __future__ import annotations


class StreamError(ValueError):
    r"""Bad input to olcore: a stream, a parameter or an uploaded file.

    The message names the field, what was found and what is expected, so a page can
    show it verbatim in ``st.error``.  Build one with :meth:`StreamError.bad` to keep
    that shape everywhere.

    Attributes
    ----------
    field : str or None
        The name of the offending field (``"X"``, ``"eta"``, ``"row 7"``...), if known.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    @classmethod
    def bad(cls, field: str, found: str, expected: str) -> "StreamError":
        """``StreamError("<field>: found <found>; expected <expected>.")``."""
        return cls(f"{field}: found {found}; expected {expected}.", field=field)
