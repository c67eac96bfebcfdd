"""Micro-benchmark: microseconds per observation, v0 encoder against v1, on the states of seeded games.

    python -m bean_env.envs.obs.bench [games=10] [rounds=5]

The states of ``games`` seeded games (uniformly random legal actions) are recorded once; each round
encodes every state for its acting seat, in game order as an env does, in chunks of ``CHUNK`` states,
each chunk with the v0 and then the v1 encoder; per chunk and encoder the best round counts (the
machine is shared: CPU time, and the minimum is the least disturbed) and the chunks' best times are summed.
v1 is timed with the memory of the game's end (its blocks are written as in play); the cost of
updating a memory after each action is measured apart and added to v1's figure.
"""
from __future__ import annotations

import random
import sys
import time

from ...engine.game import new_game

CHUNK = 200  # states per timed chunk; each chunk's best round counts

CASES = (("bohnanza", {"num_players": 4}), ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}),
         ("hostile_takeover", {"num_players": 4}))


def _record(variant: str, config: dict, games: int):
    states, finished = [], []
    for seed in range(games):
        game = new_game(variant, seed=seed, **config)
        rng = random.Random(seed)
        while not game.is_over and not game.is_truncated:
            states.append(game.state.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        finished.append(game)
    return states, finished


def _memory_cost(variant: str, config: dict, finished: list, encoder) -> float:
    """Seconds spent in ``Memory.update`` replaying the recorded games."""
    spent = 0.0
    for done in finished:
        game = new_game(variant, seed=done.seed, **config)
        memory = encoder.new_memory().reset(game)
        for action in done.history:
            game.apply(action)
            a = time.process_time()
            memory.update(game)
            spent += time.process_time() - a
    return spent


def measure(variant: str, config: dict, games: int = 10, rounds: int = 5) -> tuple[float, float, int]:
    """(v0 us per encode, v1 us per encode including the memory update, encodes)."""
    from .. import observation as v0
    from . import encoder_for
    states, finished = _record(variant, config, games)
    old, new = v0.encoder_for(finished[0]), encoder_for(finished[0])
    memory = new.new_memory().reset(finished[-1])
    seats = [max(s.actor, 0) for s in states]
    chunks = [range(i, min(i + CHUNK, len(states))) for i in range(0, len(states), CHUNK)]
    best = [[float("inf")] * len(chunks) for _ in range(2)]
    for _ in range(rounds):
        for c, chunk in enumerate(chunks):  # both encoders on each chunk, back to back
            a = time.process_time()
            for i in chunk:
                old.encode(states[i], seats[i])
            b = time.process_time()
            for i in chunk:
                new.encode(states[i], seats[i], memory)
            e = time.process_time()
            best[0][c], best[1][c] = min(best[0][c], b - a), min(best[1][c], e - b)
    best0, best1 = sum(best[0]), sum(best[1])
    best1 += min(_memory_cost(variant, config, finished, new) for _ in range(2))
    return 1e6 * best0 / len(states), 1e6 * best1 / len(states), len(states)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[0]) if argv else 10
    rounds = int(argv[1]) if len(argv) > 1 else 5
    print("| variant | v0 us/obs | v1 us/obs | v1/v0 | encodes |")
    print("|---|---|---|---|---|")
    for variant, config in CASES:
        old, new, count = measure(variant, config, games, rounds)
        print(f"| {variant} {config or ''} | {old:.1f} | {new:.1f} | {new / old:.2f} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
