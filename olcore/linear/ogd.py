r"""Online gradient descent on the hinge loss (OGD), the online soft-margin SVM step.

Notes
-----
Start from :math:`\mathbf{w}_1 = 0`; in round :math:`t` predict the score
:math:`\hat y_t = \mathbf{w}_t \cdot \mathbf{x}_t`, incur the hinge loss
:math:`L_{hi}(y_t, \hat y_t) = \max(0, 1 - y_t \hat y_t)` and take a subgradient step:

.. math::

    \mathbf{w}_{t+1} = \mathbf{w}_t + \mathbf{1}_{\{y_t \hat y_t < 1\}}\, \eta\, y_t \mathbf{x}_t .

At exactly :math:`y_t \hat y_t = 1` the notes allow either choice; here there is no
update (the same computed score decides the loss and the update).

**Bound.** With :math:`R = \max_t \|\mathbf{x}_t\|` and :math:`\eta = U/(R\sqrt m)`, for
every :math:`\mathbf{u}` with :math:`\|\mathbf{u}\| \le U`,

.. math::

    \sum_{t=1}^m L_{hi}(y_t, \hat y_t) - L_{hi}(y_t, \mathbf{u}\cdot\mathbf{x}_t)
    \le \sqrt{U^2 R^2 m};

for any :math:`\eta` the proof gives :math:`U^2/(2\eta) + \eta m R^2 / 2`.
Mistakes are counted as :math:`y_t \hat y_t \le 0`.

**Conservative OGD** (``conservative=True``): update only on a mistake,
:math:`y_t \hat y_t \le 0`.  Then :math:`\mathbf w_t = \eta\,\mathbf w_t^{\text{Perceptron}}`
(computed as :math:`\eta` times the sum of :math:`y_s\mathbf x_s`, so that floating point keeps the
sign of every score; see :func:`olcore.linear.passive_aggressive.hinge_rounds`):
every :math:`\eta > 0` makes the same predictions, hence the same mistakes, and the hyperplanes
differ only in scale; with :math:`\eta = 1` it is the Perceptron.  The notes derive the
Perceptron's bound :math:`M \le U^2R^2` this way (only mistake rounds count, so :math:`m = M`).

References
----------
UCL COMP0078, Online learning ("OGD with Hinge Loss", "Regret Bound for OGD",
based on Zinkevich 2003).  This is unconstrained OGD on the hinge loss only; the
general online convex optimisation setting of Castiglioni, Online learning applications, part 5 is not
implemented here.
"""

from __future__ import annotations

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..trace import Trace
from ..validate import check_param
from ..jit import kernel
from .passive_aggressive import CONSERVATIVE, OGD, hinge_trace

__all__ = ["ogd_hinge", "OGDHinge"]


def ogd_hinge(X, y, eta: float = 0.1, epochs: int = 1, record: str = "every",
              conservative: bool = False) -> Trace:
    r"""Run OGD with hinge loss over a stream (the fast path).

    One plain loop over the rounds, compiled with numba (shared with Passive-Aggressive:
    :func:`olcore.linear.passive_aggressive.hinge_rounds`).  OGD updates only when
    :math:`y_t\,\mathbf{w}_t\cdot\mathbf{x}_t < 1`, so weights are stored only when they change.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    eta : float, default=0.1
        Learning rate :math:`\eta > 0`; the theorem's choice is :math:`U/(R\sqrt m)`
        (:func:`olcore.bounds.ogd_hinge_eta`).
    epochs : int, default=1
    record : {"every", "final"}, default="every"
        Which weights the trace keeps: every round's, or only the first and the final
        (``trace.recorded_rounds = [0, T]``; the extras are the same).
    conservative : bool, default=False
        Update only when :math:`y_t\,\mathbf w_t\cdot\mathbf x_t \le 0` (a mistake), the notes'
        step 3 of "Deriving the perceptron algorithm/bound from OGD".

    Returns
    -------
    Trace
        ``losses`` the hinge losses :math:`[1 - y_t\,\mathbf{w}_t\cdot\mathbf{x}_t]_+`,
        ``mistakes`` :math:`y_t\,\mathbf{w}_t\cdot\mathbf{x}_t \le 0`, ``predictions``
        :math:`\operatorname{sign}(\mathbf{w}_t\cdot\mathbf{x}_t)`, weights (T+1, d);
        ``extras`` ``"score"``, ``"updated"``, ``"M"``, ``"norm_sq"``.

    References
    ----------
    UCL COMP0078, Online learning, "Regret Bound for OGD".
    """
    eta = check_param(eta, "eta", 0, None, lo_open=True)
    conservative = _check_conservative(conservative)
    return hinge_trace(X, y, CONSERVATIVE if conservative else OGD, float(eta), epochs, record)


def _check_conservative(conservative) -> bool:
    if not isinstance(conservative, (bool, np.bool_)):
        raise StreamError.bad("conservative", repr(conservative), "True or False")
    return bool(conservative)


@kernel("ogd_hinge")
def _warm():
    for conservative in (False, True):
        ogd_hinge(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 1.0]), epochs=2, conservative=conservative)


class OGDHinge:
    r"""OGD with hinge loss, line by line as the "OGD Algorithm" of UCL COMP0078, Online learning.

    The notes' prediction is the score :math:`\hat y_t := \mathbf w_t\cdot\mathbf x_t` (:meth:`score`),
    on which the hinge loss is charged; :meth:`predict` classifies by its sign.

    Parameters
    ----------
    d : int
    eta : float, default=0.1
    conservative : bool, default=False
        Update only on a mistake, :math:`y_t\hat y_t \le 0` (the Perceptron scaled by :math:`\eta`).

    >>> c = OGDHinge(2, eta=100.0, conservative=True)
    >>> c.update([1.0, 0.0], 1)            # score 0: a mistake, w <- w + eta y x
    1.0
    >>> c.update([0.5, 0.0], 1)            # margin 50 > 0: no update (plain OGD also skips: 50 >= 1)
    0.0
    >>> c.w.tolist(), c.predict([0.5, 0.0]), c.last_score
    ([100.0, 0.0], 1, 50.0)
    """

    def __init__(self, d: int, eta: float = 0.1, conservative: bool = False) -> None:
        self.eta = check_param(eta, "eta", 0, None, lo_open=True)  # Select eta in (0, inf)
        self.conservative = _check_conservative(conservative)
        self._w = np.zeros(d)   # Initialise w_1 := 0 (conservative: v_1 := 0 and w = eta v)
        self.loss = 0.0         # L_OGD := 0
        self.last_score: float | None = None   # the last round's score w_t . x_t

    @property
    def w(self) -> np.ndarray:
        r""":math:`\mathbf w_t` (conservative: :math:`\eta\mathbf v_t`, :math:`\mathbf v_t` the sum of :math:`y_s\mathbf x_s` over updates)."""
        return self.eta * self._w if self.conservative else self._w

    def score(self, x) -> float:
        r"""The notes' :math:`\hat y_t := \mathbf{w}_t \cdot \mathbf{x}_t`, summed in the compiled loop's order.

        Conservative: :math:`\eta(\mathbf v_t\cdot\mathbf x_t)`, so the sign is exactly the Perceptron's."""
        s = sums.dot(self._w, x)
        return self.eta * s if self.conservative else s

    def predict(self, x) -> int:
        r"""Classify by :math:`\operatorname{sign}(\mathbf{w}_t \cdot \mathbf{x}_t)` (0 on a score of exactly 0, a mistake)."""
        return int(np.sign(self.score(x)))

    def update(self, x, y) -> float:
        """Incur the hinge loss, then :math:`w \\leftarrow w + 1\\{y\\hat y < 1\\}\\,\\eta y x`; returns the loss."""
        x = np.asarray(x, dtype=float)
        y = float(y)
        if y not in (-1.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {-1, +1}")
        yhat = self.score(x)
        self.last_score = yhat
        loss = max(0.0, 1.0 - y * yhat)
        self.loss += loss
        if self.conservative:
            if y * yhat <= 0:                                          # only on a mistake: v <- v + y x
                self._w = self._w + y * x
        elif y * yhat < 1:
            self._w = self._w + self.eta * y * x
        return loss
