"""Self-play training with MaskablePPO (sb3-contrib) for any implemented variant and player count.

    python -m bean_env.training.selfplay --variant bean_duel --total-timesteps 1000000 --seed 1
    bean-env train --variant bohnanza --num-players 5 --opponent-mix self:0.6,heuristic:0.4

The learner plays one seat per episode (rotating); the other seats are drawn from an opponent pool of
frozen learner snapshots and baseline agents (``training/opponents.py``, ``training/selfplay_env.py``).
A run directory ``runs/<run name>/`` gets TensorBoard logs (``tb/``), checkpoints (``checkpoints/``,
resumable with ``--resume``), snapshots, ``eval.csv`` (periodic win rates against ``random`` and
``heuristic``) and the final policy file pair ``policy.pt``/``policy.json`` for the ``ppo`` agent.
"""
from __future__ import annotations

import argparse
import ast
import csv
import dataclasses
import inspect
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from bean_env.agents.ppo import PPOAgent, PolicyNet, save_policy


@dataclass
class Args:
    variant: str = "bean_duel"
    """variant to train on (any implemented one with an env module)"""
    num_players: Optional[int] = None
    """number of players (default: the variant's default)"""
    rules: str = "{}"
    """other rule options of the variant as JSON, e.g. '{"edition": "english"}'"""
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
    """env reward: 'win' (+1 win / -1 loss), 'score' or 'margin' (see bean_env.envs.aec)"""
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
    eval_opponents: str = "random,heuristic"
    """baseline agents to evaluate against (ignored in bean_solitaire: the mafia is the opponent)"""
    checkpoint_every: int = 50_000
    """timesteps between resumable checkpoints"""
    out_dir: str = "runs"
    """folder of run directories"""
    run_name: Optional[str] = None
    """run directory name (default: <variant>__<seed>__<unix time>)"""
    resume: Optional[str] = None
    """run directory to continue (its checkpoint, snapshots, evaluation history); options not given take
    the run's values, and the network and PPO settings always come from its checkpoint"""
    export: Optional[str] = None
    """also write the final policy file pair here (e.g. agents/weights/bean_duel)"""
    torch_threads: int = 1
    """torch CPU threads"""
    progress: bool = True
    """show a progress bar"""


def _field_docs(cls) -> dict[str, str]:
    """The docstring under each dataclass field (CleanRL style), for ``--help``."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body
    docs = {}
    for node, nxt in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
            docs[node.target.id] = str(nxt.value.value)
    return docs


def _bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add one ``--kebab-case`` option per ``Args`` field."""
    docs = _field_docs(Args)
    for f in dataclasses.fields(Args):
        kind = {"int": int, "float": float, "str": str, "bool": _bool}[
            str(f.type).replace("Optional[", "").rstrip("]")]
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=f.default,
                            metavar=kind.__name__.strip("_").upper(), help=f"{docs.get(f.name, '')} (default: {f.default})")
    return parser


def parse_args(argv: list[str] | None = None, prog: str = "python -m bean_env.training.selfplay") -> Args:
    parser = add_arguments(argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0]))
    return Args(**vars(parser.parse_args(argv)))


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
class Run:
    """Paths and persistent state of one run directory."""

    def __init__(self, path: Path):
        self.path = path
        self.checkpoints = path / "checkpoints"
        self.snapshots = path / "snapshots"
        self.eval_csv = path / "eval.csv"
        self.state_file = path / "state.json"
        for d in (self.path, self.checkpoints, self.snapshots):
            d.mkdir(parents=True, exist_ok=True)

    @property
    def latest(self) -> Path:
        return self.checkpoints / "latest.zip"

    def snapshot_files(self) -> list[Path]:
        return sorted(self.snapshots.glob("snap_*.pt"), key=lambda p: int(p.stem.split("_")[1]))

    def append_eval(self, timesteps: int, rows: list[dict]) -> None:
        new = not self.eval_csv.exists()
        with self.eval_csv.open("a", newline="") as fh:
            cols = ["timesteps", "agent", "opponent", "variant", "games", "wins", "win_rate", "mean_score", "seed"]
            w = csv.DictWriter(fh, fieldnames=cols)
            if new:
                w.writeheader()
            for row in rows:
                w.writerow(dict(row, timesteps=timesteps))


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    from .evaluate import evaluate
    from .export import sb3_actor_layers

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the pool, periodic evaluation, checkpoints and the progress bar."""

        def __init__(self, args: Args, run: Run, config: dict):
            super().__init__()
            self.args, self.run, self.config = args, run, config
            self.bar = None
            self.next_snapshot = self.next_eval = self.next_checkpoint = 0

        def _meta(self) -> dict:
            return {"variant": self.args.variant, "config": self.config, "algorithm": "MaskablePPO (sb3-contrib)",
                    "training": {"timesteps": int(self.num_timesteps), "seed": self.args.seed}}

        def _on_training_start(self) -> None:
            t = self.num_timesteps
            a = self.args
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
            layers, activation = sb3_actor_layers(self.model)
            meta = self._meta()
            self.training_env.env_method("add_snapshot", layers, activation, meta)
            save_policy(self.run.snapshots / f"snap_{self.num_timesteps}", layers, dict(meta, activation=activation))

        def evaluate(self) -> list[dict]:
            layers, activation = sb3_actor_layers(self.model)
            net = PolicyNet(layers, activation, dict(self._meta(), activation=activation,
                                                      obs_size=int(layers[0][0].shape[1]),
                                                      num_actions=int(layers[-1][0].shape[0]),
                                                      hidden=[int(w.shape[0]) for w, _ in layers[:-1]]))
            opponents = [o.strip() for o in self.args.eval_opponents.split(",") if o.strip()]
            n = self.config["num_players"]
            if n == 1:
                opponents = opponents[:1]
            rows = []
            for opp in opponents:
                res = evaluate(lambda s: PPOAgent.from_net(net, seed=s), self.args.variant, self.config, opp,
                               self.args.eval_games, seed=10_000 + self.args.seed, agent_name="ppo")
                rows.append(res.row())
                self.logger.record(f"eval/win_rate_vs_{res.opponent}", res.win_rate)
                self.logger.record(f"eval/mean_score_vs_{res.opponent}", res.mean_score)
            self.run.append_eval(int(self.num_timesteps), rows)
            if self.bar is not None:
                self.bar.set_postfix({r["opponent"]: r["win_rate"] for r in rows})
            return rows

        def checkpoint(self) -> None:
            self.model.save(self.run.latest)
            state = {"timesteps": int(self.num_timesteps), "args": dataclasses.asdict(self.args),
                     "config": self.config}
            self.run.state_file.write_text(json.dumps(state, indent=2) + "\n")

        def _on_step(self) -> bool:
            t = self.num_timesteps
            if self.bar is not None:
                self.bar.update(t - self.bar.n)
            for info in self.locals.get("infos", []):
                if "win" in info:
                    self.logger.record_mean("selfplay/win_rate_train", float(info["win"]))
            if t >= self.next_snapshot:
                self.snapshot()
                self.next_snapshot = t + self.args.snapshot_every
            if t >= self.next_eval:
                self.evaluate()
                self.next_eval = t + self.args.eval_every
            if t >= self.next_checkpoint:
                self.checkpoint()
                self.next_checkpoint = t + self.args.checkpoint_every
            return True

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
            return SelfPlayEnv(args.variant, config, pool, reward_mode=args.reward_mode, seed=args.seed * 1000 + i)
        return build

    return VecMonitor(DummyVecEnv([factory(i) for i in range(args.n_envs)]))


def resumed_args(args: Args, saved: dict) -> Args:
    """Arguments of a resumed run: every option left at its default takes the run's saved value."""
    merged = {}
    for f in dataclasses.fields(Args):
        value = getattr(args, f.name)
        merged[f.name] = saved[f.name] if value == f.default and f.name in saved and f.name != "resume" else value
    return Args(**merged)


def train(args: Args) -> Path:
    """Run (or resume) a training run; returns its run directory."""
    import torch
    from sb3_contrib import MaskablePPO

    saved = None
    if args.resume:
        state_file = Path(args.resume) / "state.json"
        if not state_file.exists():
            raise FileNotFoundError(f"--resume {args.resume}: not a run directory (no {state_file})")
        saved = json.loads(state_file.read_text())
        args = resumed_args(args, saved["args"])
    config = rule_config(args)
    # -- seeding: every generator below derives from args.seed -----------------------------------------
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)

    if args.resume:
        run = Run(Path(args.resume))
        if not run.latest.exists():
            raise FileNotFoundError(f"--resume {args.resume}: no checkpoint {run.latest}")
        if saved["config"] != config or saved["args"]["variant"] != args.variant:
            raise ValueError(f"--resume {args.resume}: the run was trained on {saved['args']['variant']!r} "
                             f"{saved['config']}, not {args.variant!r} {config}")
    else:
        name = args.run_name or f"{args.variant}__{args.seed}__{int(time.time())}"
        run = Run(Path(args.out_dir) / name)
    (run.path / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2) + "\n")

    env = make_vec_env(args, config, run.snapshot_files() if args.resume else [])
    if args.resume:
        model = MaskablePPO.load(run.latest, env=env, device="cpu", tensorboard_log=str(run.path))
    else:
        hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
        model = MaskablePPO(
            "MlpPolicy", env, learning_rate=args.learning_rate, n_steps=args.n_steps, batch_size=args.batch_size,
            n_epochs=args.n_epochs, gamma=args.gamma, gae_lambda=args.gae_lambda, clip_range=args.clip_range,
            ent_coef=args.ent_coef, policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden},
                                                   "activation_fn": torch.nn.Tanh},
            tensorboard_log=str(run.path), seed=args.seed, device="cpu", verbose=0)
    callback = _callback_class()(args, run, config)
    remaining = args.total_timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(remaining, callback=callback, tb_log_name="tb", reset_num_timesteps=not args.resume)
    else:
        from stable_baselines3.common.logger import configure
        model.set_logger(configure(None, []))
        callback.init_callback(model)
    callback.checkpoint()
    rows = callback.evaluate()
    model.logger.dump(model.num_timesteps)
    from .export import export_sb3

    training = {"timesteps": int(model.num_timesteps), "args": dataclasses.asdict(args), "final_eval": rows}
    export_sb3(model, run.path / "policy", args.variant, config, training)
    if args.export:
        export_sb3(model, args.export, args.variant, config, training)
    for r in rows:
        print(f"eval after {model.num_timesteps} steps: vs {r['opponent']}: {r['wins']}/{r['games']} wins "
              f"({r['win_rate']:.0%}), mean score {r['mean_score']}")
    print(f"run directory: {run.path}")
    return run.path


def main(argv: list[str] | None = None, prog: str = "python -m bean_env.training.selfplay") -> None:
    train(parse_args(argv, prog))


if __name__ == "__main__":
    main()
