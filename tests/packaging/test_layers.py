"""The house's layers: the engine imports no RL or numeric library and nothing above it; the envs and
the other library faces never import the agents or training packages; the import graph of bean_env has
no cycles between its layers. Checked on the source with ``ast`` (no imports executed)."""
from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]

# layer -> (folder, dotted prefix)
LAYERS = {"engine": ("bean_env/engine", "bean_env.engine"), "envs": ("bean_env/envs", "bean_env.envs")}
ENGINE_FORBIDDEN = ("numpy", "gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray",
                    "bean_env.envs", "bean_env.agents", "bean_env.training", "bean_env.vector",
                    "bean_env.text", "bean_env.openspiel", "bean_env.cli", "bean_env.play")
ENVS_FORBIDDEN = ("bean_env.agents", "bean_env.training", "torch", "stable_baselines3", "sb3_contrib", "ray")


def _imports(path: pathlib.Path, package: str) -> set[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved against ``package``)."""
    tree = ast.parse(path.read_text())
    out = set()
    parts = package.split(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def _package_of(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    names = list(rel.parts)
    return ".".join(names[:-1]) if names[-1] != "__init__" else ".".join(names[:-1])


def _bad(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for name in _imports(path, _package_of(path)):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    return bad


def test_engine_is_pure():
    assert _bad("bean_env/engine", ENGINE_FORBIDDEN) == []


def test_envs_never_import_agents_or_training():
    assert _bad("bean_env/envs", ENVS_FORBIDDEN) == []


def test_library_faces_never_import_training():
    """Text, OpenSpiel, the batched env and the registry are library faces: no training imports."""
    bad = []
    for folder in ("bean_env/text", "bean_env/openspiel"):
        bad += _bad(folder, ("bean_env.training",))
    bad += _bad("bean_env/vector", ("bean_env.training", "bean_env.agents"))
    for module in ("bean_env/registry.py", "bean_env/render.py"):
        path = ROOT / module
        bad += [f"{module} imports {n}" for n in _imports(path, "bean_env")
                if n.startswith(("bean_env.training", "bean_env.agents"))]
    assert bad == []
