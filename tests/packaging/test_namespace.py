"""The installed package is one namespace: the repository's agents/ and training/ folders install as
bean_env.agents and bean_env.training, nothing named ``agents`` or ``training`` is importable after
install, and every package folder of the source tree ships in the wheel."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[pathlib.Path, str]:
    """(the wheel, the build's log)."""
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
                          "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return next(out.glob("bean_env-*.whl")), run.stdout + run.stderr


@pytest.fixture(scope="module")
def wheel(built) -> pathlib.Path:
    return built[0]


def test_the_build_configuration_draws_no_setuptools_warning(built):
    """setuptools warns about configurations it will stop accepting (a data folder missing from the
    package list, whose files a later release would leave out; the license as a table): none here."""
    log = built[1]
    for warning in ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "is absent from the `packages`"):
        assert warning not in log, log[max(0, log.find(warning) - 1500):log.find(warning) + 500]


def test_wheel_ships_the_rules_text_and_every_policy_file(wheel):
    with zipfile.ZipFile(wheel) as z:
        files = set(z.namelist())
    assert "bean_env/data/rules.md" in files
    for path in (ROOT / "agents" / "weights").iterdir():
        if path.suffix in (".pt", ".json"):
            assert f"bean_env/agents/weights/{path.name}" in files, path.name


def _source_packages() -> set[str]:
    """Dotted names of every package folder (with __init__.py) under bean_env/, agents/ and training/."""
    names = set()
    for top, prefix in (("bean_env", "bean_env"), ("agents", "bean_env.agents"), ("training", "bean_env.training")):
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top)
            if "__pycache__" not in rel.parts:
                names.add(".".join([prefix, *rel.parts]))
    return names


def test_wheel_holds_one_top_level_package_with_every_subpackage(wheel):
    with zipfile.ZipFile(wheel) as z:
        files = z.namelist()
    tops = {f.split("/")[0] for f in files if not f.split("/")[0].endswith(".dist-info")}
    assert tops == {"bean_env"}
    shipped = {"/".join(f.split("/")[:-1]).replace("/", ".") for f in files if f.endswith("/__init__.py")}
    assert _source_packages() <= shipped, f"missing from pyproject's package list: {_source_packages() - shipped}"
    assert any(f.startswith("bean_env/agents/weights/") and f.endswith(".json") for f in files) or \
        not list((ROOT / "agents" / "weights").glob("*.json"))


def test_no_agents_or_training_module_after_install(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as z:
        z.extractall(tmp_path / "site")
    code = ("import sys, importlib.util as u; sys.path.insert(0, sys.argv[1]); "
            "assert u.find_spec('agents') is None and u.find_spec('training') is None; "
            "import bean_env.agents, bean_env.training; assert sys.argv[1] in bean_env.agents.__file__; "
            "from bean_env.agents import make_agent; print(type(make_agent('heuristic', seed=1)).__name__)")
    proc = subprocess.run([sys.executable, "-P", "-c", code, str(tmp_path / "site")], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "HeuristicAgent"


def test_test_modules_have_unique_names():
    """pytest imports test modules by basename (no __init__.py in tests/): two equal names collide."""
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
