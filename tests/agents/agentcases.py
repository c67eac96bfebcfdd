"""Shared cases for the agent tests: the variants to cover and positions reached by random play."""
from __future__ import annotations

import random

import bean_env

# (variant, config) per implemented variant, plus player counts that change the rules (BASE-2).
_EXTRA = {"bohnanza": [{"num_players": 3}, {"num_players": 4},
                       {"edition": "english", "num_players": 6, "max_trade_rounds": 2}],
          "hostile_takeover": [{"num_players": 2}, {"num_players": 3}]}


def cases() -> list[tuple[str, dict]]:
    out = []
    for v in bean_env.implemented():
        for cfg in _EXTRA.get(v, [{}]):
            out.append((v, cfg))
    return out


def case_id(case) -> str:
    v, cfg = case
    return v + "".join(f"-{k}={val}" for k, val in cfg.items())


def positions(variant: str, config: dict, seed: int, count: int, spread: int = 60):
    """``count`` games paused at decision points reached by random play (several legal actions each)."""
    rng = random.Random(seed)
    out = []
    game = bean_env.new_game(variant, seed=seed, **config)
    while len(out) < count:
        if game.is_over or game.is_truncated:
            game = bean_env.new_game(variant, seed=rng.getrandbits(30), **config)
        for _ in range(rng.randrange(1, spread)):
            if game.is_over or game.is_truncated:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over and not game.is_truncated and len(game.legal_actions()) > 1:
            out.append(game.clone())
    return out
