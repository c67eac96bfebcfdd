"""Observation encoding speed of this tree against another commit's encoder, interleaved.

    python benchmarks/obs_speed.py --against 0d4dbe3 [--rounds 5] [--games 6]
    python benchmarks/obs_speed.py --against 0d4dbe3 --instructions   # exact counts (needs valgrind)

Commit ``0d4dbe3`` is the last one that still has the v0 encoder (``bean_env.envs.observation`` before the
switch to v1). The other commit's ``bean_env`` is extracted with ``git archive`` into a temporary folder;
then, per round and variant, one process per tree records the states of ``games`` seeded random games with
its own engine and times encoding every state for its acting seat (CPU time, best round per chunk of 200
states, as ``python -m bean_env.envs.obs.bench``), plus, where the encoder has a memory, the cost of
updating it after every action (replay with updates minus replay without). The two trees alternate,
and each figure is the minimum over rounds (the machine may be shared: the least disturbed run).

On a shared machine CPU times of a few percent apart are noise; ``--instructions`` counts the machine
instructions instead (valgrind's callgrind, deterministic, about 50x slower): encoding every state of
``games`` games three times minus once, plus replaying the games with memory updates minus without, per
observation. Instructions are not time (caches, branch prediction), but they do not depend on the load.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = (("bohnanza", {"num_players": 4}), ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}),
         ("hostile_takeover", {"num_players": 4}))

MEASURE = r"""
import json, random, sys, time
from bean_env.engine.game import new_game
from bean_env.envs.observation import encoder_for
variant, config, games = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
states, finished = [], []
for seed in range(games):
    g = new_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    while not g.is_over and not g.is_truncated:
        states.append(g.state.clone())
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    finished.append(g)
enc = encoder_for(finished[0])
mem = enc.new_memory().reset(finished[-1]) if hasattr(enc, "new_memory") else None
seats = [max(s.actor, 0) for s in states]
chunks = [range(i, min(i + 200, len(states))) for i in range(0, len(states), 200)]
best = [float("inf")] * len(chunks)
for _ in range(5):
    for c, chunk in enumerate(chunks):
        a = time.process_time()
        if mem is None:
            for i in chunk:
                enc.encode(states[i], seats[i])
        else:
            for i in chunk:
                enc.encode(states[i], seats[i], mem)
        best[c] = min(best[c], time.process_time() - a)
spent = sum(best)
if mem is not None:
    def replay(follow):
        a = time.process_time()
        for done in finished:
            g = new_game(variant, seed=done.seed, **config)
            m = enc.new_memory().reset(g)
            for action in done.history:
                g.apply(action)
                if follow:
                    m.update(g)
        return time.process_time() - a
    spent += max(min(replay(True) for _ in range(3)) - min(replay(False) for _ in range(3)), 0.0)
print(json.dumps({"us": 1e6 * spent / len(states), "states": len(states), "size": int(enc.size)}))
"""


IR = r"""
import json, random, sys
from bean_env.engine.game import new_game
from bean_env.envs.observation import encoder_for
variant, config, mode = sys.argv[1], json.loads(sys.argv[2]), sys.argv[4]
games, passes = int(sys.argv[3]), int(sys.argv[5])
states, finished = [], []
for seed in range(games):
    g = new_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    while not g.is_over and not g.is_truncated:
        states.append((g.state.clone(), max(g.state.actor, 0)))
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    finished.append(g)
enc = encoder_for(finished[0])
follows = hasattr(enc, "new_memory")
if mode == "encode":
    mem = enc.new_memory().reset(finished[-1]) if follows else None
    for _ in range(passes):
        for s, me in states:
            enc.encode(s, me, mem) if follows else enc.encode(s, me)
elif follows:
    for done in finished:
        g = new_game(variant, seed=done.seed, **config)
        m = enc.new_memory().reset(g)
        for action in done.history:
            g.apply(action)
            if mode == "memory":
                m.update(g)
print(len(states))
"""


def instructions(tree: Path, variant: str, config: dict, games: int) -> float:
    """Machine instructions per observation (encoding plus memory updates), counted by callgrind."""
    import json

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from instructions import count as callgrind

    def count(mode: str, passes: int) -> tuple[int, int]:
        return callgrind([variant, json.dumps(config), str(games), mode, str(passes)], tree, IR)

    (e1, n), (e3, _) = count("encode", 1), count("encode", 3)
    (r1, _), (r0, _) = count("memory", 1), count("replay", 1)
    return ((e3 - e1) / 2 + max(r1 - r0, 0)) / n


def run(tree: Path, variant: str, config: dict, games: int) -> dict:
    import json
    import os

    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", MEASURE, variant, json.dumps(config), str(games)], env=env,
                         capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="0d4dbe3", help="git commit whose encoder is the reference")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per variant")
    parser.add_argument("--games", type=int, default=6, help="seeded random games per measurement")
    parser.add_argument("--variants", help="comma-separated variants (default: all five)")
    parser.add_argument("--instructions", action="store_true",
                        help="count machine instructions with valgrind instead of timing (exact, slow)")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.variants or c[0] in args.variants.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        ref = Path(tmp)
        archive = subprocess.run(["git", "archive", args.against, "bean_env"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(ref)], input=archive, check=True)
        if args.instructions:
            print(f"| variant | {args.against} instructions/obs | this tree instructions/obs | ratio |")
            print("|---|---:|---:|---:|")
            for variant, config in cases:
                a = instructions(ref, variant, config, args.games)
                b = instructions(ROOT, variant, config, args.games)
                label = f"`{variant}`" + (f", {config['num_players']} players" if config else "")
                print(f"| {label} | {a:,.0f} | {b:,.0f} | {b / a:.2f} |", flush=True)
            return 0
        print(f"| variant | {args.against} us/obs | this tree us/obs | ratio | sizes |")
        print("|---|---:|---:|---:|---|")
        for variant, config in cases:
            mine, theirs = [], []
            for _ in range(args.rounds):
                theirs.append(run(ref, variant, config, args.games))
                mine.append(run(ROOT, variant, config, args.games))
            a, b = min(r["us"] for r in theirs), min(r["us"] for r in mine)
            label = f"`{variant}`" + (f", {config['num_players']} players" if config else "")
            print(f"| {label} | {a:.1f} | {b:.1f} | {b / a:.2f} | {theirs[0]['size']} -> {mine[0]['size']} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
