"""Micro-benchmark: CPU microseconds per v1 observation along seeded games, as an env encodes them.

    python -m bean_env.envs.obs.bench [games=10] [rounds=9]

The actions of ``games`` seeded games (uniformly random legal actions) are recorded once. Each round
replays them three ways on fresh games: applying the actions only; also updating the game's memory
after each action; also encoding the acting seat's observation after each action with an encoder of
its own (``build_encoder``), as the AEC env does, so the memos that replay unchanged blocks work as in
the env. Per observation: the best replay with memory and encoding minus the best bare replay (the
machine is shared: CPU time, and the minimum is the least disturbed). ``docs/envs.md`` has figures.
"""
from __future__ import annotations

import random
import sys
import time

from ...engine.game import new_game

CASES = (("bohnanza", {"num_players": 4}), ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}),
         ("hostile_takeover", {"num_players": 4}))


def _record(variant: str, config: dict, games: int) -> list:
    """The finished seeded random games."""
    finished = []
    for seed in range(games):
        game = new_game(variant, seed=seed, **config)
        rng = random.Random(seed)
        while not game.is_over and not game.is_truncated:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        finished.append(game)
    return finished


def _replay(variant: str, config: dict, finished: list, encode: bool) -> float:
    """CPU seconds to replay the games; with ``encode``, following each with a memory and encoding the
    acting seat's observation after every action."""
    from .core import build_encoder
    games = [new_game(variant, seed=done.seed, **config) for done in finished]
    encoder = build_encoder(games[0])
    a = time.process_time()
    for game, done in zip(games, finished):
        if encode:
            memory = encoder.new_memory().reset(game)
            encoder.encode_new(game.state, max(game.state.actor, 0), memory)
            for action in done.history:
                game.apply(action)
                memory.update(game)
                encoder.encode_new(game.state, max(game.state.actor, 0), memory)
        else:
            for action in done.history:
                game.apply(action)
    return time.process_time() - a


def measure(variant: str, config: dict, games: int = 10, rounds: int = 9) -> tuple[float, int]:
    """(CPU us per observation including the memory update, observations encoded)."""
    finished = _record(variant, config, games)
    count = sum(len(g.history) + 1 for g in finished)
    with_encoding = min(_replay(variant, config, finished, True) for _ in range(rounds))
    bare = min(_replay(variant, config, finished, False) for _ in range(rounds))
    return 1e6 * max(with_encoding - bare, 0.0) / count, count


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[0]) if argv else 10
    rounds = int(argv[1]) if len(argv) > 1 else 9
    print("| variant | v1 us/obs | observations |")
    print("|---|---|---|")
    for variant, config in CASES:
        us, count = measure(variant, config, games, rounds)
        print(f"| {variant} {config or ''} | {us:.1f} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
