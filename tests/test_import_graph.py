"""olcore's module-level import graph has no cycle, and olcore never imports streamlit or plotly.

The graph is read from the source with ``ast`` (so imports inside functions count, as do
relative imports): an edge a -> b for every olcore module b that module a names in an
``import`` or ``from ... import`` anywhere in its body.  ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg``.  Parent packages that Python initialises
on the way are not edges (else every package ``__init__`` that imports its submodules would
be a "cycle").
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_names(pkg_dir: Path) -> dict[str, Path]:
    """Every module of the package at ``pkg_dir``: dotted name -> file."""
    base = pkg_dir.parent
    out = {}
    for path in sorted(pkg_dir.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(pkg_dir: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between the package's modules, the outside top-level packages each module imports)."""
    mods = module_names(pkg_dir)
    root = pkg_dir.name
    edges: dict[str, set[str]] = {m: set() for m in mods}
    outside: dict[str, set[str]] = {m: set() for m in mods}

    def add(src: str, target: str) -> None:
        if target.split(".")[0] != root:
            outside[src].add(target.split(".")[0])
            return
        while target and target not in mods:      # `import a.b.name` where name is an attribute
            target = target.rpartition(".")[0]
        if target and target != src:
            edges[src].add(target)

    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(name, alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    add(name, full if full in mods else base)
    return edges, outside


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of modules (first == last), or None (depth-first search, three colours)."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {m: WHITE for m in edges}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        colour[m] = GREY
        stack.append(m)
        for n in sorted(edges[m]):
            if colour[n] == GREY:
                return stack[stack.index(n):] + [n]
            if colour[n] == WHITE:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        colour[m] = BLACK
        return None

    for m in sorted(edges):
        if colour[m] == WHITE:
            found = visit(m)
            if found:
                return found
    return None


def test_olcore_import_graph_has_no_cycle():
    edges, _ = import_graph(ROOT / "olcore")
    assert len(edges) > 20 and sum(map(len, edges.values())) > 30   # the graph was really read
    cycle = find_cycle(edges)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_olcore_never_imports_streamlit_or_plotly():
    _, outside = import_graph(ROOT / "olcore")
    bad = {m: sorted(o & {"streamlit", "plotly"}) for m, o in outside.items() if o & {"streamlit", "plotly"}}
    assert not bad, bad
    assert any("numpy" in o for o in outside.values())


def test_the_known_edges_are_seen():
    edges, _ = import_graph(ROOT / "olcore")
    assert "olcore.stream" in edges["olcore.experts._common"]              # relative, module level
    assert "olcore.experts" in edges["olcore.streams.adversaries"]
    assert "olcore.bounds.linear" in edges["olcore.comparators"]
    assert edges["olcore.stream"] <= {"olcore.errors", "olcore.validate"}  # the leaf stays a leaf
    assert not any(e.startswith("olcore.streams") for m in edges if m.startswith("olcore.experts")
                   for e in edges[m])


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    _write(tmp_path, {
        "pkg/__init__.py": "from . import a\n",
        "pkg/a.py": "from .sub import b\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/b.py": "def f():\n    from ..a import g\n    import streamlit\n",
    })
    edges, outside = import_graph(tmp_path / "pkg")
    assert find_cycle(edges) in (["pkg.a", "pkg.sub.b", "pkg.a"], ["pkg.sub.b", "pkg.a", "pkg.sub.b"])
    assert outside["pkg.sub.b"] == {"streamlit"}
    (tmp_path / "pkg/sub/b.py").write_text("def f():\n    return 1\n")
    assert find_cycle(import_graph(tmp_path / "pkg")[0]) is None
