"""Training throughput: env steps per second inside sb3-contrib's ``MaskablePPO.learn()``, and the
share of that time spent in the env (the rest is the network: rollouts' forward passes and updates).

    python benchmarks/train_speed.py                          # bean_duel, 8192 steps, both envs
    python benchmarks/train_speed.py --variant bohnanza --num-players 4 --steps 4096 --env single
    python benchmarks/train_speed.py --trainer --n-envs 4 16 --against /tmp/old   # bean-env train's path
    python benchmarks/train_speed.py --learner-backends --n-envs 16    # learner_vec_env: engine vs arrays
    python benchmarks/train_speed.py --both --variant bohnanza --num-players 4 --rules '{"trade_preset": "learning"}'

*single*: ``SingleAgentEnv`` (the learner against uniform random opponents, which need no views);
*selfplay*: the training package's ``SelfPlayEnv`` (opponents drawn from the pool: baselines and
snapshots). Needs the ``train`` extra. Timings are wall-clock with torch limited to one thread, so a
run on a busy machine reads low for both parts alike; the env share is the comparable figure.

``--trainer`` measures what ``bean-env train`` runs: its vector of self-play envs and its MaskablePPO
settings (defaults of ``training.selfplay.Args``: 256-256 tanh networks, rollouts of 2,048 decisions,
the default opponent mix with one snapshot in the pool so that every kind plays), for each ``--n-envs``
(``n_steps`` = 2048 / n_envs, so every update sees the same rollout size); a warm-up ``learn`` first,
then CPU time of ``--steps`` more. ``--against TREE`` measures another checkout too (for example the
commit an earlier figure came from), alternating child processes round by round; ratios of medians.

``--both`` measures both trainers on one variant config: ``bean-env train`` (SB3 MaskablePPO, its defaults:
4 envs, one learner seat per game, the default opponent mix and, as a second row, ``self:0.8,random:0.2``)
and ``bean-env train batched`` (``training/batched_ppo.py``, its defaults: 64 games on the array kernels,
every learner seat as experience, mix ``learner:0.5,self:0.3,random:0.2``) with the flat head and with the
structured offer head (where the catalogue has whole offers). Each in its own child process: learner
decisions (collected and trained on) per CPU second after a warm-up, the wall-time shares of env, forward
(the rollout's policy passes and bookkeeping) and update, and the actor head's parameters. Both use 256-256
tanh actor and critic and 4 epochs per rollout.

``--learner-backends`` measures MaskablePPO (256-256 networks, rollouts of 128 decisions per env) on the
batched learner env ``learner_vec_env`` against uniform random opponents, on the engine (``VectorEnv``)
and on the array kernels (``ArrayVectorEnv``; `al_cabohne`, `bean_duel`, `bean_solitaire`), alternating
round by round; CPU time of ``--steps`` decisions after a warm-up, medians.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import gymnasium


class Timed(gymnasium.Wrapper):
    """Adds up the wall time spent in ``reset``, ``step`` and ``action_masks`` of the wrapped env."""

    def __init__(self, env):
        super().__init__(env)
        self.seconds = 0.0
        self.steps = 0

    def reset(self, **kw):
        t = time.perf_counter()
        out = self.env.reset(**kw)
        self.seconds += time.perf_counter() - t
        return out

    def step(self, action):
        t = time.perf_counter()
        out = self.env.step(action)
        self.seconds += time.perf_counter() - t
        self.steps += 1
        return out

    def action_masks(self):
        t = time.perf_counter()
        out = self.env.unwrapped.action_masks()
        self.seconds += time.perf_counter() - t
        return out


def build_env(kind: str, variant: str, config: dict, seed: int):
    if kind == "single":
        from bean_env.envs.single_agent import SingleAgentEnv
        return SingleAgentEnv(variant, **config)
    from bean_env.training.opponents import OpponentPool, parse_mix
    from bean_env.training.selfplay_env import SelfPlayEnv
    pool = OpponentPool(parse_mix("random:1,heuristic:1"), seed=seed)
    return SelfPlayEnv(variant, config, pool, seed=seed)


def measure(kind: str, variant: str, config: dict, steps: int, seed: int = 0) -> dict:
    """Run ``learn(steps)`` once; env steps/s in learn and the env's share of learn's time."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = Timed(build_env(kind, variant, config, seed))
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=seed, verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    elapsed = time.perf_counter() - start
    return {"env": kind, "steps": env.steps, "seconds": elapsed, "steps_per_s": env.steps / elapsed,
            "env_share": env.seconds / elapsed, "obs_size": env.observation_space.shape[0]}


def trainer_rate(tree: str | None, n_envs: int, steps: int, variant: str, seed: int = 1, mix: str | None = None,
                 num_players: int | None = None, rules: str = "{}", warmup: int = 2048) -> float:
    """Learner decisions per CPU second in ``learn()`` of ``bean-env train``'s env and model (``tree``: a
    checkout whose ``training`` package is measured instead of the installed one)."""
    import dataclasses

    import numpy as np
    import torch
    if tree:
        sys.path.insert(0, tree)
        from training.selfplay import Args, make_vec_env, rule_config  # an older checkout's top level
    else:
        from bean_env.training.selfplay import Args, make_vec_env, rule_config
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    args = dataclasses.replace(Args(), variant=variant, n_envs=n_envs, n_steps=max(1, 2048 // n_envs), seed=seed,
                               num_players=num_players, rules=rules)
    if mix:
        args = dataclasses.replace(args, opponent_mix=mix)
    env = make_vec_env(args, rule_config(args), [])
    obs_n, act_n = env.observation_space.shape[0], int(env.action_space.n)
    rng = np.random.default_rng(seed)  # an untrained snapshot, so "self" seats play a network
    sizes = [obs_n, 256, 256, act_n]
    layers = [(rng.normal(0, 0.05, (b, a)).astype(np.float32), np.zeros(b, np.float32))
              for a, b in zip(sizes, sizes[1:])]
    env.env_method("add_snapshot", layers, "tanh", {})
    hidden = [256, 256]
    model = MaskablePPO("MlpPolicy", env, learning_rate=args.learning_rate, n_steps=args.n_steps,
                        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
                        gae_lambda=args.gae_lambda, clip_range=args.clip_range, ent_coef=args.ent_coef,
                        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}, "activation_fn": torch.nn.Tanh},
                        seed=seed, device="cpu", verbose=0)
    try:  # the trainer's own learn() context (an older checkout may not have it)
        from bean_env.training.runs import unchecked_distributions as context
        if tree:
            from training.runs import unchecked_distributions as context
    except ImportError:
        context = contextlib.nullcontext
    with context():
        model.learn(warmup)
        start = time.process_time()
        model.learn(steps, reset_num_timesteps=False)
        return steps / (time.process_time() - start)


def compare_trainers(args) -> None:
    """Alternate child processes (this tree, then ``--against``), one measurement each per round."""
    trees = {"this tree": "", "against": args.against} if args.against else {"this tree": ""}
    runs = [(name, n) for name in trees for n in args.n_envs]
    rates: dict = {run: [] for run in runs}
    for r in range(args.rounds):
        for name, n in (runs if r % 2 == 0 else runs[::-1]):
            cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), "--json-trainer", trees[name] or "-",
                   "--n-envs", str(n), "--steps", str(args.steps), "--variant", args.variant, "--rules", args.rules]
            cmd += ["--num-players", str(args.num_players)] if args.num_players else []
            cmd += ["--opponent-mix", args.opponent_mix] if args.opponent_mix else []
            out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                                 env={**os.environ, "OMP_NUM_THREADS": "1"}).stdout
            rates[(name, n)].append(json.loads(out.strip().splitlines()[-1])["rate"])
            print(f"round {r + 1}/{args.rounds}: {name}, {n} envs: {rates[(name, n)][-1]:,.0f} decisions/s",
                  file=sys.stderr, flush=True)
    base = statistics.median(rates[("against", 4)]) if ("against", 4) in rates else None
    print(f"{'tree':10s} {'envs':>18s} {'decisions/s':>12s} {'range':>15s} {'vs against, 4 envs':>19s}")
    for (name, n), values in rates.items():
        med = statistics.median(values)
        print(f"{name:10s} {n:>18d} {med:12,.0f} {f'{min(values):,.0f}-{max(values):,.0f}':>15s} "
              f"{(f'{med / base:.2f}x' if base else '-'):>19s}")
    print(f"\nlearner decisions per CPU second in learn(), {args.variant} {args.num_players or ''} {args.rules}, "
          f"opponents {args.opponent_mix or 'default mix'}, medians of {args.rounds} rounds in "
          f"alternating child processes" + (f"; against = {args.against}" if args.against else ""))


def backend_rate(backend: str, variant: str, n_envs: int, steps: int, seed: int) -> float:
    """Learner decisions per CPU second in ``learn()`` on ``learner_vec_env(..., backend=backend)``."""
    import torch
    from sb3_contrib import MaskablePPO

    from bean_env.vector import learner_vec_env
    torch.set_num_threads(1)
    env = learner_vec_env(variant, n_envs, seed=seed, backend=backend)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=256, n_epochs=2, seed=0, verbose=0, device="cpu",
                        policy_kwargs={"net_arch": [256, 256]})
    model.learn(2 * n_envs * 128)
    start = time.process_time()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.process_time() - start)


class _Clock:
    """Wall seconds spent in wrapped callables."""

    def __init__(self):
        self.seconds = 0.0

    def wrap(self, fn):
        def timed(*a, **kw):
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.seconds += time.perf_counter() - t
        return timed


def sb3_measure(variant: str, num_players: int | None, rules: str, steps: int, mix: str | None,
                seed: int = 1, warmup: int = 2048, **options) -> dict:
    """``bean-env train``'s env and MaskablePPO (its defaults, other ``options`` of its ``Args``): learner
    decisions per CPU second in ``learn()`` and the wall shares of env, forward and update."""
    import dataclasses

    import torch
    from sb3_contrib import MaskablePPO

    from bean_env.training.runs import limit_threads, unchecked_distributions
    from bean_env.training.selfplay import Args, build_model, make_vec_env, rule_config

    limit_threads(1)
    args = dataclasses.replace(Args(), variant=variant, num_players=num_players, rules=rules, seed=seed, **options)
    if mix:
        args = dataclasses.replace(args, opponent_mix=mix)
    env = make_vec_env(args, rule_config(args), [])
    torch.manual_seed(seed)
    model: MaskablePPO = build_model(args, env)
    net = model.policy  # an untrained snapshot in the pool, so "self" seats play a network
    from bean_env.training.export import sb3_policy_net
    snap = sb3_policy_net(model, {})
    env.env_method("add_snapshot", snap.layers, snap.activation, {})
    env_clock, update_clock = _Clock(), _Clock()
    env.step_wait = env_clock.wrap(env.step_wait)
    env.env_method = env_clock.wrap(env.env_method)
    model.train = update_clock.wrap(model.train)
    with unchecked_distributions():
        model.learn(warmup)
        env_clock.seconds = update_clock.seconds = 0.0
        start, wall = time.process_time(), time.perf_counter()
        model.learn(steps, reset_num_timesteps=False)
        cpu, wall = time.process_time() - start, time.perf_counter() - wall
    head = sum(p.numel() for p in net.action_net.parameters())
    return {"rate": steps / cpu, "env": env_clock.seconds / wall, "update": update_clock.seconds / wall,
            "forward": 1 - (env_clock.seconds + update_clock.seconds) / wall, "head_params": head}


def batched_measure(variant: str, num_players: int | None, rules: str, steps: int, head: str,
                    seed: int = 1, **options) -> dict:
    """``bean-env train batched`` (its defaults, ``--head head``, other ``options`` of its ``Args``): learner
    decisions per CPU second over its updates after a warm-up update, and the wall shares of env, forward and
    update."""
    import csv
    import dataclasses
    import tempfile

    import torch

    from bean_env.training.batched_ppo import Args, Trainer, rule_config
    from bean_env.training.policy_model import parameter_counts
    from bean_env.training.runs import Run, limit_threads

    limit_threads(1)
    torch.manual_seed(seed)
    args = Args(variant=variant, num_players=num_players, rules=rules, seed=seed, head=head, progress=False,
                snapshot_every=10 ** 9, checkpoint_every=10 ** 9, **options)
    config = rule_config(args)
    with tempfile.TemporaryDirectory() as tmp:
        run = Run.create(pathlib.Path(tmp) / "run")
        trainer = Trainer(args, run, config, run.write_start(args, variant, config))
        trainer.args = dataclasses.replace(args, total_timesteps=1)  # one warm-up update
        trainer.learn()
        before = trainer.timesteps
        trainer.args = dataclasses.replace(args, total_timesteps=before + steps)
        start = time.process_time()
        trainer.learn()
        cpu = time.process_time() - start
        with (run.path / "progress.csv").open() as fh:
            rows = list(csv.DictReader(fh))[1:]
    seconds = sum(float(r["seconds"]) for r in rows)
    share = {k: sum(float(r[f"{k}_share"]) * float(r["seconds"]) for r in rows) / seconds
             for k in ("env", "forward", "update")}
    return {"rate": (trainer.timesteps - before) / cpu, **share,
            "head_params": parameter_counts(trainer.model)["head"]}


def compare_both(args) -> None:
    """Both trainers on one config, each measurement in its own child process."""
    from bean_env.agents.offer_head import offer_parts
    from bean_env.engine.catalogue import catalogue_for
    from bean_env.engine.config import validate

    rules = json.loads(args.rules)
    if args.num_players:
        rules["num_players"] = args.num_players
    offers = offer_parts(catalogue_for(args.variant, validate(args.variant, rules))) is not None
    runs = [("bean-env train", "default mix"), ("bean-env train", "self:0.8,random:0.2"),
            ("bean-env train batched", "flat")] + ([("bean-env train batched", "offers")] if offers else [])
    results: dict = {run: [] for run in runs}
    for r in range(args.rounds):
        for trainer, what in (runs if r % 2 == 0 else runs[::-1]):
            cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), "--json-both", trainer, what,
                   "--variant", args.variant, "--rules", args.rules, "--steps", str(args.steps)]
            cmd += ["--num-players", str(args.num_players)] if args.num_players else []
            out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                                 env={**os.environ, "OMP_NUM_THREADS": "1"}).stdout
            results[(trainer, what)].append(json.loads(out.strip().splitlines()[-1]))
            print(f"round {r + 1}/{args.rounds}: {trainer}, {what}: {results[(trainer, what)][-1]['rate']:,.0f} "
                  "decisions/s", file=sys.stderr, flush=True)
    base = statistics.median(x["rate"] for x in results[runs[0]])
    print(f"{'trainer':24s} {'mix / head':22s} {'decisions/s':>11s} {'vs train':>9s} {'env':>5s} {'forward':>8s} "
          f"{'update':>7s} {'head params':>12s}")
    for (trainer, what), values in results.items():
        med = statistics.median(x["rate"] for x in values)
        share = {k: statistics.median(x[k] for x in values) for k in ("env", "forward", "update")}
        print(f"{trainer:24s} {what:22s} {med:11,.0f} {med / base:8.1f}x {share['env']:5.0%} {share['forward']:8.0%} "
              f"{share['update']:7.0%} {values[0]['head_params']:12,d}")
    print(f"\nlearner decisions (collected and trained on) per CPU second, {args.variant} {args.num_players or ''} "
          f"{args.rules}, {args.steps} decisions after a warm-up, medians of {args.rounds} round(s) in child "
          "processes; shares of wall time; 'vs train' against bean-env train with its default mix")


def compare_backends(args) -> None:
    rates: dict = {}
    for r in range(args.rounds):
        for n in args.n_envs:
            for backend in (("engine", "arrays") if r % 2 == 0 else ("arrays", "engine")):
                rates.setdefault((n, backend), []).append(backend_rate(backend, args.variant, n, args.steps, r))
    print(f"{'envs':>5s} {'backend':>8s} {'decisions/s':>12s} {'range':>15s} {'vs engine':>10s}")
    for (n, backend), values in sorted(rates.items()):
        med, base = statistics.median(values), statistics.median(rates[(n, "engine")])
        print(f"{n:5d} {backend:>8s} {med:12,.0f} {f'{min(values):,.0f}-{max(values):,.0f}':>15s} "
              f"{med / base:9.2f}x")
    print(f"\nlearner decisions per CPU second in MaskablePPO.learn(), {args.variant}, random opponents, "
          f"medians of {args.rounds} rounds")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bean_duel")
    ap.add_argument("--num-players", type=int, help="player count, where the variant has one")
    ap.add_argument("--steps", type=int, default=8192, help="learner steps per measurement")
    ap.add_argument("--env", choices=["single", "selfplay", "both"], default="both")
    ap.add_argument("--trainer", action="store_true", help="measure bean-env train's env and model instead")
    ap.add_argument("--n-envs", type=int, nargs="*", default=[4, 16], help="with --trainer: envs per run")
    ap.add_argument("--rounds", type=int, default=3, help="with --trainer: alternating rounds")
    ap.add_argument("--against", help="with --trainer: another checkout, measured in alternation")
    ap.add_argument("--rules", default="{}", help="with --trainer: rule options as JSON, as bean-env train takes them")
    ap.add_argument("--opponent-mix", help="with --trainer: another opponent mix than the trainer's default")
    ap.add_argument("--learner-backends", action="store_true",
                    help="learner_vec_env on the engine vs on the array kernels, in MaskablePPO.learn()")
    ap.add_argument("--both", action="store_true",
                    help="bean-env train (SB3) against bean-env train batched (flat and offer heads)")
    ap.add_argument("--json-trainer", help=argparse.SUPPRESS)
    ap.add_argument("--json-both", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.json_both:
        trainer, what = args.json_both
        if trainer == "bean-env train":
            result = sb3_measure(args.variant, args.num_players, args.rules, args.steps,
                                 None if what == "default mix" else what)
        else:
            result = batched_measure(args.variant, args.num_players, args.rules, args.steps, what)
        print(json.dumps(result))
        return 0
    if args.both:
        compare_both(args)
        return 0
    if args.json_trainer:
        tree = None if args.json_trainer == "-" else args.json_trainer
        print(json.dumps({"rate": trainer_rate(tree, args.n_envs[0], args.steps, args.variant,
                                               mix=args.opponent_mix, num_players=args.num_players,
                                               rules=args.rules)}))
        return 0
    if args.trainer:
        compare_trainers(args)
        return 0
    if args.learner_backends:
        compare_backends(args)
        return 0
    config = {"num_players": args.num_players} if args.num_players else {}
    kinds = ["single", "selfplay"] if args.env == "both" else [args.env]
    print(f"{'env':10s} {'steps':>7s} {'seconds':>8s} {'steps/s':>8s} {'env share':>10s} {'obs size':>9s}")
    for kind in kinds:
        r = measure(kind, args.variant, config, args.steps)
        print(f"{kind:10s} {r['steps']:7d} {r['seconds']:8.1f} {r['steps_per_s']:8.0f} {r['env_share']:10.0%} "
              f"{r['obs_size']:9d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
