"""Each lesson's content as data: presets (and later lecture scenes), help texts and captions.

One module per lesson (``olapp.lessons.<slug>``), read through :mod:`olapp.registry`.
"""


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 mistake"``, ``"3 mistakes"``: a whole number with its noun in the right number."""
    n = int(n)
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"
