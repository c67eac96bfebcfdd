"""The optional mypyc-compiled build (``setup.py``, ``make compiled``): the modules it compiles exist, and
under ``make test-compiled`` (``BEAN_ENV_EXPECT_COMPILED=1``) the compiled modules are the ones in use.
Golden traces (tests/golden, tests/takeover/test_takeover_golden.py) prove both builds play alike."""
from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import pathlib

import pytest

from bean_env.engine.compiled import is_compiled

SETUP = pathlib.Path(__file__).resolve().parents[2] / "setup.py"


def compiled_modules() -> list[str]:
    """The dotted names of the modules ``setup.py`` compiles (its ``COMPILED`` list)."""
    tree = ast.parse(SETUP.read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


def test_setup_compiles_existing_engine_modules():
    modules = compiled_modules()
    assert "bean_env.engine.common" in modules and "bean_env.engine.trading" in modules
    for name in modules:
        assert importlib.util.find_spec(name) is not None, name


@pytest.mark.skipif(os.environ.get("BEAN_ENV_EXPECT_COMPILED") != "1",
                    reason="pure-Python build (make test-compiled sets BEAN_ENV_EXPECT_COMPILED=1)")
def test_the_compiled_modules_are_in_use():
    for name in compiled_modules():
        module = importlib.import_module(name)
        assert module.__file__.endswith(".so"), f"{name} is not compiled: {module.__file__}"
    assert is_compiled()
