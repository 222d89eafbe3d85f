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
