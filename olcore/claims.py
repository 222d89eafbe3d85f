r"""Sentences about a run that carry their own check.

A text a student reads may state a fact about the run beside it: an inequality ("R_T ≤ D G √T"), a
count ("8 of 60 points would update"), a monotonicity ("a larger γ gives a smaller bound") or a
"never"/"always".  Such a sentence can be true at one setting and false at another, so it is
written as a :func:`claim`: the words, chosen from the run's numbers, and the condition under which
they are true, computed from the same numbers::

    smallest = float(slack.min())
    words = ("never negative" if smallest >= 0 else
             claim(f"negative only by rounding ({smallest:.1e})", smallest > -1e-9, "slack ≥ −1e-9"))

The result is a :class:`Text`, a ``str`` that remembers its claims; :func:`text` and :func:`join`
build longer texts and keep them (an f-string does not: pass the parts to :func:`text` instead).
Nothing is checked when the app runs: ``tests/test_claims.py`` renders every lesson at its
defaults, at every preset and at every lecture scene, collects the claims of every text shown, and
fails on any that does not hold.  A new lesson is checked the same way as soon as it is registered.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Claim", "Text", "claim", "text", "join", "claims_of"]


@dataclass(frozen=True)
class Claim:
    """What a sentence states (``what``, in short) and whether this run's numbers bear it out."""

    what: str
    holds: bool
    words: str


class Text(str):
    """A ``str`` with the :class:`Claim` s of the sentences it holds (``claims``)."""

    __slots__ = ("claims",)

    def __new__(cls, value: str = "", claims: tuple[Claim, ...] = ()):
        obj = super().__new__(cls, value)
        obj.claims = tuple(claims)
        return obj

    def __add__(self, other):
        return text(self, other)

    def __radd__(self, other):
        return text(other, self)

    def __reduce__(self):                    # (pickled by value, claims included)
        return (Text, (str(self), self.claims))


def claims_of(value) -> tuple[Claim, ...]:
    """The claims a value carries (none for a plain string or anything else)."""
    return getattr(value, "claims", ()) if isinstance(value, str) else ()


def claim(words: str, holds, what: str = "") -> Text:
    """``words`` as a :class:`Text` claiming ``what`` (default: the words), true iff ``holds``."""
    return Text(words, (Claim(what or str(words), bool(holds), str(words)),) + claims_of(words))


def text(*parts) -> Text:
    """The parts (strings, :class:`Text` s, anything ``str`` takes) one after another, their claims kept."""
    found: tuple[Claim, ...] = ()
    for p in parts:
        found += claims_of(p)
    return Text("".join(str(p) for p in parts), found)


def join(sep: str, parts) -> Text:
    """``sep.join(parts)``, the parts' claims kept."""
    parts = list(parts)
    found: tuple[Claim, ...] = ()
    for p in parts:
        found += claims_of(p)
    return Text(str(sep).join(str(p) for p in parts), found)
