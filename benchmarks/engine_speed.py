#!/usr/bin/env python3
"""Speed of the rules engine under uniformly random play, next to peer game engines in the same run.

    python benchmarks/engine_speed.py                 # every implemented variant and player count
    python benchmarks/engine_speed.py --seconds 1 --variants bohnanza
    python benchmarks/engine_speed.py --profile       # cProfile of random bohnanza play, top hot spots

For each variant and player count the script plays seeded random games (a random legal action at each
decision point, the same loop an agent drives) and prints decisions per second, games per second and
decisions per game. A *decision* is one ``Game.apply`` call, including the ``legal_actions()`` call
before it.

Peers (``benchmarks/peers.py``, the ``bench`` extra): RLCard's UNO and bridge game objects (built once,
``init_game()`` per game), RLCard's UNO env (``rlcard.make``, observations encoded), and OpenSpiel's C++
hearts and bridge (loaded once, driven from Python). All contenders run in interleaved rounds in one
process; each reports the median of its per-round rates in CPU time (``--clock wall`` for wall time),
and the ratio columns divide medians of the same run. Absolute figures depend on the machine; compare
ratios.
"""
from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import pathlib
import pstats
import random
import sys

if importlib.util.find_spec("bean_env") is None:  # not installed: use this checkout (an installed build,
    sys.path.append(str(pathlib.Path(__file__).resolve().parent.parent))  # e.g. the compiled one, wins)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from bean_env import new_game  # noqa: E402
from bean_env.engine import implemented  # noqa: E402
from bean_env.engine.config import OPTIONS, validate  # noqa: E402

import peers  # noqa: E402
from timing import CLOCKS, interleaved, play_for, table  # noqa: E402


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


def describe(variant: str, config: dict) -> str:
    """A row label such as ``bohnanza 4p edition=german``."""
    extra = {k: v for k, v in config.items() if k != "num_players"}
    n = config.get("num_players")
    label = variant + (f" {n}p" if n else "")
    return label + (" " + " ".join(f"{k}={v}" for k, v in extra.items()) if extra else "")


def profile(seconds: float, top: int) -> None:
    """cProfile random 4-player bohnanza play and print the top functions by own time."""
    prof = cProfile.Profile()
    seeds = iter(range(10**9))
    prof.enable()
    play_for(lambda: play_random("bohnanza", next(seeds), {"num_players": 4}), seconds, CLOCKS["cpu"])
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    print(out.getvalue())


def engine_loop(variant: str, config: dict):
    """A game loop of this engine: a new seeded game per call (seeds 0, 1, 2, ...)."""
    seeds = iter(range(10**9))
    return lambda: play_random(variant, next(seeds), config)


PEER_BASELINES = ["rlcard uno (game)", "openspiel hearts (C++)"]


def peer_loops() -> dict:
    loops = {"rlcard uno (game)": peers.rlcard_game_loop("uno"),
             "rlcard uno (env)": peers.rlcard_env_loop("uno"),
             "rlcard bridge (game)": peers.rlcard_game_loop("bridge"),
             "openspiel hearts (C++)": peers.openspiel_loop("hearts"),
             # bridge's default scores each deal with a double-dummy solver, not part of playing it
             "openspiel bridge (C++)": peers.openspiel_loop("bridge", use_double_dummy_result=False)}
    return {k: v for k, v in loops.items() if v is not None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per contender, all rounds (default 2)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    ap.add_argument("--variants", nargs="*", help="only these variants")
    ap.add_argument("--no-peers", action="store_true", help="skip the peer engines")
    ap.add_argument("--profile", action="store_true", help="profile random bohnanza play instead")
    ap.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall time")
    args = ap.parse_args(argv)

    if args.profile:
        profile(args.seconds * 3, args.top)
        return 0
    contenders = {} if args.no_peers else peer_loops()
    for variant, config in configurations(args.variants):
        contenders[describe(variant, config)] = engine_loop(variant, config)
    results = interleaved(contenders, args.seconds, args.rounds, args.clock)
    print(table(results, PEER_BASELINES))
    print(f"\npython {sys.version.split()[0]}; {args.seconds:g} s of {args.clock} time per contender in "
          f"{args.rounds} interleaved rounds; rates are medians over rounds; 'spread' is the range of the "
          "per-round rates over their median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
