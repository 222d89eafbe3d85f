"""Online linear prediction: Perceptron, Winnow, Widrow-Hoff, OGD with hinge loss, Passive-Aggressive.

One algorithm per module; each has the whole-stream function of the public contract (the
fast path) and a small class with ``predict``/``update`` mirroring the notes line by line
(the learner protocol of :mod:`olcore.protocol`: ``predict(x)`` returns the prediction,
``update(x, y)`` what the round cost).
"""

__all__: list[str] = []

# Linear classification: Perceptron, Winnow, OGD with hinge loss, Passive-Aggressive
from .perceptron import Perceptron, perceptron  # noqa: E402
from .winnow import Winnow, winnow  # noqa: E402
from .ogd import OGDHinge, ogd_hinge  # noqa: E402
from .passive_aggressive import PassiveAggressive, passive_aggressive  # noqa: E402

__all__ += ["perceptron", "Perceptron", "winnow", "Winnow", "ogd_hinge", "OGDHinge",
            "passive_aggressive", "PassiveAggressive"]

# Widrow-Hoff and exponentiated gradient (regression)
from .widrow_hoff import WidrowHoff, widrow_hoff, widrow_hoff_many  # noqa: E402
from .eg import ExponentiatedGradient, exponentiated_gradient  # noqa: E402

__all__ += ["widrow_hoff", "WidrowHoff", "widrow_hoff_many", "exponentiated_gradient", "ExponentiatedGradient"]

# Kernels and budgets: the kernel Perceptron, the Randomized Budget Perceptron
from .kernel_perceptron import KernelPerceptron, kernel_perceptron, rkhs_margin, supports_at  # noqa: E402

__all__ += ["kernel_perceptron", "KernelPerceptron", "rkhs_margin", "supports_at"]
# Online SVM and fewer labels: ALMA_2, the second-order Perceptron, selective sampling
from .second_order import SecondOrderPerceptron, second_order_perceptron  # noqa: E402
from .alma import ALMA, alma  # noqa: E402
from .selective_sampling import SelectiveSampler, selective_sampling  # noqa: E402

__all__ += ["second_order_perceptron", "SecondOrderPerceptron", "alma", "ALMA", "selective_sampling",
            "SelectiveSampler"]
# The elimination algorithm for conjunctions
from .conjunction import ConjunctionElimination, conjunction_elimination  # noqa: E402

__all__ += ["conjunction_elimination", "ConjunctionElimination"]
