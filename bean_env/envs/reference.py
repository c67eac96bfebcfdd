"""Markdown tables of a config's action indices and observation layout, as printed in ``docs/envs.md``.

    python -m bean_env.envs.reference bohnanza edition=english num_players=7
"""
from __future__ import annotations

import sys

from ..engine.catalogue import catalogue_of
from ..engine.game import new_game
from .obs import encoder_for


def action_table(variant: str, **config) -> str:
    game = new_game(variant, seed=0, **config)
    cat = catalogue_of(game)
    rows = ["| indices | kind | values (a x b) |", "|---|---|---|"]
    for start, stop, kind, values in cat.layout():
        span = f"{start}" if stop - start == 1 else f"{start}-{stop - 1}"
        rows.append(f"| {span} | {kind} | {values} |")
    rows.append(f"| | **total** | Discrete({cat.size}) |")
    return "\n".join(rows)


def observation_table(variant: str, **config) -> str:
    game = new_game(variant, seed=0, **config)
    enc = encoder_for(game)
    rows = ["| indices | block | meaning |", "|---|---|---|"]
    for name, start, stop, doc in enc.layout():
        rows.append(f"| {start}-{stop - 1} | {name} | {doc} |")
    rows.append(f"| | **total** | {enc.size} float32 values in [0, 1], layout hash `{enc.layout_hash()[:16]}` |")
    return "\n".join(rows)


def _parse(value: str):
    if value in ("True", "False"):
        return value == "True"
    try:
        return int(value)
    except ValueError:
        return value


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print(__doc__)
        return 2
    variant = argv[0]
    config = {k: _parse(v) for k, v in (a.split("=", 1) for a in argv[1:])}
    print(action_table(variant, **config))
    print()
    print(observation_table(variant, **config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
