"""The registry reads each lesson's content through one typed object, ``CONTENT`` (olapp/content/)."""

from __future__ import annotations

import dataclasses
import importlib
import types

import pytest

from olapp import registry
from olapp.content import Content
from olapp.controls import Preset
from olapp.lecture import Scene


@pytest.mark.parametrize("entry", registry.lessons(), ids=lambda e: e.slug)
def test_every_content_module_has_a_content_matching_its_constants(entry):
    module = entry.content
    c = module.CONTENT
    assert type(c) is Content
    assert {f.name for f in dataclasses.fields(Content)} == {"presets", "lecture", "lecture_run", "help"}
    assert c.presets == tuple(module.PRESETS) and all(isinstance(p, Preset) for p in c.presets)
    assert c.lecture == tuple(module.LECTURE) and all(isinstance(s, Scene) for s in c.lecture)
    assert c.lecture_run == getattr(module, "LECTURE_RUN", "analyse")
    assert callable(getattr(importlib.import_module(f"olcore.lessons.{entry.slug}"), c.lecture_run))
    assert isinstance(module.HELP, types.SimpleNamespace)
    assert dict(c.help) == vars(module.HELP) and all(isinstance(v, str) for v in c.help.values())
    with pytest.raises(TypeError):
        c.help["T"] = "read only"                  # type: ignore[index]
    assert entry.presets == list(c.presets) and entry.lecture == list(c.lecture) and entry.lecture_run == c.lecture_run


def test_a_content_module_without_content_fails_loudly(monkeypatch):
    """No silent defaults: the registry raises when a content module lacks ``CONTENT``."""
    from olapp.content import winnow as content

    monkeypatch.delattr(content, "CONTENT")
    entry = registry.lesson("winnow")
    for name in ("presets", "lecture", "lecture_run"):
        with pytest.raises(AttributeError, match="CONTENT"):
            getattr(entry, name)


def test_help_is_one_type_everywhere():
    """``HELP`` is a ``SimpleNamespace`` in every content module (pages read ``text.HELP.T``)."""
    assert {type(e.content.HELP) for e in registry.lessons()} == {types.SimpleNamespace}
