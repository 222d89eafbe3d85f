"""Each lesson's content as data: presets (and later lecture scenes), help texts and captions.

One module per lesson (``olapp.lessons.<slug>``), read through :mod:`olapp.registry`.
"""
