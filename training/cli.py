"""``bean-env train``: self-play training from the command line.

    bean-env train [OPTIONS]          MaskablePPO self-play, learner in one seat per game (training/selfplay.py)
    bean-env train rllib [OPTIONS]    Ray RLlib PPO multi-seat self-play (training/rllib_selfplay.py)
    bean-env train batched [OPTIONS]  batched self-play PPO on the array kernels, every learner seat as
                                      experience (training/batched_ppo.py; the recommended trainer)
    bean-env train imitate [OPTIONS]  behaviour cloning of a baseline agent, a warm start for the first
                                      (``--init-policy RUN_DIR``; training/imitate.py; ``--init-policy``
                                      also takes a policy file or ``shipped``)
"""
from __future__ import annotations

from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(argv or [])
    if args and args[0] == "imitate":
        try:
            import sb3_contrib  # noqa: F401
        except ImportError as exc:
            raise ValueError(f"imitation needs the train extra ({exc}); pip install 'bean-env[train]'") from None
        from .imitate import main as imitate

        imitate(args[1:], "bean-env train imitate")
        return 0
    if args and args[0] == "batched":
        try:
            import torch  # noqa: F401
        except ImportError as exc:
            raise ValueError(f"training needs the train extra ({exc}); pip install 'bean-env[train]'") from None
        from .batched_ppo import main as batched

        batched(args[1:], "bean-env train batched")
        return 0
    if args and args[0] == "rllib":
        try:
            from .rllib_selfplay import main as run
        except ImportError as exc:
            raise ValueError(f"RLlib training needs the ray extra ({exc}); pip install 'bean-env[ray]'") from None
        args, prog = args[1:], "bean-env train rllib"
    else:
        try:
            import sb3_contrib  # noqa: F401
        except ImportError as exc:
            raise ValueError(f"training needs the train extra ({exc}); pip install 'bean-env[train]'") from None
        from .selfplay import main as run
        prog = "bean-env train"
    run(args, prog)
    return 0
