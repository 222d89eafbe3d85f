"""olcore: online learning algorithms, streams and bounds (numpy and numba; no streamlit, no plotly).

>>> from olcore import experts, linear, bounds, streams
>>> s = streams.separable(T=500, d=2, gamma=0.1, seed=0)
>>> trace = linear.perceptron(s.X, s.y)                       # doctest: +SKIP
>>> trace.n_mistakes <= bounds.perceptron(R=1.0, gamma=0.1)   # doctest: +SKIP
True
"""

from . import jit  # noqa: F401  (first: settles NUMBA_CACHE_DIR before numba is imported)
from .errors import StreamError
from .trace import Trace
from .jit import warm, warm_in_background
from . import bounds, experts, linear, oco, stream, streams  # noqa: E402,F401  (public submodules)
from . import online_to_batch  # noqa: E402,F401  (registers its compiled kernel before any warm-up)
from .bounds import BoundReport  # noqa: E402

__all__ = ["StreamError", "Trace", "BoundReport", "bounds", "experts", "linear", "oco", "streams", "warm",
           "warm_in_background"]
__version__ = "0.1.0"
