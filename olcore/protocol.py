r"""The learner protocol: one round of online learning, as every reference class plays it.

Notes
-----
The notes' protocol of online learning, for :math:`t = 1, 2, \dots, T`:

1. the learner receives the round's input :math:`x_t`;
2. it predicts :math:`\hat y_t`: ``prediction = learner.predict(x)``;
3. nature reveals the outcome :math:`y_t`;
4. the learner suffers the round's loss and updates: ``loss = learner.update(x, y)``.

Every reference class of :mod:`olcore.linear`, :mod:`olcore.experts` and :mod:`olcore.oco` (the
small class beside each whole-stream function that mirrors the notes' pseudo-code one round at a
time) plays a round this way and nothing else: a step-by-step view, an adversary or a test drives
any of them with the same two calls, in that order.

``predict(x)``
    The prediction :math:`\hat y_t` for the round whose input is ``x``, without learning from it:
    the value the learner's whole-stream function records in ``Trace.predictions`` for that round.

    * classifiers: a label, :math:`\operatorname{sign}(\text{score}) \in \{-1, 0, +1\}` for labels
      :math:`\pm 1` (0 on a score of exactly 0, which counts as a mistake) or :math:`\{0, 1\}`
      (Halving, Weighted Majority, Winnow, the elimination algorithm);
    * regression (Widrow-Hoff, EG, Weighted Average): a real number;
    * online convex optimisation (:class:`olcore.oco.ProjectedOGD`): the score
      :math:`\theta_t \cdot x_t` of the decision :math:`\theta_t`;
    * learners that play an allocation :math:`v_t` over the experts (Hedge, OGD on the simplex):
      the expert :math:`\hat y_t \sim v_t` drawn (HA-2); the allocation itself is ``weights``.

``update(x, y)``
    The same ``x`` and the outcome ``y``; suffers the round's loss, updates, and returns what the
    round cost as a ``float``: the value the whole-stream function records in ``Trace.losses``.
    A 0/1 mistake (``0.0`` or ``1.0``) for the mistake-driven classifiers, the hinge loss for OGD and
    PA, the squared error for Widrow-Hoff and EG, :math:`L(y_t, \hat y_t)` for Weighted Average,
    :math:`\ell_t(\theta_t)` for projected OGD, the expected loss :math:`v_t \cdot \ell_t` for Hedge
    and OGD on the simplex.

What ``x`` and ``y`` are
    ``x`` is what the learner sees before it predicts: an instance :math:`\mathbf x_t` (linear
    learners, OCO) or the experts' advice :math:`x_t \in [0, 1]^n` (Halving, WM, RWM, Weighted
    Average); ``y`` is what nature reveals after: a label, a target, or, for Hedge and OGD on the
    simplex, the loss vector :math:`\ell_t \in [0, 1]^n`.  Those two settings have no input: ``x`` is
    ``None`` (``predict()``, ``update(None, loss)``).

Randomness
    A randomised learner (Randomized WM, Hedge, OGD on the simplex, the budget Perceptron) takes a
    ``seed`` and draws from ``np.random.default_rng(seed)``; a learner that draws its prediction
    draws once per ``predict`` call, and the next ``update`` charges that draw.

Mistakes
    A classifier errs in a round iff :math:`\operatorname{sign}(\hat y_t) \ne y_t` (:func:`is_mistake`):
    with labels :math:`\pm 1` iff :math:`y_t \hat y_t \le 0`, with labels in :math:`\{0, 1\}` iff
    :math:`\hat y_t \ne y_t`.  This is ``Trace.mistakes``.

Everything else a view may want from a round (a score, whether the learner updated, PA-I's dual
increment, the expert drawn, whether a label was queried) is an attribute the class sets in
``predict`` or ``update`` and documents (``last_score``, ``updated``, ``dual_increment``,
``chosen``, ``sampled_loss``, ``residual``, ``queried``, ...); the current weights are ``w``
(linear learners), ``weights`` (expert learners) or ``theta`` / ``v`` (OCO).  The contract test
(``tests/test_contract.py``, its learners listed in ``tests/learners.py``) plays every reference
class through these two calls against its whole-stream function, checks the types they return,
and fails when a public learner of :mod:`olcore.linear`, :mod:`olcore.experts` or :mod:`olcore.oco`
is missing from it.

>>> from olcore.linear import Perceptron
>>> p = Perceptron(2)
>>> isinstance(p, Learner)
True
>>> p.predict([1.0, 0.0]), p.update([1.0, 0.0], 1)      # score 0: predicts 0, a mistake costs 1
(0, 1.0)
>>> is_mistake(0, 1), is_mistake(1, 1), is_mistake(0, 0)
(True, False, False)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Learner", "is_mistake"]


@runtime_checkable
class Learner(Protocol):
    r"""A reference learner: ``predict(x)`` then ``update(x, y)``, once per round (see the module notes)."""

    def predict(self, x) -> Any:
        r"""The prediction :math:`\hat y_t` for the round's input ``x`` (``None`` in settings without one)."""
        ...

    def update(self, x, y) -> float:
        r"""Suffer the round's loss on the outcome ``y``, update, and return that loss as a float."""
        ...


def is_mistake(prediction, y) -> bool:
    r"""Whether a classifier's prediction errs: :math:`\operatorname{sign}(\hat y) \ne y`.

    Labels :math:`\pm 1`: :math:`y\hat y \le 0` (a prediction of 0 always errs).  Labels
    :math:`\{0, 1\}`: :math:`\hat y \ne y`.  A score may stand for the prediction (its sign is taken).
    """
    return bool(np.sign(prediction) != y)
