"""The install is one tested set of versions: the locks (requirements.txt, requirements-test.txt)
satisfy the ranges they are made from (requirements.in, requirements-test.in) and olcore's ranges in
pyproject.toml, and the app's lock and the test lock pin the same versions."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def ranges(path: Path) -> dict[str, Requirement]:
    """The requirements of a ranges file (``-r`` includes followed), by canonical name."""
    out: dict[str, Requirement] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r"):
            out.update(ranges(path.parent / line[2:].strip()))
        elif line:
            req = Requirement(line)
            out[canonicalize_name(req.name)] = req
    return out


def pins(path: Path) -> dict[str, list[Version]]:
    """The versions a lock pins, by canonical name (one per environment marker)."""
    out: dict[str, list[Version]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        req = Requirement(line)
        spec = list(req.specifier)
        assert len(spec) == 1 and spec[0].operator == "==", f"{path.name}: {line!r} is not an exact pin"
        out.setdefault(canonicalize_name(req.name), []).append(Version(spec[0].version))
    return out


LOCKS = [("requirements.in", "requirements.txt"), ("requirements-test.in", "requirements-test.txt")]


def disagreements(source: Path, lock: Path) -> list[str]:
    """Where the lock does not satisfy the ranges of ``source``, in words."""
    wanted, pinned = ranges(source), pins(lock)
    out = []
    for name, req in wanted.items():
        if name not in pinned:
            out.append(f"{lock.name} does not pin {name}, which {source.name} asks for")
        out += [f"{lock.name} pins {name}=={v}, outside {source.name}'s {req}"
                for v in pinned.get(name, []) if not req.specifier.contains(v, prereleases=True)]
    return out


@pytest.mark.parametrize(("source", "lock"), LOCKS)
def test_the_lock_satisfies_every_range_it_is_made_from(source, lock):
    assert disagreements(ROOT / source, ROOT / lock) == []


@pytest.mark.parametrize(("source", "lock"), LOCKS)
def test_the_lock_names_the_command_that_made_it(source, lock):
    header = (ROOT / lock).read_text(encoding="utf-8").splitlines()[:3]
    assert any(f"uv pip compile {source}" in line for line in header), header
    assert f"uv pip compile {source}" in (ROOT / source).read_text(encoding="utf-8")


def test_olcore_ranges_in_pyproject_read_as_the_apps_and_the_lock_satisfies_them():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [Requirement(r) for r in project["dependencies"]]
    declared += [Requirement(r) for extra in project.get("optional-dependencies", {}).values() for r in extra]
    app, pinned = ranges(ROOT / "requirements.in"), pins(ROOT / "requirements.txt")
    assert {canonicalize_name(r.name) for r in declared} == set(app), "pyproject.toml and requirements.in name other packages"
    for req in declared:
        name = canonicalize_name(req.name)
        assert req.specifier == app[name].specifier, f"{name}: pyproject.toml says {req.specifier}, requirements.in {app[name].specifier}"
        assert all(req.specifier.contains(v) for v in pinned[name]), f"{name}: the lock's {pinned[name]} is outside {req}"


def test_the_test_lock_installs_the_apps_versions():
    app, test = pins(ROOT / "requirements.txt"), pins(ROOT / "requirements-test.txt")
    for name, versions in app.items():
        assert test.get(name) == versions, f"{name}: the app's lock pins {versions}, the test lock {test.get(name)}"


def test_the_readme_installs_from_the_locks():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("```")[1]
    assert "-r requirements.txt" in quick.splitlines()[1] and "-r requirements-test.txt" in quick.splitlines()[2], quick


def test_a_lock_outside_its_ranges_or_missing_a_package_is_caught(tmp_path):
    (tmp_path / "r.in").write_text("numpy>=99\nplotly>=6,<7\n")
    (tmp_path / "r.txt").write_text("numpy==2.4.6\n")
    found = disagreements(tmp_path / "r.in", tmp_path / "r.txt")
    assert len(found) == 2 and "numpy==2.4.6" in found[0] and "plotly" in found[1], found
