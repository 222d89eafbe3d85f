"""Figure and text functions annotate the analysis they take (one name per idea).

Every public function of ``olapp.figures`` and ``olapp.content`` (the figures and the lessons' words)
annotates its first parameter, and a parameter under one of the names the lessons give an analysis
result (``a``, ``tu``, ``sw``, ...) is annotated, public function or private, with the result class
of ``olcore.lessons`` it receives.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
import typing

import pytest

import olapp.figures
import olapp.content

#: The names the figure and text functions give the olcore.lessons result they take: always annotated
#: with that result class.
ANALYSIS_NAMES = {"a", "sw", "ta", "tu", "we", "sh", "run", "cmp", "res"}
#: One-letter names the lessons also give a result (``c: Comparison``, ``g: Regularised``, ...) but elsewhere
#: a number (``d: int``, the dimension): always annotated, with whatever they are.
SHORT_NAMES = {"b", "c", "d", "e", "f", "g", "h", "i", "r", "s"}


def _modules() -> list[types.ModuleType]:
    out = []
    for pkg in (olapp.figures, olapp.content):
        out.append(pkg)
        out += [importlib.import_module(f"{pkg.__name__}.{m.name}") for m in pkgutil.iter_modules(pkg.__path__)]
    return out


MODULES = _modules()


def _functions(module: types.ModuleType):
    """(name, function) for each function defined in ``module`` itself (decorators unwrapped)."""
    for name, obj in vars(module).items():
        fn = inspect.unwrap(obj) if callable(obj) else None
        if isinstance(fn, types.FunctionType) and fn.__module__ == module.__name__:
            yield name, fn


def _params(fn) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(fn, follow_wrapped=True).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def test_the_modules_are_found():
    names = {m.__name__ for m in MODULES}
    assert {"olapp.figures.perceptron", "olapp.content.perceptron", "olapp.figures.wm_vs_hedge",
            "olapp.content.widrow_hoff"} <= names
    assert len(MODULES) >= 2 + 2 * 9


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_public_function_annotates_its_first_parameter(module):
    bare = []
    for name, fn in _functions(module):
        if name.startswith("_"):
            continue
        params = [p for p in _params(fn) if p.name not in ("self", "cls")]
        if params and params[0].annotation is inspect.Parameter.empty:
            bare.append(f"{name}({params[0].name})")
    assert not bare, f"{module.__name__}: unannotated first parameter: {bare}"


def _classes(hint) -> list:
    """The classes an annotation names, ``None`` dropped (``X | None`` names ``X``)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return [h for h in typing.get_args(hint) if h is not type(None)]
    return [hint]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_an_analysis_parameter_is_annotated_with_its_olcore_result_class(module):
    wrong = []
    for name, fn in _functions(module):
        hints = typing.get_type_hints(fn)              # every annotation resolves (the classes are imported)
        for p in _params(fn):
            if p.name not in ANALYSIS_NAMES | SHORT_NAMES:
                continue
            if p.name not in hints:
                wrong.append(f"{name}({p.name}): unannotated")
                continue
            if p.name in SHORT_NAMES:
                continue
            for cls in _classes(hints[p.name]):
                if not (inspect.isclass(cls) and cls.__module__.startswith("olcore.lessons.")):
                    wrong.append(f"{name}({p.name}: {hints[p.name]!r}): not an olcore.lessons result")
    assert not wrong, f"{module.__name__}: {wrong}"


def test_the_check_would_catch_a_bare_analysis_parameter():
    module = types.ModuleType("olapp.figures.example")
    exec("def data_space(a, t: int):\n    return a\n", module.__dict__)
    with pytest.raises(AssertionError, match=r"data_space\(a\)"):
        test_every_public_function_annotates_its_first_parameter(module)
    with pytest.raises(AssertionError, match="unannotated"):
        test_an_analysis_parameter_is_annotated_with_its_olcore_result_class(module)
