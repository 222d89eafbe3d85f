"""Prediction with expert advice: Halving, Weighted Majority, Randomized WM, Weighted Average, Hedge.

One algorithm per module; each has the whole-stream function of the public contract (the
fast path) and a small class with ``predict``/``update`` mirroring the notes line by line.
"""

from .halving import Halving, halving
from .weighted_majority import (RandomizedWeightedMajority, WeightedMajority,
                                randomized_weighted_majority, weighted_majority)
from .weighted_average import WeightedAverage, weighted_average
from .hedge import Hedge, hedge

__all__: list[str] = [
    "halving", "Halving",
    "weighted_majority", "WeightedMajority",
    "randomized_weighted_majority", "RandomizedWeightedMajority",
    "weighted_average", "WeightedAverage",
    "hedge", "Hedge",
]
