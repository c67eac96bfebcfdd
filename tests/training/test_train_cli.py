"""``bean-env train``'s subcommands: a missing extra is a clear error naming the extra to install."""
from __future__ import annotations

import importlib

import pytest

from bean_env.training import cli


@pytest.mark.parametrize("argv, missing, extra", [(["rllib"], "ray", "ray"), (["batched"], "torch", "train"),
                                                  (["imitate"], "sb3_contrib", "train"), ([], "sb3_contrib", "train")])
def test_a_missing_extra_names_it(argv, missing, extra, monkeypatch):
    real = importlib.import_module

    def fake(name, package=None):
        if name == missing:
            raise ImportError(f"No module named {missing!r}")
        return real(name, package)

    monkeypatch.setattr(cli.importlib, "import_module", fake)
    with pytest.raises(ValueError, match=rf"needs the {extra} extra .*pip install 'bean-env\[{extra}\]'"):
        cli.main(argv + ["--help"])
