"""Self-play training with MaskablePPO (sb3-contrib) for any implemented variant and player count.

    python -m bean_env.training.selfplay --variant bean_duel --total-timesteps 1000000 --seed 1
    bean-env train --variant bohnanza --num-players 5 --opponent-mix self:0.6,heuristic:0.4

The learner plays one seat per episode (rotating); the other seats are drawn from an opponent pool of
frozen learner snapshots and baseline agents (``training/opponents.py``, ``training/selfplay_env.py``).
A run directory ``runs/<run name>/`` (printed at the start) gets TensorBoard logs (``tb/``), checkpoints
(``checkpoints/``: plain tensors and a hash manifest, resumable with ``--resume``, which takes the network and
the PPO settings from the checkpoint; no pickle is ever loaded), snapshots, ``provenance.json`` (git commit,
versions, observation layout hash), ``eval.csv`` (one row per evaluated policy: win rates with 95% Wilson
intervals against each baseline, argmax and sampled play) and the policy file pair
``policy.pt``/``policy.json`` for the ``ppo`` agent. A second run with the same name is refused unless
``--resume`` or ``--overwrite``. Ctrl-C (also ``kill -INT`` of a background run), ``kill -TERM`` or
``--time-limit`` stop the run early and still export the latest policy (and a checkpoint to resume from).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from bean_env.agents.ppo import PolicyFileError, PolicyNet, PPOAgent, encoder_of, layout_hash, save_policy
from bean_env.engine.trade_stats import TRADING_VARIANTS

from .options import RunArgs, add_arguments, agent_spec, hidden_widths
from .runs import (EvalLog, Run, RunDirError, deadline_after, export_and_evaluate, limit_threads, named_options,
                   resumed, scalar_items, stop_point, stop_reason, stop_signals, unchecked_distributions)


@dataclass
class Args(RunArgs):
    seed: int = 1
    """seed of everything: envs, opponents, network initialisation, evaluation games"""
    total_timesteps: int = 500_000
    """learner decisions to train for (in total, counting a resumed run's earlier steps)"""
    n_envs: int = 4
    """parallel self-play envs (in one process)"""
    n_steps: int = 512
    """rollout length per env and PPO update"""
    batch_size: int = 256
    """minibatch size of the PPO update"""
    n_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate"""
    gamma: float = 0.995
    """discount factor (rewards come at the end of a game of ~100-300 decisions)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clipping range"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    hidden: str = "256,256"
    """widths of the hidden layers of the actor and of the critic"""
    reward_mode: str = "win"
    """env reward: 'win' (+1 win / -1 loss), 'score', 'margin' or 'dense' (coins as earned; see bean_env.envs.aec)"""
    win_bonus: float = 0.0
    """with reward_mode 'dense': this times the 'win' reward at the end of a game"""
    relative_reward: bool = False
    """training-only shaping: the learner's reward minus the mean of the other seats' rewards at the same
    step (with dense rewards: coins earned relative to the opponents)"""
    gift_penalty: float = 0.0
    """training-only shaping: the learner loses this for every card it receives as a gift, after
    --relative-reward (0 = off)"""
    trade_bonus: float = 0.0
    """training-only shaping: the learner gains this for every executed trade in which it both gave and
    received cards (0 = off)"""
    opponent_mix: str = "self:0.5,heuristic:0.3,random:0.2"
    """opponent kinds per seat and episode with weights; 'self' = a frozen learner snapshot"""
    snapshot_every: int = 25_000
    """timesteps between learner snapshots added to the opponent pool"""
    max_snapshots: int = 8
    """snapshots kept in the pool (the first and the newest)"""
    eval_every: int = 25_000
    """timesteps between evaluations against random and heuristic (0 = only at the end)"""
    eval_games: int = 100
    """games per evaluation and opponent"""
    eval_opponents: str = "auto"
    """baseline agents to evaluate against, comma-separated specs; auto: random and heuristic, and in
    bohnanza also heuristic:trading=fair, the opponent that gives nothing away (ignored in bean_solitaire:
    the mafia is the opponent)"""
    checkpoint_every: int = 50_000
    """timesteps between resumable checkpoints"""
    init_policy: Optional[str] = None
    """start a new run's network from an imitation run directory (``python -m bean_env.training.imitate``:
    actor and critic), or its actor from a policy file pair or finished run directory, or from 'shipped'
    (the policy shipped for this variant config); same variant config and --hidden; ignored by --resume"""
    critic_warmup: Optional[int] = None
    """timesteps at the start in which only the critic learns (the actor frozen); default: two rollouts
    when --init-policy gives only an actor (a policy file), else 0"""
    progress: bool = True
    """show a progress bar"""


EPILOG = """This is the SB3 path (sb3-contrib MaskablePPO, the learner in one seat per game), for users who want SB3.

other trainers:
  bean-env train batched [OPTIONS]  the recommended trainer on one machine: batched self-play PPO on the
                                    array kernels, every learner seat as experience (docs/training.md);
                                    'bean-env train batched --help' lists its options
  bean-env train rllib [OPTIONS]    for clusters: multi-seat self-play with Ray RLlib PPO, one shared policy
                                    learns from every seat of each game; needs the ray extra;
                                    'bean-env train rllib --help' lists its options"""


def parse_args(argv: list[str] | None = None, prog: str = "python -m bean_env.training.selfplay") -> Args:
    parser = add_arguments(argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0], epilog=EPILOG,
                                                   formatter_class=argparse.RawDescriptionHelpFormatter), Args)
    args = Args(**vars(parser.parse_args(argv)))
    args._given = named_options(parser, argv)  # type: ignore[attr-defined]  # a resumed run keeps the others
    return args


def rule_config(args: Args) -> dict:
    """The variant's full rule config from the arguments (validated by the engine)."""
    from bean_env.engine.config import validate

    try:
        config = json.loads(args.rules)
    except json.JSONDecodeError as exc:
        raise ValueError(f"bad value {args.rules!r} for --rules: not JSON ({exc})") from None
    if not isinstance(config, dict):
        raise ValueError(f"bad value {args.rules!r} for --rules: expected a JSON object")
    if args.num_players is not None:
        config["num_players"] = args.num_players
    return validate(args.variant, config)


# -- the run --------------------------------------------------------------------------------------------
def eval_opponents(args: Args, config: dict) -> list[str]:
    """The baselines a run evaluates against (the mafia alone in one-seat variants); a ``ValueError`` names
    an agent spec the registry refuses."""
    if config["num_players"] == 1:
        return ["mafia"]
    if args.eval_opponents == "auto":
        return ["random", "heuristic"] + (["heuristic:trading=fair"] if args.variant in TRADING_VARIANTS else [])
    return [agent_spec("--eval-opponents", o.strip()) for o in args.eval_opponents.split(",") if o.strip()]


def evaluate_policy(net: PolicyNet, args: Args, config: dict, label: str, timesteps: int) -> dict:
    """One ``eval.csv`` row for ``net`` (see ``training.evaluate.policy_row``)."""
    from .evaluate import policy_row

    return policy_row(net, args.variant, config, eval_opponents(args, config), args.eval_games,
                      10_000 + args.seed, label, timesteps)


def describe(row: dict, opponents: list[str]) -> str:
    """One line summary of an ``eval.csv`` row (values may be numbers or the CSV's strings)."""
    parts = []
    for o in opponents:
        v = {k: float(row[f"{o}_{k}"]) for k in ("argmax_games", "argmax_wins", "argmax_win_rate", "argmax_ci_low",
                                                 "argmax_ci_high", "sampled_wins", "sampled_win_rate",
                                                 "argmax_mean_score", "argmax_trades", "argmax_gifts_received")}
        g = int(v["argmax_games"])
        parts.append(f"vs {o}: argmax {int(v['argmax_wins'])}/{g} ({v['argmax_win_rate']:.0%}, 95% CI "
                     f"{v['argmax_ci_low']:.0%}-{v['argmax_ci_high']:.0%}), sampled {int(v['sampled_wins'])}/{g} "
                     f"({v['sampled_win_rate']:.0%}), mean score {v['argmax_mean_score']}, "
                     f"{v['argmax_trades']:.1f} trades a game ({v['argmax_gifts_received']:.1f} gifts received)")
    return "; ".join(parts)


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    from .export import sb3_policy_net

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the pool, periodic evaluation, checkpoints, the time limit and the progress bar.

        Snapshots, evaluations and checkpoints happen at the start of a rollout, when the network is the
        one just updated on exactly ``num_timesteps`` learner decisions: that is the label it gets."""

        def __init__(self, args: Args, run: Run, config: dict, meta: dict):
            super().__init__()
            self.args, self.run, self.config, self.base_meta = args, run, config, meta
            self.bar = None
            self.deadline = None
            self.signals: stop_signals | None = None  # a graceful stop request is read at every step
            self.stopped: str | None = None
            self.trained_on = 0  # learner decisions the current network was updated on
            self.next_snapshot = self.next_eval = self.next_checkpoint = 0
            self.log = EvalLog(run.eval_csv, eval_opponents(args, config))
            self.warmup = warmup_steps(args, config)  # the actor is frozen before this many timesteps
            self.frozen = False

        def meta(self) -> dict:
            return dict(self.base_meta, training={"timesteps": int(self.model.num_timesteps), "seed": self.args.seed})

        def net(self) -> PolicyNet:
            return sb3_policy_net(self.model, self.meta())

        def _on_training_start(self) -> None:
            t = self.model.num_timesteps
            a = self.args
            self.deadline = deadline_after(a.time_limit)
            self.next_snapshot = t + a.snapshot_every
            self.next_eval = t + a.eval_every if a.eval_every > 0 else float("inf")
            self.next_checkpoint = t + a.checkpoint_every
            if self.training_env.env_method("snapshot_count")[0] == 0:
                self.snapshot()
            if a.progress:
                from tqdm import tqdm
                self.bar = tqdm(total=a.total_timesteps, initial=t, unit="step", dynamic_ncols=True,
                                desc=f"{a.variant} seed {a.seed}")

        def snapshot(self) -> None:
            net = self.net()
            self.training_env.env_method("add_snapshot", net.layers, net.activation, net.meta)
            save_policy(self.run.snapshots / f"snap_{self.model.num_timesteps}", net.layers, net.meta)

        def evaluate(self, label: str | None = None) -> dict | None:
            """Evaluate the current network (once per timesteps label) and log it."""
            t = int(self.model.num_timesteps)
            if self.log.has(t):
                return None
            row = evaluate_policy(self.net(), self.args, self.config, label or f"step_{t}", t)
            self.log.append(row)
            for key, value in scalar_items(row, skip=("timesteps", "seed")):  # as the other trainers' ScalarLog
                self.logger.record(f"eval/{key}", value)
            self.logger.dump(t)
            if self.bar is not None:
                self.bar.set_postfix({o: row[f"{o}_argmax_win_rate"] for o in eval_opponents(self.args, self.config)})
            return row

        def checkpoint(self) -> None:
            policy = self.model.policy
            self.run.save_checkpoint({"policy": policy.state_dict(), "optimizer": policy.optimizer.state_dict(),
                                      "timesteps": int(self.model.num_timesteps),
                                      "n_updates": int(self.model._n_updates)})
            state = {"timesteps": int(self.model.num_timesteps), "args": dataclasses.asdict(self.args),
                     "config": self.config, "stopped": self.stopped}
            self.run.state_file.write_text(json.dumps(state, indent=2) + "\n")

        def _on_rollout_start(self) -> None:
            t = self.trained_on = self.num_timesteps
            frozen = t < self.warmup
            if frozen != self.frozen:
                freeze_actor(self.model, frozen)
                self.frozen = frozen
            if t >= self.next_snapshot:
                self.snapshot()
                self.next_snapshot = t + self.args.snapshot_every
            if t >= self.next_eval:
                self.evaluate()
                self.next_eval = t + self.args.eval_every
            if t >= self.next_checkpoint:
                self.checkpoint()
                self.next_checkpoint = t + self.args.checkpoint_every

        def _on_step(self) -> bool:
            t = self.num_timesteps
            if self.bar is not None:
                self.bar.update(t - self.bar.n)
            for info in self.locals.get("infos", []):
                if "win" in info:
                    self.logger.record_mean("selfplay/win_rate_train", float(info["win"]))
            self.stopped = stop_point(self.deadline, self.args.time_limit, self.signals)
            return self.stopped is None

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return SelfPlayCallback


def make_vec_env(args: Args, config: dict, snapshots: list[Path]):
    """``n_envs`` self-play envs in one process, with episode statistics."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from .opponents import OpponentPool, parse_mix
    from .selfplay_env import SelfPlayEnv

    mix = parse_mix(args.opponent_mix)

    def factory(i: int):
        def build():
            pool = OpponentPool(mix, max_snapshots=args.max_snapshots, seed=args.seed * 1000 + i)
            for path in snapshots[-args.max_snapshots:]:
                pool.add_snapshot(PolicyNet.load(path))
            return SelfPlayEnv(args.variant, config, pool, reward_mode=args.reward_mode, seed=args.seed * 1000 + i,
                               win_bonus=args.win_bonus, gift_penalty=args.gift_penalty,
                               relative_reward=args.relative_reward, trade_bonus=args.trade_bonus)
        return build

    return VecMonitor(DummyVecEnv([factory(i) for i in range(args.n_envs)]))


def resumed_args(args: Args, saved: dict) -> Args:
    """Arguments of a resumed run (``training.runs.resumed``)."""
    return resumed(args, saved)


def build_model(args: Args, env):
    """A fresh MaskablePPO model for the run's network and PPO settings."""
    import torch
    from sb3_contrib import MaskablePPO

    hidden = hidden_widths(args.hidden)
    return MaskablePPO(
        "MlpPolicy", env, learning_rate=args.learning_rate, n_steps=args.n_steps, batch_size=args.batch_size,
        n_epochs=args.n_epochs, gamma=args.gamma, gae_lambda=args.gae_lambda, clip_range=args.clip_range,
        ent_coef=args.ent_coef, policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden},
                                               "activation_fn": torch.nn.Tanh},
        seed=args.seed, device="cpu", verbose=0)


def _actor_only(given: str) -> bool:
    """``--init-policy`` names an actor alone (a policy file, a finished run, 'shipped'), not an
    imitation run (actor and critic, ``init.json``)."""
    return given == "shipped" or not (Path(given) / "init.json").exists()


def init_source(args: Args, config: dict) -> tuple[str, str]:
    """What ``--init-policy`` names: ``("imitation", run dir)`` or ``("actor", policy file path)``."""
    from bean_env.agents.ppo import policy_paths, shipped_checkpoint, shipped_hint

    given = args.init_policy
    if not _actor_only(given):
        return "imitation", given
    if given == "shipped":
        found = shipped_checkpoint(args.variant, config)
        if found is None:
            raise ValueError(f"--init-policy shipped: no policy is shipped for {args.variant!r} {config}"
                             f"{shipped_hint(args.variant, config)}")
        return "actor", str(found)
    try:
        weights, meta = policy_paths(given)
    except FileNotFoundError as exc:  # a directory that is neither an imitation run nor a finished run
        raise ValueError(f"--init-policy {given}: {exc}") from None
    if not weights.exists() or not meta.exists():
        raise ValueError(f"--init-policy {given}: not found: no imitation run (init.json) there and no policy "
                         f"file pair {weights.name} + {meta.name}")
    return "actor", given


def load_init_policy(args: Args, config: dict) -> tuple[str, str, object]:
    """``--init-policy`` resolved (``init_source``), read and checked against the run's observation layout and
    ``--hidden``, before any run directory is made: ``("imitation", run dir, state dict)`` or ``("actor",
    policy file, PolicyNet)``; raises ``ValueError`` naming the problem."""
    kind, path = init_source(args, config)
    layout = layout_hash(encoder_of(args.variant, config))
    hidden = hidden_widths(args.hidden)
    if kind == "imitation":
        from .imitate import load_init

        return kind, path, load_init(path, layout, hidden)
    try:
        net = PolicyNet.load(path)
    except (OSError, PolicyFileError) as exc:
        raise ValueError(f"--init-policy {path}: {exc}") from None
    if net.meta.get("layout_hash") != layout:
        raise ValueError(f"--init-policy {path}: observation layout {str(net.meta.get('layout_hash'))[:12]} differs "
                         f"from this run's {layout[:12]} (other variant config or observation version)")
    if net.meta.get("hidden") != hidden:
        widths = ",".join(str(h) for h in net.meta.get("hidden") or [])
        raise ValueError(f"--init-policy {path}: hidden widths {net.meta.get('hidden')} differ from --hidden {hidden} "
                         f"(start from it with --hidden {widths})")
    return kind, path, net


def initialise(model, args: Args, config: dict, init: tuple[str, str, object]) -> None:
    """Start the model's network from ``--init-policy`` as ``load_init_policy`` read it."""
    kind, path, loaded = init
    if kind == "imitation":
        try:
            model.policy.load_state_dict(loaded)
        except RuntimeError as exc:
            raise ValueError(f"--init-policy {path}: does not fit this run's network: {str(exc)[:300]}") from None
        print(f"network initialised from {path}", flush=True)
        return
    from .export import load_sb3_actor

    load_sb3_actor(model, loaded, f"--init-policy {path}")
    print(f"actor initialised from {path}; the critic learns alone for the first "
          f"{warmup_steps(args, config)} timesteps", flush=True)


def warmup_steps(args: Args, config: dict) -> int:
    """Timesteps at the start of a run in which only the critic learns (``--critic-warmup``)."""
    if args.critic_warmup is not None:
        if args.critic_warmup < 0:
            raise ValueError(f"--critic-warmup must be >= 0, not {args.critic_warmup}")
        return args.critic_warmup
    if args.init_policy and _actor_only(args.init_policy):
        return 2 * args.n_steps * args.n_envs
    return 0


def freeze_actor(model, frozen: bool) -> None:
    """Stop (or restart) the actor's learning: its parameters get no gradients, so the optimizer leaves
    them as they are while the critic learns."""
    from .export import sb3_actor

    for module in sb3_actor(model)[0]:
        for p in module.parameters():
            p.requires_grad_(not frozen)


def restore(model, state: dict, run: Run) -> None:
    """Load a plain-tensor checkpoint into a freshly built model (shapes must match)."""
    try:
        model.policy.load_state_dict(state["policy"])
        model.policy.optimizer.load_state_dict(state["optimizer"])
        model.num_timesteps = int(state["timesteps"])
        model._n_updates = int(state.get("n_updates", 0))
    except (KeyError, TypeError, RuntimeError, ValueError) as exc:
        raise RunDirError(f"{run.latest}: checkpoint does not fit this run's network: {str(exc)[:300]}") from None


def train(args: Args) -> Path:
    """Run (or resume) a training run; returns its run directory."""
    import torch

    started = time.monotonic()
    saved = None
    if args.resume:
        run = Run.open(Path(args.resume))
        saved = json.loads(run.state_file.read_text())
        args = resumed_args(args, saved["args"])
    config = rule_config(args)
    warmup_steps(args, config)  # bad options fail here, before a run directory is made
    eval_opponents(args, config)
    hidden_widths(args.hidden)
    if not args.gift_penalty >= 0:
        raise ValueError(f"--gift-penalty must be a number >= 0, not {args.gift_penalty}")
    if not args.trade_bonus >= 0:
        raise ValueError(f"--trade-bonus must be a number >= 0, not {args.trade_bonus}")
    init = load_init_policy(args, config) if args.init_policy and not args.resume else None
    if args.resume:
        if saved["config"] != config or saved["args"]["variant"] != args.variant:
            raise ValueError(f"--resume {args.resume}: the run was trained on {saved['args']['variant']!r} "
                             f"{saved['config']}, not {args.variant!r} {config}")
        state = run.load_checkpoint()
    else:
        name = args.run_name or f"{args.variant}__{args.seed}__{int(time.time())}"
        run = Run.create(Path(args.out_dir) / name, overwrite=args.overwrite)
    print(f"run directory: {run.path}  (tensorboard --logdir {run.path})", flush=True)
    # -- seeding: every generator below derives from args.seed -----------------------------------------
    limit_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    prov = run.write_start(args, args.variant, config)

    env = make_vec_env(args, config, run.snapshot_files() if args.resume else [])
    model = build_model(args, env)
    if args.resume:
        restore(model, state, run)
    elif init is not None:
        initialise(model, args, config, init)
    from stable_baselines3.common.logger import configure

    model.set_logger(configure(str(run.path / "tb"), ["tensorboard"]))
    meta = {"variant": args.variant, "config": config, "algorithm": "MaskablePPO (sb3-contrib)",
            "layout_hash": prov["layout_hash"], "provenance": prov}
    callback = _callback_class()(args, run, config, meta)
    remaining = args.total_timesteps - model.num_timesteps
    if remaining > 0:
        try:
            # Ctrl-C, kill -INT or -TERM: stop after the current step, then save, export and evaluate
            with stop_signals(graceful=True) as callback.signals, unchecked_distributions():
                model.learn(remaining, callback=callback, reset_num_timesteps=not args.resume)
        except KeyboardInterrupt as exc:  # a second signal: stopped at once, maybe inside a log write
            callback.stopped = stop_reason(exc)
            if callback.bar is not None:
                callback.bar.close()
            model.logger.close()
            model.set_logger(configure(str(run.path / "tb"), ["tensorboard"]))
        if callback.stopped in stop_signals.REASONS.values():
            print(f"\n{callback.stopped} at {model.num_timesteps} steps: saving and exporting the latest policy "
                  "(Ctrl-C again to skip the final evaluation)", flush=True)
    else:
        callback.init_callback(model)
    if callback.stopped:  # the partial rollout was never trained on: the network's label is its last update
        model.num_timesteps = callback.trained_on
    callback.checkpoint()
    from .export import export_sb3

    training = {"timesteps": int(model.num_timesteps), "args": dataclasses.asdict(args),
                "stopped": callback.stopped, "cpu_seconds": round(time.process_time(), 1),
                "wall_seconds": round(time.monotonic() - started, 1)}
    targets = [run.path / "policy"] + ([Path(args.export)] if args.export else [])
    row = export_and_evaluate(lambda path, meta: export_sb3(model, path, args.variant, config, meta, prov),
                              targets, training, callback.evaluate, callback.log, int(model.num_timesteps))
    if row is not None:
        print(f"eval after {model.num_timesteps} steps: {describe(row, eval_opponents(args, config))}")
    if callback.stopped:
        print(f"stopped early: {callback.stopped}")
    print(f"run directory: {run.path}")
    return run.path


def main(argv: list[str] | None = None, prog: str = "python -m bean_env.training.selfplay") -> None:
    train(parse_args(argv, prog))


if __name__ == "__main__":
    main()
