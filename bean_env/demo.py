"""`make demo`: one seeded 4-player `bohnanza` game and one `bean_duel` game between random players."""
from __future__ import annotations

import random

from . import new_game


def play_random(variant: str, seed: int, **config):
    game = new_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def main() -> None:
    for variant, config in (("bohnanza", {"num_players": 4}), ("bean_duel", {})):
        game = play_random(variant, seed=7, **config)
        print(f"=== {variant} {config} seed 7: {len(game.history)} decisions ===")
        print(game.render())
        print(f"scores {game.scores()}  winners {game.winners()}\n")


if __name__ == "__main__":
    main()
