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


@pytest.mark.skipif(not is_compiled(), reason="pure-Python build: Rules attributes are plain attributes")
def test_compiled_rules_see_every_variants_rule_attributes():
    """An uncompiled subclass of the compiled ``Rules`` (the takeover rules) that overrode a class
    attribute with another value would show it to Python code but not to the compiled mechanics (COM-3
    duplicates, COM-8 field cost): the value compiled code reads must equal what Python code sees."""
    from bean_env.engine import implemented, rules_for
    from bean_env.engine.common import Rules
    from bean_env.engine.config import validate

    for variant in implemented():
        rules = rules_for(variant, validate(variant, {}))
        for name in ("field_cost", "allow_duplicates", "config"):
            native = Rules.__dict__[name].__get__(rules, type(rules))
            assert native == getattr(rules, name), (variant, name)
