"""Multi-seat self-play with Ray RLlib PPO (current RLModule API): the recommended trainer for 3-7 players.

    bean-env train rllib --variant bohnanza --num-players 4 --rules '{"trade_preset": "learning"}' \
        --reward-mode dense --opponent-mix learner:0.7,self:0.15,heuristic:0.15 --iterations 200
    bean-env train rllib --address ray://head:10001 --num-env-runners 32 ...

The AEC env is exposed to RLlib as a ``MultiAgentEnv`` (``BeanMultiAgentEnv``) whose observations are
``{"observations": vector, "action_mask": float mask}``. Every *learner seat* maps to the one policy
``shared`` (parameter sharing; ``MaskedPPOTorchRLModule`` sets illegal logits to a huge negative value),
so all of those seats' decisions are experience, each seat with its own rewards (delivered with its next
observation or at the end of the game), for any number of players. ``--opponent-mix`` mixes frozen
snapshots (``self``) and baseline agents into the other seats, played inside the env. The MaskablePPO
trainer (``bean-env train``) learns from one seat per game; this one learns from every learner seat.

Runs on a local Ray instance by default, on a cluster with ``--address``. The run directory (printed at the
start; a second run with the same name is refused unless ``--resume``/``--overwrite``) gets TensorBoard logs
(``tb/``), ``progress.csv``, ``provenance.json``, snapshots, the same ``eval.csv`` as the MaskablePPO
trainer (one row per evaluated policy, argmax and sampled play, Wilson intervals, labelled with the learner
decisions it was trained on), RLlib checkpoints with a sha256 manifest (``--resume`` refuses any file the
run did not write, since RLlib checkpoints hold pickled state) and the policy file pair
``policy.pt``/``policy.json`` for the ``ppo`` agent. Ctrl-C or ``--time-limit`` still export the latest policy.
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from bean_env.agents.ppo import PolicyNet, save_policy

from ..evaluate import policy_row
from ..league import split_mix
from ..options import RunArgs, add_arguments, hidden_widths
from ..runs import (EvalLog, Run, RunDirError, ScalarLog, deadline_after, export_and_evaluate, limit_threads,
                    named_options, resumed, sha256, stop_point, stop_reason, stop_signals)
from ..selfplay import describe, eval_opponents
from .env import POLICY_ID, BeanMultiAgentEnv

ENV_NAME = "bean_env_multi_agent"


@dataclass
class Args(RunArgs):
    seed: int = 1
    """seed of RLlib (env runners, network initialisation), the seat draws and the evaluation games"""
    iterations: int = 20
    """training iterations (one train batch each), in total counting a resumed run's earlier ones"""
    train_batch: int = 4000
    """env steps per training iteration (all learner seats together)"""
    minibatch: int = 256
    """SGD minibatch size"""
    epochs: int = 4
    """passes over each train batch"""
    lr: float = 3e-4
    """learning rate"""
    gamma: float = 0.995
    """discount factor"""
    entropy: float = 0.01
    """entropy coefficient"""
    hidden: str = "256,256"
    """hidden layer widths (actor and critic encoders)"""
    reward_mode: str = "win"
    """env reward mode ('win', 'score', 'margin', 'dense')"""
    win_bonus: float = 0.0
    """with reward_mode 'dense': this times the 'win' reward at the end of a game"""
    opponent_mix: str = "learner:1"
    """per seat and game: 'learner' = the shared policy being trained (every learner seat's decisions are
    experience), 'self' = a frozen snapshot, or a baseline agent, e.g. 'learner:0.7,self:0.15,heuristic:0.15'"""
    snapshot_every: int = 5
    """iterations between learner snapshots added to the opponent pool (used when the mix has 'self')"""
    max_snapshots: int = 8
    """snapshots kept in each env's pool"""
    eval_every: int = 5
    """iterations between evaluations against the baselines (0 = only at the end)"""
    eval_games: int = 100
    """games per evaluation, opponent and play mode"""
    eval_opponents: str = "random,heuristic"
    """baseline agents to evaluate against (the mafia alone in bean_solitaire)"""
    num_env_runners: int = 0
    """remote env runner actors (0 = sample in the driver process)"""
    num_cpus: Optional[int] = None
    """CPUs of the local Ray instance (default: all; ignored with --address)"""
    address: Optional[str] = None
    """address of a running Ray cluster (default: start a local instance)"""
    checkpoint_every: int = 10
    """iterations between checkpoints"""


def parse_args(argv: list[str] | None = None, prog: str = "python -m bean_env.training.rllib") -> Args:
    parser = add_arguments(argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0]), Args)
    args = Args(**vars(parser.parse_args(argv)))
    args._given = named_options(parser, argv)  # type: ignore[attr-defined]  # a resumed run keeps the others
    return args


def build_config(args: Args, rules: dict, snapshot_dir: Path | None = None):
    """The ``PPOConfig`` of a run."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from .module import MaskedPPOTorchRLModule

    register_env(ENV_NAME, lambda cfg: BeanMultiAgentEnv(cfg))
    hidden = hidden_widths(args.hidden)
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                          model_config={"fcnet_hiddens": hidden, "fcnet_activation": "tanh",
                                        "head_fcnet_hiddens": [], "vf_share_layers": False})
    env_config = {"variant": args.variant, "rules": rules, "reward_mode": args.reward_mode,
                  "win_bonus": args.win_bonus, "opponent_mix": args.opponent_mix, "seed": args.seed,
                  "max_snapshots": args.max_snapshots,
                  "snapshot_dir": str(snapshot_dir.resolve()) if snapshot_dir is not None else None}
    return (
        PPOConfig()
        .framework("torch")
        .environment(ENV_NAME, env_config=env_config)
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=1)
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=lambda agent_id, *a, **k: POLICY_ID)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY_ID: module}))
        .training(train_batch_size_per_learner=args.train_batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr, gamma=args.gamma, lambda_=0.95,
                  entropy_coeff=args.entropy)
        .debugging(seed=args.seed)
    )


def actor_layers(module) -> list[tuple[np.ndarray, np.ndarray]]:
    """The linear layers of the actor path of an RLlib PPO torch module: actor encoder, then pi head."""
    import torch.nn as nn

    encoder = module.encoder
    actor = getattr(encoder, "actor_encoder", None) or getattr(encoder, "encoder")
    layers = [m for part in (actor, module.pi) for m in part.modules() if isinstance(m, nn.Linear)]
    for part in (actor, module.pi):
        for m in part.modules():
            if isinstance(m, (nn.ReLU, nn.LayerNorm)):
                raise ValueError(f"cannot export an actor with {type(m).__name__}; use tanh and no layer norm")
    return [(m.weight.detach().cpu().numpy().copy(), m.bias.detach().cpu().numpy().copy()) for m in layers]


def policy_meta(variant: str, rules: dict, training: dict | None = None, prov: dict | None = None) -> dict:
    meta = {"variant": variant, "config": dict(rules), "activation": "tanh",
            "algorithm": "PPO (Ray RLlib, new API stack)", "training": dict(training or {})}
    if prov is not None:
        meta.update(provenance=prov, layout_hash=prov["layout_hash"])
    return meta


def export_rllib(algo, path: str | Path, variant: str, rules: dict, training: dict | None = None,
                 prov: dict | None = None) -> Path:
    """Write the shared policy's actor as a policy file pair for the ``ppo`` agent."""
    return save_policy(path, actor_layers(algo.get_module(POLICY_ID)), policy_meta(variant, rules, training, prov))


def rllib_policy_net(algo, variant: str, rules: dict, training: dict | None = None,
                     prov: dict | None = None) -> PolicyNet:
    """An in-memory ``PolicyNet`` of the shared policy's current actor."""
    layers = actor_layers(algo.get_module(POLICY_ID))
    meta = dict(policy_meta(variant, rules, training, prov), obs_size=int(layers[0][0].shape[1]),
                num_actions=int(layers[-1][0].shape[0]), hidden=[int(w.shape[0]) for w, _ in layers[:-1]])
    return PolicyNet(layers, "tanh", meta)


def _scalars(result: dict) -> dict[str, float]:
    """The numeric training metrics worth a TensorBoard curve."""
    out = {}
    runners = result.get("env_runners", {})
    for k in ("episode_return_mean", "episode_len_mean", "num_env_steps_sampled_lifetime", "num_episodes_lifetime"):
        if isinstance(runners.get(k), (int, float)):
            out[f"env_runners/{k}"] = float(runners[k])
    learner = result.get("learners", {}).get(POLICY_ID, {})
    for k in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "curr_kl_coeff", "vf_explained_var"):
        v = learner.get(k)
        if isinstance(v, (int, float)) or (hasattr(v, "item") and getattr(v, "ndim", 1) == 0):
            out[f"learner/{k}"] = float(v)
    return out


def _checkpoint(algo, run: Run, state: dict) -> None:
    """Save the algorithm and a sha256 manifest of every file it wrote (checked before any resume)."""
    ckpt = run.path / "checkpoint"
    algo.save_to_path(str(ckpt.resolve()))
    files = {str(p.relative_to(ckpt)): sha256(p) for p in sorted(ckpt.rglob("*")) if p.is_file()}
    (run.path / "checkpoint_manifest.json").write_text(json.dumps({"files": files}, indent=1) + "\n")
    run.state_file.write_text(json.dumps(state, indent=2) + "\n")


def verify_checkpoint(run: Run) -> Path:
    """The checkpoint folder of a run, after checking every file against the run's manifest (RLlib
    checkpoints hold pickled state: only files this run wrote are ever loaded)."""
    ckpt = run.path / "checkpoint"
    manifest_path = run.path / "checkpoint_manifest.json"
    if not manifest_path.exists():
        raise RunDirError(f"--resume {run.path}: no checkpoint_manifest.json (a checkpoint written by an older "
                          "version or by hand is not loaded: RLlib checkpoints can run code when loaded)")
    try:
        files = json.loads(manifest_path.read_text())["files"]
    except (ValueError, KeyError, TypeError):
        raise RunDirError(f"{manifest_path}: malformed manifest") from None
    present = {str(p.relative_to(ckpt)) for p in ckpt.rglob("*") if p.is_file()}
    if present != set(files):
        raise RunDirError(f"{ckpt}: files differ from the manifest (added: {sorted(present - set(files))[:3]}, "
                          f"missing: {sorted(set(files) - present)[:3]}); refusing to load it")
    for name, digest in files.items():
        if sha256(ckpt / name) != digest:
            raise RunDirError(f"{ckpt / name}: sha256 differs from the run's manifest; refusing to load it")
    return ckpt


def train(args: Args) -> Path:
    """Run (or resume) an RLlib self-play run; returns its run directory."""
    import ray
    import torch

    from bean_env.engine.config import validate

    if args.resume:
        run = Run.open(Path(args.resume))
        saved = json.loads(run.state_file.read_text())
        args = resumed(args, saved["args"])
        ckpt = verify_checkpoint(run)
    try:  # bad options fail here, before a run directory is made
        rules = json.loads(args.rules)
    except json.JSONDecodeError as exc:
        raise ValueError(f"bad value {args.rules!r} for --rules: not JSON ({exc})") from None
    if not isinstance(rules, dict):
        raise ValueError(f"bad value {args.rules!r} for --rules: expected a JSON object")
    if args.num_players is not None:
        rules["num_players"] = args.num_players
    rules = validate(args.variant, rules)
    split_mix(args.opponent_mix)
    hidden_widths(args.hidden)
    opponents = eval_opponents(args, rules)
    if not args.resume:
        name = args.run_name or f"rllib_{args.variant}__{args.seed}__{int(time.time())}"
        run = Run.create(Path(args.out_dir) / name, overwrite=args.overwrite)
    print(f"run directory: {run.path}  (tensorboard --logdir {run.path})", flush=True)
    limit_threads(args.torch_threads)
    prov = run.write_start(args, args.variant, rules)
    log = EvalLog(run.eval_csv, opponents)
    deadline = deadline_after(args.time_limit)

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    scalars = ScalarLog(run.path / "tb")
    stopped = None
    try:
        algo = build_config(args, rules, run.snapshots).build_algo()
        done, steps = 0, 0
        if args.resume:
            algo.restore_from_path(str(ckpt.resolve()))
            done, steps = saved["iterations"], saved.get("timesteps", 0)

        def net() -> PolicyNet:
            return rllib_policy_net(algo, args.variant, rules, {"timesteps": steps, "iterations": done}, prov)

        def evaluate(label: str) -> dict | None:
            if log.has(steps):
                return None
            row = policy_row(net(), args.variant, rules, opponents, args.eval_games, 10_000 + args.seed, label, steps)
            log.append(row)
            scalars.add("eval", row, steps, skip=("timesteps", "seed"))
            return row

        def state() -> dict:
            return {"iterations": done, "timesteps": steps, "args": dataclasses.asdict(args), "config": rules,
                    "stopped": stopped}

        if "self" in args.opponent_mix and not run.snapshot_files():
            save_policy(run.snapshots / f"snap_{steps}", net().layers, net().meta)
        new = not (run.path / "progress.csv").exists()
        start = time.time()
        with (run.path / "progress.csv").open("a", newline="") as fh:
            out = csv.writer(fh)
            if new:
                out.writerow(["iteration", "env_steps", "episodes", "episode_return_mean", "seconds"])
            try:
                # Ctrl-C, kill -INT or -TERM: stop after the current iteration, then save, export and evaluate
                with stop_signals(graceful=True) as signals:
                    for it in range(done + 1, args.iterations + 1):
                        result = algo.train()
                        done = it
                        metrics = _scalars(result)
                        steps = int(metrics.get("env_runners/num_env_steps_sampled_lifetime", steps))
                        scalars.add("", metrics, steps)
                        runners = result.get("env_runners", {})
                        out.writerow([it, steps, runners.get("num_episodes_lifetime", ""),
                                      runners.get("episode_return_mean", ""), round(time.time() - start, 1)])
                        fh.flush()
                        print(f"iteration {it}: {steps} learner decisions, episode return mean "
                              f"{runners.get('episode_return_mean')}", flush=True)
                        if "self" in args.opponent_mix and it % args.snapshot_every == 0:
                            n = net()
                            save_policy(run.snapshots / f"snap_{steps}", n.layers, n.meta)
                        if args.eval_every > 0 and it % args.eval_every == 0 and it < args.iterations:
                            evaluate(f"iteration_{it}")
                        if it % args.checkpoint_every == 0:
                            _checkpoint(algo, run, state())
                        stopped = stop_point(deadline, args.time_limit, signals)
                        if stopped is not None:
                            break
            except KeyboardInterrupt as exc:  # a second signal: stopped at once
                stopped = stop_reason(exc)
            if stopped in stop_signals.REASONS.values():
                print(f"\n{stopped} after iteration {done}: saving and exporting the latest policy "
                      "(Ctrl-C again to skip the final evaluation)", flush=True)
        _checkpoint(algo, run, state())
        training = {"timesteps": steps, "iterations": done, "args": dataclasses.asdict(args), "stopped": stopped,
                    "cpu_seconds": round(time.process_time(), 1), "wall_seconds": round(time.time() - start, 1)}
        targets = [run.path / "policy"] + ([Path(args.export)] if args.export else [])
        row = export_and_evaluate(lambda path, meta: export_rllib(algo, path, args.variant, rules, meta, prov),
                                  targets, training, evaluate, log, steps)
        if row is not None:
            print(f"eval after {steps} learner decisions: {describe(row, opponents)}")
        algo.stop()
    finally:
        scalars.close()
        ray.shutdown()
    if stopped:
        print(f"stopped early: {stopped}")
    print(f"run directory: {run.path}")
    return run.path


def main(argv: list[str] | None = None, prog: str = "python -m bean_env.training.rllib") -> None:
    train(parse_args(argv, prog))


if __name__ == "__main__":
    main()
