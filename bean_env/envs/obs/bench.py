"""Micro-benchmark: CPU microseconds per v1 observation on the states of seeded games.

    python -m bean_env.envs.obs.bench [games=10] [rounds=9]

The states of ``games`` seeded games (uniformly random legal actions) are recorded once; each round
encodes every state for its acting seat, in game order as an env does, in chunks of ``CHUNK`` states;
per chunk the best round counts (the machine is shared: CPU time, and the minimum is the least
disturbed) and the chunks' best times are summed. The cost of updating the game's memory after each
action is measured apart and added. ``docs/envs.md`` has the figures and the comparison with v0.
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


def _replay(variant: str, config: dict, finished: list, encoder, follow: bool) -> float:
    """CPU seconds to replay the recorded games, updating a memory after every action if ``follow``."""
    a = time.process_time()
    for done in finished:
        game = new_game(variant, seed=done.seed, **config)
        memory = encoder.new_memory().reset(game)
        for action in done.history:
            game.apply(action)
            if follow:
                memory.update(game)
    return time.process_time() - a


def _memory_cost(variant: str, config: dict, finished: list, encoder, rounds: int = 3) -> float:
    """CPU seconds spent in ``Memory.update`` replaying the recorded games: the best replay with updates
    minus the best replay without (timing each update apart would mostly time the clock)."""
    with_updates = min(_replay(variant, config, finished, encoder, True) for _ in range(rounds))
    without = min(_replay(variant, config, finished, encoder, False) for _ in range(rounds))
    return max(with_updates - without, 0.0)


def measure(variant: str, config: dict, games: int = 10, rounds: int = 9) -> tuple[float, int]:
    """(CPU us per observation including the memory update, observations encoded)."""
    from . import encoder_for
    states, finished = _record(variant, config, games)
    encoder = encoder_for(finished[0])
    memory = encoder.new_memory().reset(finished[-1])
    seats = [max(s.actor, 0) for s in states]
    chunks = [range(i, min(i + CHUNK, len(states))) for i in range(0, len(states), CHUNK)]
    best = [float("inf")] * len(chunks)
    for _ in range(rounds):
        for c, chunk in enumerate(chunks):
            a = time.process_time()
            for i in chunk:
                encoder.encode(states[i], seats[i], memory)
            best[c] = min(best[c], time.process_time() - a)
    spent = sum(best) + _memory_cost(variant, config, finished, encoder)
    return 1e6 * spent / len(states), len(states)


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
