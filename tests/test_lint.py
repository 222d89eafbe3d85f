"""The code passes its linters: ruff over the Python (the rules in pyproject.toml's [tool.ruff.lint])
and ESLint over the app's JavaScript, olapp/play_driver.js (eslint.config.mjs; installed from the npm
registry by ``npm ci``, as .ci/run does). Without ESLint installed the JavaScript check is skipped on
a developer machine and fails in CI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_would_catch_an_unused_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
                          str(bad)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "F401" in out.stdout, out.stdout + out.stderr


def _eslint() -> str:
    exe = ROOT / "node_modules" / ".bin" / "eslint"
    if exe.exists() and shutil.which("node"):
        return str(exe)
    if os.environ.get("CI"):
        pytest.fail("CI is set but ESLint is missing: run `npm ci` in the checkout (see .ci/run)")
    pytest.skip("ESLint not installed (npm ci)")


def test_the_play_driver_passes_eslint():
    out = subprocess.run([_eslint(), "olapp/play_driver.js"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_eslint_would_catch_an_undefined_name():
    out = subprocess.run([_eslint(), "--stdin", "--stdin-filename", "olapp/probe.js"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, input="export default function () { return notDefinedAnywhere; }\n")
    assert out.returncode == 1 and "no-undef" in out.stdout, out.stdout + out.stderr
