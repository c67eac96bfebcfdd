"""Copy a trained policy into the package (``agents/weights``) after checking it can serve its config.

    python -m bean_env.training.ship runs/duel_1 bean_duel
    python -m bean_env.training.ship runs/bohnanza4 bohnanza_4p --float16
    python -m bean_env.training.ship runs/b6_ft bohnanza_6p --int8

The source is a policy file pair or a run directory. The copy is refused if the policy does not load
(``PolicyFileError``), does not fit the current observation layout of its variant config, or the weights
file would be 5 MB or more (``--float16`` stores the weights at half precision, ``--int8`` as 8-bit
integers with one scale per weight row, ``agents.ppo.quantize_rows``; they are read back as
float32). ``make_agent("ppo")`` picks a shipped policy by the exact variant config of the view.
"""
from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from bean_env.agents.ppo import WEIGHTS_DIR, PolicyFileError, PolicyNet, PPOAgent, save_policy

MAX_BYTES = 5 * 1024 * 1024


def ship(source: str | Path, name: str, float16: bool = False, weights_dir: Path = WEIGHTS_DIR,
         int8: bool = False) -> Path:
    """Write ``weights_dir/name.pt/.json`` from ``source`` (weights as float32, or ``float16`` / ``int8``);
    returns the weights path."""
    if float16 and int8:
        raise ValueError("choose one of float16 and int8")
    from bean_env import new_game

    net = PolicyNet.load(source)
    meta = net.meta
    game = new_game(meta["variant"], seed=0, **meta["config"])
    PPOAgent.from_net(net)._setup(game.view(0))  # variant, options, sizes and layout hash must fit
    weights_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=weights_dir) as staging:  # the shipped pair changes only at the end
        staged = save_policy(Path(staging) / name, net.layers, meta,
                             dtype="float16" if float16 else "int8" if int8 else "float32", head=net.head)
        size = staged.stat().st_size
        if size >= MAX_BYTES:
            raise ValueError(f"{source}: weights would be {size} bytes, 5 MB or more; retry with --float16, --int8 "
                             "or train a smaller network")
        PolicyNet.load(staged)
        path = weights_dir / staged.name
        os.replace(staged, path)
        os.replace(staged.with_suffix(".json"), path.with_suffix(".json"))
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bean_env.training.ship", description=__doc__.split("\n\n")[0])
    p.add_argument("source", help="policy file pair (stem, .pt or .json) or training run directory")
    p.add_argument("name", help="name in agents/weights (e.g. bean_duel, bohnanza_4p)")
    store = p.add_mutually_exclusive_group()
    store.add_argument("--float16", action="store_true", help="store weights at half precision")
    store.add_argument("--int8", action="store_true", help="store weights as 8-bit integers, a scale per row")
    a = p.parse_args(argv)
    try:
        path = ship(a.source, a.name, a.float16, int8=a.int8)
    except (OSError, PolicyFileError, ValueError) as exc:
        p.error(str(exc))
    print(f"shipped {path} ({path.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
