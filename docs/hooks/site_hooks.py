"""MkDocs hooks of the documentation site (mkdocs.yml, ``hooks:``).

- API source tree. The package ``bean_env`` keeps ``agents/`` and ``training/`` at the top of the repository
  and installs them as ``bean_env.agents`` and ``bean_env.training`` (``[tool.setuptools.package-dir]`` in
  pyproject.toml). mkdocstrings reads source files, not the installed package, so before the build the
  ``.py`` files are copied into ``build/api-source/bean_env`` in the installed layout, the tree the Python
  handler of mkdocs.yml reads (the tree
  exists before the plugins are configured, and is refreshed for every rebuild).
- The training guide. ``docs/training.md`` is listed in the navigation when it exists (after "Agents");
  without it the site builds without the entry, so strict mode has no missing page to fail on.
"""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "build" / "api-source" / "bean_env"
SOURCES = {TREE: ROOT / "bean_env", TREE / "agents": ROOT / "agents", TREE / "training": ROOT / "training"}
TRAINING_PAGE = "training.md"


def copy_sources() -> None:
    shutil.rmtree(TREE, ignore_errors=True)
    for dest, src in SOURCES.items():
        for path in src.rglob("*.py"):
            target = dest / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def add_training_page(config) -> None:
    nav = config.get("nav") or []
    listed = any(isinstance(item, dict) and TRAINING_PAGE in item.values() for item in nav)
    if listed or not (Path(config["docs_dir"]) / TRAINING_PAGE).is_file():
        return
    after = next((i + 1 for i, item in enumerate(nav) if isinstance(item, dict) and "Agents" in item), len(nav))
    nav.insert(after, {"Training": TRAINING_PAGE})


def on_startup(command, dirty):
    copy_sources()   # before the plugins' on_config: mkdocstrings resolves its source paths there


def on_config(config):
    copy_sources()   # again for every rebuild of `mkdocs serve`
    add_training_page(config)
    return config
