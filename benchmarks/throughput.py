"""Env throughput: random masked play through PettingZoo's standard ``agent_iter``/``last``/``step``
loop, for every bean_env variant and player count, side by side with PettingZoo's classic envs
(``texas_holdem_v4``, ``leduc_holdem_v4``, ``texas_holdem_no_limit_v6``, ``connect_four_v3``, ``tictactoe_v3``;
``pip install -e ".[bench]"``), in the same process and run.

    python benchmarks/throughput.py                  # 3 s per env
    python benchmarks/throughput.py --seconds 1 --only bohnanza-german-4 --json out.json

Reports steps/s (agent decisions), games/s and steps/game, and each env's steps/s as a ratio of
``texas_holdem_v4``'s. Every env is built once with its standard wrappers and seeded at its first
reset only, then reset per episode, as its users run it (reseeding an RLCard-backed PettingZoo env
rebuilds its game and halves its speed). All envs run in interleaved rounds and report the median of
their per-round rates in CPU time (``benchmarks/timing.py``).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import peers  # noqa: E402
from timing import CLOCKS, interleaved, paired_ratios, table  # noqa: E402

BASELINE = "texas_holdem_v4"


def bean_cases() -> list[tuple[str, str, dict]]:
    """(label, variant, options) for every bean_env variant config."""
    from bean_env.envs import available_variants
    cases = [(f"bohnanza-german-{k}", "bohnanza", {"edition": "german", "num_players": k}) for k in (3, 4, 5)]
    cases += [(f"bohnanza-english-{k}", "bohnanza", {"edition": "english", "num_players": k})
              for k in range(3, 8)]
    cases += [(v, v, {}) for v in available_variants() if v not in ("bohnanza", "hostile_takeover")]
    if "hostile_takeover" in available_variants():
        cases += [(f"hostile_takeover-{k}", "hostile_takeover", {"num_players": k}) for k in (2, 3, 4, 5)]
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per env, all rounds")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    parser.add_argument("--only", nargs="*", help="labels to run (default: all); peers always run")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall time")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)

    from bean_env.envs import make_env
    cases = bean_cases()
    if args.only:
        unknown = set(args.only) - {c[0] for c in cases}
        if unknown:
            parser.error(f"unknown labels {sorted(unknown)}; allowed: {', '.join(c[0] for c in cases)}")
        cases = [c for c in cases if c[0] in args.only]
    loops = peers.pettingzoo_loops()
    for label, variant, options in cases:
        loops[label] = peers.aec_loop(make_env(variant, **options))
    results = interleaved(loops, args.seconds, args.rounds, args.clock)
    print(table(results, [BASELINE], unit="steps/s"))
    print(f"\n{args.seconds:g} s of {args.clock} time per env in {args.rounds} interleaved rounds; medians")
    if args.json:
        base = results.get(BASELINE)
        out = {name: {"steps_per_s": r.rate, "games_per_s": r.games_per_s, "steps_per_game": r.per_game,
                      "rounds": r.rounds, f"ratio_vs_{BASELINE}": r.rate / base.rate if base else None,
                      f"paired_ratios_vs_{BASELINE}": paired_ratios(r, base) if base else None}
               for name, r in results.items()}
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
