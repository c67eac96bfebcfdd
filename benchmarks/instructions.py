"""Machine instructions per decision, counted by valgrind's callgrind: the engine, the AEC env and the
batched env (``bean_env.vector``) on the same random games, independent of the machine's load.

    python benchmarks/instructions.py                                   # 4-player bohnanza, all three
    python benchmarks/instructions.py --variant bean_duel --what aec vector --sizes 8 64
    python benchmarks/instructions.py --what aec vector --stub-encoder   # the same without observations
    python benchmarks/instructions.py --what aec arrays --sizes 64      # the array kernels (numba)

Timings on a shared machine scatter by tens of percent between rounds; instruction counts repeat to
within 1-2% (address-dependent dict layouts, even with hash randomisation off), so they are what
``docs/envs.md`` compares code changes by. Each figure runs its loop twice under callgrind, with no
games and with ``--games`` games (or ``--steps`` batched steps), and divides the difference by the
decisions made; imports and set-up cancel out. Needs ``valgrind`` on the PATH; about 50x slower than
running natively.

*engine*: ``Game.legal_actions`` / ``Game.apply`` with a uniformly random legal action (every engine
decision, forced ones included). *aec*: ``benchmarks/throughput.py``'s ``agent_iter``/``last``/``step``
loop (the action drawn from the mask; forced decisions applied inside ``step``). *vector*: ``VectorEnv``
with N games and its batched uniform random policy, per stepped game. ``--stub-encoder`` replaces the
observation encoder by one that writes nothing (the AEC env's per-state encoder, the batched env's
batch encoder), to show what the rest of the step costs. *arrays*: ``ArrayVectorEnv`` likewise (its
compiled encoder is not stubbed). numba compiles for the CPU it sees, and under valgrind it sees another
one, so its cache would miss and the kernels would compile under callgrind: the arrays runs compile for
a generic x86-64 CPU (``NUMBA_CPU_NAME=generic``), once natively before they are counted (about two
minutes the first time, then cached), so their counts are those of that build.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# the measured loops, run as ``python -c CHILD what variant config units stub [size]``; print the decisions
CHILD = r"""
import json, random, sys
import numpy as np
what, variant, config = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
units, stub = int(sys.argv[4]), sys.argv[5] == "1"
rng = random.Random(0)
if what == "engine":
    from bean_env import new_game
    n = 0
    for g in range(units):
        game = new_game(variant, seed=g, **config)
        while not game.is_over and not game.is_truncated:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            n += 1
elif what == "aec":
    sys.path.insert(0, "benchmarks")  # run from the tree: throughput.py's loop itself
    import peers
    from bean_env.envs import make_env
    env = make_env(variant, **config)
    if stub:
        size = env.unwrapped.encoder.size
        env.unwrapped.encoder.encode_new = lambda s, me, memory=None: np.zeros(size, np.float32)
    play = peers.aec_loop(env)
    play()  # warm: the first game builds the caches every later one reuses
    n = sum(play() for _ in range(units))
else:  # vector, arrays
    size = int(sys.argv[6])
    from bean_env.vector import ArrayVectorEnv, VectorEnv, uniform_random_policy
    if stub:
        from bean_env.envs.obs.batch import BatchEncoder
        BatchEncoder.encode = lambda self, states, me, memories=None, out=None: (
            out if out is not None else np.zeros((len(states), self.size), np.float32))
    vec = (ArrayVectorEnv if what == "arrays" else VectorEnv)(variant, size, **config)
    if stub:  # vector only
        for e in vec.envs:
            e.encoder.encode = lambda s, me, memory=None, out=None: out
    policy = uniform_random_policy(0)
    obs, masks, _ = vec.reset(seed=0)
    for _ in range(max(1, 3000 // size)):  # past the games' openings: a steady mix of decisions
        obs, masks, *_ = vec.step(policy(obs, masks))
    for _ in range(units):
        obs, masks, *_ = vec.step(policy(obs, masks))
    n = units * size
print(n)
"""


GENERIC_CPU = {"NUMBA_CPU_NAME": "generic"}  # the arrays runs' numba target, natively and under valgrind


def count(args: list[str], tree: pathlib.Path, code: str = CHILD) -> tuple[int, int]:
    """(instructions, the last number it printed) of ``python -c code *args`` run under callgrind with
    ``tree`` as its working folder and import path (also used by ``obs_speed.py --instructions``)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0", **GENERIC_CPU)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code, *args]
    if shutil.which("setarch"):  # fixed addresses: fewer layout-dependent differences between runs
        cmd = ["setarch", "-R", *cmd]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tree)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode or not found:
        raise RuntimeError(f"callgrind run failed ({' '.join(args[:2])}):\n{out.stderr[-2000:]}")
    return int(found.group(1)), int(out.stdout.split()[-1])


def per_decision(what: str, variant: str, config: dict, units: int, stub: bool, size: int = 0,
                 tree: pathlib.Path = ROOT) -> tuple[float, int]:
    """(instructions per decision, decisions counted) of ``what`` over ``units`` games or steps."""
    base = [what, variant, json.dumps(config)]
    tail = ["1" if stub else "0"] + ([str(size)] if what in ("vector", "arrays") else [])
    if what == "arrays":  # compile (or find cached) the kernels natively, for the CPU valgrind shows
        env = dict(os.environ, PYTHONPATH=str(tree), **GENERIC_CPU)
        warm = subprocess.run([sys.executable, "-c", CHILD, *base, "0", *tail], env=env, cwd=tree,
                              capture_output=True, text=True)
        if warm.returncode:
            raise RuntimeError(f"arrays: the native warm-up failed:\n{warm.stderr[-2000:]}")
    i0, _ = count(base + ["0"] + tail, tree)
    i1, n = count(base + [str(units)] + tail, tree)
    if n <= 0:
        raise RuntimeError(f"{what}: no decisions were made; raise --games or --steps")
    return (i1 - i0) / n, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="bohnanza")
    parser.add_argument("--num-players", type=int, help="player count (default: 4 where the variant has one)")
    parser.add_argument("--rules", default="{}", help="other rule options as JSON")
    parser.add_argument("--what", nargs="+", choices=["engine", "aec", "vector", "arrays"],
                        default=["engine", "aec", "vector"])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64], help="games side by side for vector, arrays")
    parser.add_argument("--games", type=int, default=4, help="games counted for engine and aec")
    parser.add_argument("--steps", type=int, default=40, help="batched steps counted for vector, arrays")
    parser.add_argument("--stub-encoder", action="store_true", help="observations that cost nothing")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    from bean_env.engine.config import OPTIONS
    try:
        config = json.loads(args.rules)
    except json.JSONDecodeError as err:
        parser.error(f"--rules is not JSON: {err}")
    if not isinstance(config, dict):
        parser.error("--rules must be a JSON object")
    seats = OPTIONS.get(args.variant, {}).get("num_players")
    if args.num_players is not None:
        config["num_players"] = args.num_players
    elif seats is not None and "num_players" not in config and seats.check(4):
        config["num_players"] = 4
    from bean_env.engine.config import validate
    try:
        validate(args.variant, config)  # a bad variant or option is refused before anything runs
    except (ValueError, TypeError) as err:
        parser.error(str(err))
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt install valgrind)")
    rows = []
    for what in args.what:
        if what in ("engine", "arrays") and args.stub_encoder:
            continue  # the engine has no observations; the kernels' are compiled in
        batched = what in ("vector", "arrays")
        for size in (args.sizes if batched else [0]):
            units = args.steps if batched else args.games
            ipd, n = per_decision(what, args.variant, config, units, args.stub_encoder, size)
            label = f"{what} N = {size}" if batched else what
            rows.append({"what": label, "decisions": n, "instructions_per_decision": round(ipd)})
    stub = ", encoder stubbed" if args.stub_encoder else ""
    print(f"{args.variant} {json.dumps(config)}{stub}\n")
    print("| loop | decisions counted | instructions per decision |\n|---|---:|---:|")
    for r in rows:
        print(f"| {r['what']} | {r['decisions']:,} | {r['instructions_per_decision']:,} |")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
