r"""Online-to-batch conversions: averaging for regression, ensembles with risk bounds for classification.

- :mod:`olcore.online_to_batch.regression`: Widrow-Hoff's averaged iterate and Theorem 2
  (COS 511 lecture 18): ``QuadraticRisk``, ``averaged``, ``running_average``, ``learning_curve``, ...
- :mod:`olcore.online_to_batch.classification`: the ensemble :math:`H_0..H_n` of an incremental
  classifier, Bernstein bounds on its average risk and on a penalised choice
  (Cesa-Bianchi, On-line learning): ``ensemble``, ``risk_bounds``, ``choose_penalised``.
"""

from .regression import (QuadraticRisk, averaged, bootstrap_sampler, learning_curve, regression_sampler,
                         running_average)
from .classification import (LEARNERS, Choice, EmpiricalDistribution, Ensemble, GaussianClasses,
                             GaussianHalfspace, Learner, RiskBounds, choose_penalised, ensemble,
                             holdout_errors, register_learner, risk_bounds, sample_risk)

__all__ = [
    "QuadraticRisk", "averaged", "running_average", "regression_sampler", "bootstrap_sampler",
    "learning_curve",
    "ensemble", "risk_bounds", "choose_penalised", "Ensemble", "Choice", "RiskBounds", "Learner", "LEARNERS",
    "register_learner", "holdout_errors", "sample_risk", "GaussianHalfspace", "GaussianClasses",
    "EmpiricalDistribution",
]
