r"""Each theorem's bound as a plain function of the stream's constants.

Every function checks its assumptions (raising :class:`olcore.StreamError`) and its
docstring states the theorem, its assumptions and where the notes prove it.  Sections
below follow the families: experts, linear classification, regression.
"""

from __future__ import annotations

import math

from .errors import StreamError
from .validate import check_int, check_param

__all__: list[str] = []

# ---- experts ----------------------------------------------------------------------------

# ---- linear classification ---------------------------------------------------------------

# ---- regression ---------------------------------------------------------------------------
