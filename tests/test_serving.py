"""olapp.serving: the server process collects garbage less often (app.py raises the threshold when the
server imports it)."""

from __future__ import annotations

import app  # noqa: F401  (raises the threshold, as the server's import of app.py does)
from olapp import serving


def test_the_server_collects_garbage_less_often():
    import gc

    assert gc.get_threshold()[0] >= serving.GC_THRESHOLD
    t0, t1, t2 = gc.get_threshold()
    try:
        gc.set_threshold(700, 11, 12)
        serving.collect_less()
        assert gc.get_threshold() == (serving.GC_THRESHOLD, 11, 12)      # the older generations' kept
        gc.set_threshold(0, 11, 12)
        serving.collect_less()
        assert gc.get_threshold()[0] == 0                                  # disabled stays disabled
    finally:
        gc.set_threshold(t0, t1, t2)
