"""Configs every env test runs over, and seeded random play through the engine or the AEC loop."""
from __future__ import annotations

import importlib
import random

from bean_env.envs import available_variants

# every player count of both editions, and the Duel (BASE-1, BASE-2)
BASE_CASES = ([("bohnanza", {"edition": "german", "num_players": k}) for k in (3, 4, 5)]
              + [("bohnanza", {"edition": "english", "num_players": k}) for k in range(3, 8)]
              + [("bean_duel", {})])
# variants added by other env modules run with their default config
CASES = BASE_CASES + [(v, {}) for v in available_variants() if v not in ("bohnanza", "bean_duel")]


def case_id(case) -> str:
    variant, cfg = case
    return "-".join([variant] + [str(v) for v in cfg.values()])


def env_module(variant: str):
    return importlib.import_module(f"bean_env.envs.{variant}_v1")


def random_walk(game, rng: random.Random, max_steps: int):
    """Yield the game before each of up to ``max_steps`` random decisions (engine only)."""
    for _ in range(max_steps):
        if game.is_over:
            return
        yield game
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
