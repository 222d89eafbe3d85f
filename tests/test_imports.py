"""olcore is numpy-only: importing it pulls in neither streamlit nor plotly."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_olcore_imports_neither_streamlit_nor_plotly():
    code = ("import sys, olcore, olcore.streams, olcore.bounds, olcore.experts, olcore.linear; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')); "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"olcore imported: {out.stdout.strip()}"


def test_no_olcore_module_mentions_streamlit_or_plotly_imports():
    offenders = []
    for path in (ROOT / "olcore").rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            s = line.strip()
            if s.startswith(("import ", "from ")) and any(w in s.split()[1] for w in ("streamlit", "plotly")):
                offenders.append(f"{path.relative_to(ROOT)}:{n}")
    assert not offenders, offenders


def test_importing_every_olcore_module_has_no_side_effects(tmp_path):
    """pytest --doctest-modules imports every olcore module: none may print, warn, write a file,
    touch the global numpy random state, or import streamlit/plotly."""
    mods = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in (ROOT / "olcore").rglob("*.py"))
    code = ("import importlib, sys, warnings, numpy as np; warnings.simplefilter('error'); "
            "np.random.seed(0); before = np.random.get_state()[1].copy(); "
            f"[importlib.import_module(m) for m in {mods!r}]; "
            "assert (np.random.get_state()[1] == before).all(), 'global random state used'; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')); "
            "assert not bad, bad")
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "" and out.stderr == "", (out.stdout, out.stderr)
    assert list(tmp_path.iterdir()) == []                     # nothing written in the working directory
