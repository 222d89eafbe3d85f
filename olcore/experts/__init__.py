"""Prediction with expert advice: Halving, Weighted Majority, Randomized WM, Weighted Average, Hedge.

One algorithm per module; each has the whole-stream function of the public contract (the
fast path) and a small class with ``predict``/``update`` mirroring the notes line by line
(the learner protocol of :mod:`olcore.protocol`: ``predict(x)`` returns the prediction,
``update(x, y)`` what the round cost).
"""

from .halving import Halving, halving
from .weighted_majority import (RandomizedWeightedMajority, WeightedMajority,
                                randomized_weighted_majority, weighted_majority, weighted_majority_prefixes)
from .weighted_average import WeightedAverage, weighted_average
from .hedge import Hedge, hedge, hedge_many

__all__: list[str] = [
    "halving", "Halving",
    "weighted_majority", "weighted_majority_prefixes", "WeightedMajority",
    "randomized_weighted_majority", "RandomizedWeightedMajority",
    "weighted_average", "WeightedAverage",
    "hedge", "hedge_many", "Hedge",
]
