"""The one exception olcore raises for bad input."""

from __future__ import annotations

import re

#: What a student reads for a field a program names, in :meth:`StreamError.shown`: the stream's parts and the
#: settings the pages offer (with the symbol the page's widget shows).
FIELD_WORDS = {
    "X": "the stream's features", "y": "the stream's labels", "L": "the loss matrix", "stream": "this stream",
    "file": "the file", "kind": "the stream kind", "rounds": "the number of rounds", "columns": "the number of columns",
    "size": "the stream's size", "T": "the number of rounds T", "d": "the dimension d", "n": "the number of experts n",
    "N": "the number of attributes N", "k": "k", "m": "the sample size m", "seed": "the seed",
    "eta": "the learning rate η", "etas": "the learning rates η", "alpha": "α", "beta": "β", "gamma": "γ",
    "delta": "δ", "C": "C", "B": "the budget B", "a": "a", "c": "c", "lam": "the penalty λ", "epochs": "the epochs",
    "noise": "the noise", "degree": "the degree p", "coef0": "c₀", "radius": "the radius r", "theta": "θ",
    "R": "the stream's radius R (its largest ‖x‖)", "u": "the comparator u", "v": "the separating direction v",
    "loss": "the loss", "domain": "the convex set C", "set": "the convex set C", "kernel": "the kernel K",
    "best_fixed": "the best fixed point θ*", "source": "the stream source", "learner": "the learner",
}

_FIELD = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*): ")


class StreamError(ValueError):
    r"""Bad input to olcore: a stream, a parameter or an uploaded file.

    The message says what was wrong (where, and what was found) and what is expected, so a page can
    show it verbatim in ``st.error``.  Build one with :meth:`StreamError.bad` to keep that shape
    everywhere.  A message a student may read names things in words (``"line 4, column 2"``, ``"the
    learning rate η"``), never an internal field name: give ``label`` to :meth:`bad` for those words
    and keep the programmatic name in :attr:`field`.

    Attributes
    ----------
    field : str or None
        The name of the offending field (``"X"``, ``"eta"``, ``"row 7"``...), if known, for programs
        (tests, callers choosing what to do); not necessarily in the message.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    def shown(self) -> str:
        """The message as a page shows it: one that starts with a program's field name (``"eta: found 0; ..."``,
        from a check written for callers of the library) starts with that field in words instead
        (:data:`FIELD_WORDS`, or "a value the lesson uses"); any other message is already in words.

        >>> StreamError.bad("eta", "0", "a number in (0, 1)").shown()
        'The learning rate η: found 0; expected a number in (0, 1).'
        >>> StreamError.bad("line 4, column 2", "'abc'", "a number").shown()
        "line 4, column 2: found 'abc'; expected a number."
        """
        msg = str(self)
        m = _FIELD.match(msg)
        if m is None:
            return msg
        words = FIELD_WORDS.get(m.group(1), "a value the lesson uses")
        return words[0].upper() + words[1:] + ": " + msg[m.end():]

    @classmethod
    def bad(cls, field: str, found: str, expected: str, *, label: str | None = None) -> "StreamError":
        """``StreamError("<label or field>: found <found>; expected <expected>.")``, with ``field`` as
        :attr:`field`; ``label`` is what the message calls it (e.g. a file's ``"line 4, column 2"``)."""
        return cls(f"{label or field}: found {found}; expected {expected}.", field=field)
