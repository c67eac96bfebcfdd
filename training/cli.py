"""``bean-env train``: self-play training from the command line.

    bean-env train [OPTIONS]          MaskablePPO self-play, learner in one seat per game (training/selfplay.py)
    bean-env train rllib [OPTIONS]    Ray RLlib PPO multi-seat self-play (training/rllib/)
    bean-env train batched [OPTIONS]  batched self-play PPO on the array kernels, every learner seat as
                                      experience (training/batched_ppo.py; the recommended trainer)
    bean-env train imitate [OPTIONS]  behaviour cloning of a baseline agent, a warm start for the first
                                      (``--init-policy RUN_DIR``; training/imitate.py; ``--init-policy``
                                      also takes a policy file or ``shipped``)
"""
from __future__ import annotations

import importlib
from typing import Sequence

# subcommand -> (module of its ``main``, what it is, the packages it needs, the extra that installs them)
SUBCOMMANDS = {
    "imitate": ("imitate", "imitation", ("sb3_contrib",), "train"),
    "batched": ("batched_ppo", "training", ("torch",), "train"),
    "rllib": ("rllib.trainer", "RLlib training", ("ray",), "ray"),
    "": ("selfplay", "training", ("sb3_contrib",), "train"),
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(argv or [])
    name = args[0] if args and args[0] in SUBCOMMANDS else ""
    module, what, needs, extra = SUBCOMMANDS[name]
    try:
        for package in needs:
            importlib.import_module(package)
        run = importlib.import_module(f".{module}", __package__).main
    except ImportError as exc:
        raise ValueError(f"{what} needs the {extra} extra ({exc}); pip install 'bean-env[{extra}]'") from None
    run(args[1:] if name else args, "bean-env train" + (f" {name}" if name else ""))
    return 0
