"""Each lesson's content as data: presets, lecture scenes, help texts and captions.

One module per lesson (``olapp.content.<slug>``), read through :mod:`olapp.registry`. Each ends
with ``CONTENT``, a :class:`Content` built from its constants: what the registry reads. The page
reads the module's own constants (``text.HELP.T``, ``text.INTRO``, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from olapp.controls import Preset
    from olapp.lecture import Scene

__all__ = ["Content", "count"]


@dataclass(frozen=True)
class Content:
    """A lesson's content as the registry reads it.

    Parameters
    ----------
    presets : tuple of Preset
        The presets menu, in order (the module's ``PRESETS``).
    lecture : tuple of Scene
        The lecture's scenes, in order (the module's ``LECTURE``).
    lecture_run : str
        The ``olcore.lessons.<slug>`` function whose result the lecture's questions read.
    help : mapping of str to str
        The widgets' help texts, by name (a read-only view of the module's ``HELP`` namespace).
    """

    presets: tuple[Preset, ...]
    lecture: tuple[Scene, ...]
    lecture_run: str
    help: Mapping[str, str]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 mistake"``, ``"3 mistakes"``: a whole number with its noun in the right number."""
    n = int(n)
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"
