"""Prediction with expert advice: Halving, Weighted Majority, Randomized WM, Weighted Average, Hedge.

One algorithm per module; each has the whole-stream function of the public contract (the
fast path) and a small class with ``predict``/``update`` mirroring the notes line by line.
"""

__all__: list[str] = []
