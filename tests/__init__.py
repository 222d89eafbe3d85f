"""The test suite (a package: one conftest module, shared helpers in tests/helpers.py)."""
