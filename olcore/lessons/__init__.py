"""One pure analysis per lesson: ``analyse(stream, settings...) -> frozen result``.

Each module takes a validated stream and the lesson's settings as arguments (never page
globals), runs the learners, measures the stream, searches the comparator, builds every
theorem's :class:`olcore.report.BoundReport`, the experiments and the proof quantities, and
returns them in one frozen dataclass.  Pages only draw what an analysis returns.
"""
