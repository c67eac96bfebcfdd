#!/usr/bin/env python3
"""Speed of the rules engine under uniformly random play, next to RLCard's UNO engine in the same run.

    python benchmarks/engine_speed.py                 # every implemented variant and player count
    python benchmarks/engine_speed.py --seconds 1 --variants bohnanza
    python benchmarks/engine_speed.py --profile       # cProfile of random bohnanza play, top hot spots

For each variant and player count the script plays seeded random games (a random legal action at each
decision point, the same loop an agent drives) for about ``--seconds`` and prints decisions per second,
games per second and decisions per game. A *decision* is one ``Game.apply`` call, including the
``legal_actions()`` call before it.

The reference is RLCard's UNO (``pip install rlcard``, in the ``bench`` extra): its game object
(``UnoGame.init_game/step``, which also builds the state dict with the legal actions each step) and its
env (``rlcard.make("uno")``, which also encodes observations). The ratio column is this engine's
decisions/s divided by UNO's game-level decisions/s. Times are CPU time of this process by default
(``--clock cpu``), which stays meaningful on a shared, busy machine; ``--clock wall`` uses wall-clock
time. Absolute figures depend on the machine; compare ratios.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pathlib
import pstats
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bean_env import new_game  # noqa: E402
from bean_env.engine import implemented  # noqa: E402
from bean_env.engine.config import OPTIONS, validate  # noqa: E402


def play_random(variant: str, seed: int, config: dict) -> int:
    """One game of uniformly random legal actions; returns the number of decisions."""
    game = new_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and not game.is_truncated:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = time.process_time


def measure(run_game, seconds: float) -> tuple[int, int, float]:
    """Play games with ``run_game(seed) -> decisions`` for about ``seconds``: (games, decisions, time)."""
    games = decisions = 0
    start = clock()
    while True:
        decisions += run_game(games)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds and games >= 3:
            return games, decisions, elapsed


def configurations(variants: list[str] | None) -> list[tuple[str, dict]]:
    """(variant, config) for every implemented variant and every allowed player count."""
    out = []
    for variant in implemented():
        if variants and variant not in variants:
            continue
        if variant == "bohnanza":
            out += [(variant, {"edition": "german", "num_players": n}) for n in (3, 4, 5)]
            out += [(variant, {"edition": "english", "num_players": n}) for n in (3, 4, 5, 6, 7)]
            out.append((variant, {"edition": "german", "num_players": 4, "max_trade_rounds": 0}))
            continue
        counts = []
        if "num_players" in OPTIONS.get(variant, {}):
            for n in range(1, 8):
                try:
                    validate(variant, {"num_players": n})
                    counts.append(n)
                except ValueError:
                    pass
        out += [(variant, {"num_players": n}) for n in counts] or [(variant, {})]
    return out


def uno_game_loop(seed: int) -> int:
    """One RLCard UNO game driven through its game object with random legal actions."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=2)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    state, _ = game.init_game()
    steps = 0
    while not game.is_over():
        legal = state["legal_actions"]
        state, _ = game.step(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


_UNO_ENV = {}


def uno_env_loop(seed: int) -> int:
    """One RLCard UNO game driven through ``rlcard.make('uno')`` (observation encoding included)."""
    import rlcard

    env = _UNO_ENV.get("env")
    if env is None:
        env = _UNO_ENV["env"] = rlcard.make("uno", config={"seed": 0})
    env.seed(seed)
    rng = random.Random(seed)
    state, _ = env.reset()
    steps = 0
    while not env.is_over():
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def describe(variant: str, config: dict) -> str:
    extra = {k: v for k, v in config.items() if k != "num_players"}
    return variant + (" " + " ".join(f"{k}={v}" for k, v in extra.items()) if extra else "")


def profile(seconds: float, top: int) -> None:
    """cProfile random 4-player bohnanza play and print the top functions by own time."""
    prof = cProfile.Profile()
    prof.enable()
    measure(lambda seed: play_random("bohnanza", seed, {"num_players": 4}), seconds)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    print(out.getvalue())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per configuration (default 2)")
    ap.add_argument("--variants", nargs="*", help="only these variants")
    ap.add_argument("--no-uno", action="store_true", help="skip the RLCard UNO reference")
    ap.add_argument("--profile", action="store_true", help="profile random bohnanza play instead")
    ap.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall time")
    args = ap.parse_args()
    global clock
    clock = CLOCKS[args.clock]

    if args.profile:
        profile(args.seconds * 3, args.top)
        return 0

    uno = None
    rows = []
    if not args.no_uno:
        try:
            import rlcard  # noqa: F401
        except ImportError:
            print("rlcard is not installed (pip install 'bean-env[bench]'); UNO reference skipped\n")
        else:
            g, d, t = measure(uno_game_loop, args.seconds)
            uno = d / t
            rows.append(("rlcard uno (game)", 2, g, d, t))
            g, d, t = measure(uno_env_loop, args.seconds)
            rows.append(("rlcard uno (env)", 2, g, d, t))
    for variant, config in configurations(args.variants):
        g, d, t = measure(lambda seed, v=variant, c=config: play_random(v, seed, c), args.seconds)
        n = config.get("num_players", new_game(variant, seed=0, **config).num_players)
        rows.append((describe(variant, config), n, g, d, t))

    print(f"{'engine':40} {'players':>7} {'games':>6} {'decisions/s':>12} {'games/s':>9} "
          f"{'dec/game':>9} {'vs uno':>7}")
    for name, n, g, d, t in rows:
        ratio = f"{d / t / uno:7.2f}" if uno else "      -"
        print(f"{name:40} {n:7d} {g:6d} {d / t:12,.0f} {g / t:9.1f} {d / g:9.0f} {ratio}")
    print(f"\npython {sys.version.split()[0]}; {args.seconds:g} s of {args.clock} time per row; 'vs uno' = "
          "decisions/s over RLCard UNO's game-level decisions/s measured in this run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
