r"""Each theorem's bound as a function of the stream's constants, and :class:`BoundReport`.

One function per theorem, grouped by family:

- :mod:`olcore.bounds.experts`: Halving, Weighted Majority, Randomized WM, Weighted Average, Hedge;
- :mod:`olcore.bounds.linear`: Perceptron (separable, non-separable, on disjunctions), Winnow,
  OGD on the hinge loss, Passive-Aggressive;
- :mod:`olcore.bounds.regression`: Widrow-Hoff (Theorem 1), online-to-batch (Theorem 2);
- :mod:`olcore.bounds.oco`: projected online gradient descent (:math:`DG\sqrt T`), OGD on the simplex;
- :mod:`olcore.bounds.risk`: online-to-batch for classifiers (Bernstein: the ensemble's average risk,
  a held-out test, the penalised choice).

Every bound **broadcasts**: a scalar in gives a float out; an array of prefix values in
(e.g. :math:`\min_i M_i(t)` for :math:`t = 1..T`) gives the curve over rounds out.  Every
argument is validated entry by entry, raising :class:`olcore.StreamError` naming the field,
the bad value and what is expected.  Each docstring states the theorem, its assumptions and
where the notes prove it.

For backward compatibility this package also re-exports the stream measurements of
:mod:`olcore.measure` (``radius``, ``margin``, ``hinge_loss``, ...) and the comparator searches
of :mod:`olcore.comparators` (``best_u_nonseparable``, ``widrow_hoff_optimal_eta``, ...), which
are not bounds.
"""

from __future__ import annotations

from ..errors import StreamError  # noqa: F401  (olcore.bounds.StreamError: the name older code imports)
from .experts import (WEIGHTED_AVERAGE_ETA_MAX, halving, hedge, hedge_eta, hedge_regret,
                      randomized_weighted_majority, randomized_weighted_majority_regret, weighted_average,
                      weighted_majority, weighted_majority_constants, weighted_majority_regret,
                      weighted_majority_cmu, weighted_majority_cmu_regret, weighted_majority_two_regret,
                      weighted_majority_two_regret_beta, weighted_majority_two_regret_tuned,
                      randomized_weighted_majority_eta)
from .linear import (budget_forced_mistakes, SVM_TOL, conjunction_elimination, svm_opt, ogd_hinge, ogd_hinge_eta, ogd_hinge_loss_bound, ogd_hinge_regret,
                     passive_aggressive_pa1, passive_aggressive_pa2, passive_aggressive_separable,
                     perceptron, perceptron_disjunction, perceptron_nonseparable, winnow, winnow_general)
from .oco import ogd_eta, ogd_proof_bound, ogd_regret, ogd_regret_eta, simplex_ogd_regret
from .risk import (average_risk, average_risk_level, bernstein_deviation, chosen_risk, holdout_risk,
                   holdout_risk_lower, peeling_cells, penalty_level)
from .regression import online_to_batch, widrow_hoff, widrow_hoff_best_eta, widrow_hoff_tuned
from .report import BoundReport
from .margin import (SVMDirection, alma_margin, alma_updates, mistake_table, second_order_perceptron,
                     svm_direction)
from ..measure import UnitBallReport, check_unit_ball, hinge_loss, margin, radius, squared_hinge_loss
from ..comparators import (Separability, WidrowHoffBound, best_u_nonseparable, consistent_disjunction,
                           max_margin_direction, separability, widrow_hoff_clairvoyant, widrow_hoff_comparator,
                           widrow_hoff_min, widrow_hoff_optimal_eta, widrow_hoff_prefix_min, widrow_hoff_spectrum,
                           widrow_hoff_theorem)

__all__ = [
    # experts
    "halving", "weighted_majority", "weighted_majority_constants", "weighted_majority_regret",
    "randomized_weighted_majority", "randomized_weighted_majority_regret", "weighted_average",
    "WEIGHTED_AVERAGE_ETA_MAX", "hedge", "hedge_eta", "hedge_regret", "weighted_majority_cmu",
    "weighted_majority_cmu_regret", "weighted_majority_two_regret", "weighted_majority_two_regret_beta",
    "weighted_majority_two_regret_tuned", "randomized_weighted_majority_eta",
    # linear classification
    "perceptron", "perceptron_nonseparable", "perceptron_disjunction", "winnow", "winnow_general",
    "ogd_hinge", "ogd_hinge_eta", "ogd_hinge_regret", "ogd_hinge_loss_bound",
    "passive_aggressive_separable", "passive_aggressive_pa1", "passive_aggressive_pa2",
    "budget_forced_mistakes",
    "conjunction_elimination", "svm_opt", "SVM_TOL",
    # regression
    "widrow_hoff", "widrow_hoff_best_eta", "widrow_hoff_tuned", "online_to_batch",
    # online-to-batch for classifiers
    "average_risk", "average_risk_level", "chosen_risk", "holdout_risk", "holdout_risk_lower",
    "bernstein_deviation", "peeling_cells", "penalty_level",
    # online convex optimisation
    "ogd_regret", "ogd_eta", "ogd_regret_eta", "ogd_proof_bound", "simplex_ogd_regret",
    # margins: the SVM direction, ALMA, the second-order Perceptron
    "SVMDirection", "svm_direction", "alma_updates", "alma_margin", "second_order_perceptron", "mistake_table",
    # the report type
    "BoundReport",
    # re-exported measurements (olcore.measure)
    "radius", "margin", "hinge_loss", "squared_hinge_loss", "check_unit_ball", "UnitBallReport",
    # re-exported comparator searches (olcore.comparators)
    "best_u_nonseparable", "max_margin_direction", "consistent_disjunction",
    "widrow_hoff_clairvoyant", "widrow_hoff_comparator", "widrow_hoff_min", "widrow_hoff_optimal_eta",
    "widrow_hoff_theorem", "WidrowHoffBound", "widrow_hoff_prefix_min", "widrow_hoff_spectrum",
    "separability", "Separability",
]
