"""Batched self-play PPO (``bean-env train batched``): N games on the array kernels, every learner seat of
every game as experience for one shared policy.

    bean-env train batched --variant bohnanza --num-players 4 --rules '{"trade_preset": "learning"}'
    bean-env train batched --variant bean_duel --opponent-mix learner:0.5,self:0.3,random:0.2 --time-limit 30

CleanRL-style: one loop that collects ``--rollout-steps`` learner decisions from ``--num-envs`` games of
``bean_env.vector`` (``ArrayVectorEnv``, or ``VectorEnv`` with ``--backend engine``: needed for engine
opponents such as ``heuristic``), then ``--update-epochs`` passes of clipped PPO over them. Each seat keeps
its own chain of decisions, rewards and GAE (``training/seat_rollout.py``); each step all seats that must
act decide in one forward pass. The other seats come from the league (``training/league.py``): frozen
snapshots of the learner, shipped or given policies, random, engine agents. The actor's head is flat or the
structured offer head (``--head``, ``training/policy_model.py``).

The run directory (``training/runs.py``) holds ``args.json``, ``provenance.json``, ``progress.csv`` (one row
per update: decisions, decisions per second, the time shares of env, forward and update, losses, the learner
seats' win rate), ``checkpoints/`` (plain tensors and a hash manifest; ``--resume``), ``snapshots/``,
``eval.csv`` (``training/evaluate.py``: win rates and trade statistics) and ``policy.pt``/``policy.json``
for ``make_agent("ppo", checkpoint=RUN_DIR)``. Ctrl-C, ``kill -TERM`` or ``--time-limit`` stop the run and
still checkpoint, export and evaluate the latest policy.
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from bean_env.agents.offer_head import offer_parts
from bean_env.agents.ppo import PolicyNet, save_policy
from bean_env.engine.catalogue import catalogue_for
from bean_env.vector import make_vector_env

from .league import League, league_engine_kinds, split_mix
from .options import RunArgs, add_arguments, hidden_widths
from .policy_model import HEADS, ActorCritic, parameter_counts
from .runs import (EvalLog, Run, ScalarLog, deadline_after, export_and_evaluate, limit_threads, named_options,
                   resumed, stop_point, stop_reason, stop_signals)
from .seat_rollout import SeatRollout, advantages, legal_pairs, sample_pairs, segments
from .selfplay import describe, eval_opponents, evaluate_policy, rule_config

ALGORITHM = "batched self-play PPO (bean_env.training.batched_ppo)"
PROGRESS = ("timesteps", "seconds", "decisions_per_s", "env_share", "forward_share", "update_share", "learning_rate",
            "policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "games", "learner_win_rate")


@dataclass
class Args(RunArgs):
    seed: int = 1
    """seed of everything: games, seats, opponents, network, sampling, evaluation"""
    total_timesteps: int = 1_000_000
    """learner decisions to train on (in total, counting a resumed run's earlier ones)"""
    num_envs: int = 64
    """games stepped together"""
    backend: str = "auto"
    """what steps the games: arrays (ArrayVectorEnv, numba kernels), engine (VectorEnv: needed for engine
    opponents such as heuristic) or auto (arrays where numba is installed)"""
    rollout_steps: int = 4096
    """learner decisions per update"""
    minibatch_size: int = 1024
    """decisions per gradient step"""
    update_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate"""
    anneal_lr: bool = False
    """lower the learning rate linearly from --learning-rate towards 0 at --total-timesteps (set before each
    update from the decisions trained on so far, so a resumed run continues the same schedule)"""
    gamma: float = 0.995
    """discount per decision of a seat"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_coef: float = 0.2
    """PPO clipping range"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient norm clip"""
    hidden: str = "256,256"
    """widths of the hidden layers of the actor and of the critic"""
    head: str = "auto"
    """actor head: flat (one output row per action), offers (whole offers scored from their parts) or auto
    (offers where the catalogue has whole offers: bohnanza with offer_actions=macro)"""
    offer_dim: int = 32
    """with the offers head: width of the offer embeddings"""
    reward_mode: str = "win"
    """env reward: 'win', 'score', 'margin' or 'dense' (see bean_env.envs.aec)"""
    win_bonus: float = 0.0
    """with reward_mode 'dense': this times the 'win' reward at the end of a game"""
    relative_reward: bool = False
    """train on each seat's reward minus the mean reward of the other seats at the same step (with dense
    rewards: the coins earned ahead of the table); training-only shaping, the env's rewards do not change"""
    gift_penalty: float = 0.0
    """training-only shaping (engine backend): a learner seat loses this for every card it receives as a gift
    (an executed trade in which it gave nothing), after --relative-reward; 0 = off"""
    trade_bonus: float = 0.0
    """training-only shaping (engine backend): a learner seat gains this for every executed trade in which it
    both gave and received cards, after --relative-reward; 0 = off"""
    opponent_mix: str = "learner:0.5,self:0.3,random:0.2"
    """seat mix: learner (the trained policy's own seats, one per game at least), self (frozen snapshots),
    ppo or ppo:checkpoint=PATH (a fixed policy), random, other agents (engine backend only)"""
    snapshot_every: int = 50_000
    """learner decisions between snapshots added to the league"""
    max_snapshots: int = 8
    """snapshots kept in the league (the first and the newest)"""
    eval_every: int = 0
    """learner decisions between evaluations (0 = only at the end)"""
    eval_games: int = 20
    """games per evaluation, opponent and play mode"""
    eval_opponents: str = "auto"
    """agents to evaluate against, comma-separated specs; auto: as bean-env train's (random and heuristic, in
    bohnanza also heuristic:trading=fair; the mafia in bean_solitaire)"""
    checkpoint_every: int = 100_000
    """learner decisions between resumable checkpoints"""
    device: str = "cpu"
    """torch device: cpu, or cuda where torch sees a GPU"""
    progress: bool = True
    """print a line per update"""


def parse_args(argv: list[str] | None = None, prog: str = "bean-env train batched") -> Args:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser, Args)
    args = Args(**vars(parser.parse_args(argv)))
    args._given = named_options(parser, argv)  # type: ignore[attr-defined]
    return args


def check_args(args: Args, config: dict) -> tuple[float, dict]:
    """Raise ``ValueError`` naming a bad option; returns the learner share and the opponents' mix."""
    if args.head not in HEADS:
        raise ValueError(f"bad value {args.head!r} for --head; allowed: {', '.join(HEADS)}")
    if args.device != "cpu" and not (args.device.startswith("cuda") and torch.cuda.is_available()):
        raise ValueError(f"bad value {args.device!r} for --device; allowed: cpu"
                         + (", cuda" if torch.cuda.is_available() else " (torch sees no GPU here)"))
    for name in ("num_envs", "rollout_steps", "minibatch_size", "update_epochs", "offer_dim", "eval_games",
                 "snapshot_every", "checkpoint_every", "max_snapshots"):
        if getattr(args, name) < 1:
            raise ValueError(f"bad value {getattr(args, name)!r} for --{name.replace('_', '-')}; must be >= 1")
    for name in ("gift_penalty", "trade_bonus"):  # trade shaping
        value, flag = getattr(args, name), "--" + name.replace("_", "-")
        if not value >= 0:
            raise ValueError(f"bad value {value!r} for {flag}; must be a number >= 0")
        if value and args.backend != "engine":
            raise ValueError(f"{flag} reads the engine's trade events: use --backend engine")
    hidden_widths(args.hidden)
    eval_opponents(args, config)
    share, mix = split_mix(args.opponent_mix)
    engine = league_engine_kinds(mix)
    if engine and args.backend != "engine":
        raise ValueError(f"opponents {engine} decide from the engine's games: use --backend engine (or a mix of "
                         "learner, self, ppo and random)")
    if args.head == "offers" and offer_parts(catalogue_for(args.variant, config)) is None:
        raise ValueError(f"--head offers: {args.variant!r} under {config} has no whole offers (OFFER_CARDS: "
                         "bohnanza with offer_actions='macro', e.g. trade_preset='learning')")
    return share, mix


def build_model(args: Args, config: dict, obs_size: int, num_actions: int) -> ActorCritic:
    """The actor-critic of the run's ``--hidden`` and ``--head``."""
    hidden = hidden_widths(args.hidden)
    where = None if args.head == "flat" else offer_parts(catalogue_for(args.variant, config))
    return ActorCritic(obs_size, num_actions, hidden, where, args.offer_dim)


class Learner:
    """The model, its optimizer and sampler; ``act`` is the rollout's batched decision, ``update`` one PPO
    update on a rollout's resolved records."""

    def __init__(self, model: ActorCritic, args: Args):
        self.model, self.args = model, args
        self.device = torch.device(args.device)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)
        self.rng = np.random.default_rng(args.seed)

    @torch.no_grad()
    def act(self, obs: np.ndarray, masks: np.ndarray, pairs: tuple | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sampled actions, their log-probabilities and the values of a batch (``pairs``: the masks'
        ``legal_pairs``, if known); the softmax is taken over the legal actions only (over 8,270 mostly
        masked actions it costs more than the network)."""
        rows, cols, first, counts = pairs if pairs is not None else legal_pairs(masks)
        dev = self.device
        o = torch.from_numpy(obs).to(dev)
        z = self.model.pair_logits(o, torch.from_numpy(rows).to(dev), torch.from_numpy(cols).to(dev))
        pos, logp = sample_pairs(z.cpu().numpy(), first, counts, self.rng)
        return cols[pos], logp.astype(np.float32), self.model.value(o).cpu().numpy()

    def set_learning_rate(self, timesteps: int) -> float:
        """The learning rate for the next update: ``--learning-rate``, or with ``--anneal-lr`` its share left
        of the budget (``1 - timesteps / total_timesteps``, at least 0); returns it."""
        a = self.args
        lr = a.learning_rate * (max(0.0, 1.0 - timesteps / a.total_timesteps) if a.anneal_lr else 1.0)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        return lr

    def update(self, rollout: SeatRollout, rows: np.ndarray) -> dict[str, float]:
        """Clipped PPO on the records ``rows`` (their advantages over each seat's chain). The policy's
        log-probabilities and entropy are computed over each record's legal actions only."""
        a, rec = self.args, rollout.records
        adv_all, ret_all = advantages(rec, a.gamma, a.gae_lambda)
        dev = self.device
        obs = torch.from_numpy(rec.obs[rows]).to(dev)
        old_logp = torch.from_numpy(rec.logp[rows]).to(dev)
        adv = torch.from_numpy(adv_all[rows].astype(np.float32)).to(dev)
        ret = torch.from_numpy(ret_all[rows].astype(np.float32)).to(dev)
        n = len(rows)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clip_fraction": 0.0}
        steps = 0
        for _ in range(a.update_epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, a.minibatch_size):
                mb = order[start:start + a.minibatch_size]
                logp, entropy = self._log_probs(obs[mb], rec, rows[mb])
                ratio = (logp - old_logp[mb]).exp()
                mb_adv = adv[mb]
                if len(mb) > 1:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - a.clip_coef, 1 + a.clip_coef)).mean()
                v_loss = 0.5 * ((self.model.value(obs[mb]) - ret[mb]) ** 2).mean()
                loss = pg_loss - a.ent_coef * entropy.mean() + a.vf_coef * v_loss
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), a.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    log_ratio = logp - old_logp[mb]
                    stats["approx_kl"] += float(((ratio - 1) - log_ratio).mean())
                    stats["clip_fraction"] += float(((ratio - 1).abs() > a.clip_coef).float().mean())
                stats["policy_loss"] += pg_loss.item()
                stats["value_loss"] += v_loss.item()
                stats["entropy"] += entropy.mean().item()
                steps += 1
        return {k: v / max(steps, 1) for k, v in stats.items()}

    def _log_probs(self, obs: torch.Tensor, rec, rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        """The chosen actions' log-probabilities and each row's entropy, under the current policy, with the
        softmax taken over each record's legal actions (``Records.legal``)."""
        counts = rec.legal_count[rows]
        pair_rows = np.repeat(np.arange(len(rows)), counts)
        cols = rec.legal[segments(rec.legal_start[rows], counts)].astype(np.int64)
        chosen = np.cumsum(counts) - counts + rec.action_pos[rows]
        dev, b = self.device, len(rows)
        r = torch.from_numpy(pair_rows).to(dev)
        z = self.model.pair_logits(obs, r, torch.from_numpy(cols).to(dev))
        top = torch.full((b,), -torch.inf, device=dev).scatter_reduce(0, r, z.detach(), "amax")
        lse = torch.zeros(b, device=dev).index_add(0, r, (z - top[r]).exp()).log() + top
        logp = z - lse[r]
        entropy = -torch.zeros(b, device=dev).index_add(0, r, logp.exp() * logp)
        return logp[torch.from_numpy(chosen).to(dev)], entropy


class Trainer:
    """One run: the games, the league, the learner and the run directory's files."""

    def __init__(self, args: Args, run: Run, config: dict, prov: dict):
        self.args, self.run, self.config, self.prov = args, run, config, prov
        share, mix = check_args(args, config)
        options = dict(config, reward_mode=args.reward_mode)
        if args.win_bonus:
            options["win_bonus"] = args.win_bonus
        self.vec = make_vector_env(args.variant, args.num_envs, args.backend, **options)
        n, p = self.vec.num_envs, self.vec.num_players
        self.league = League(mix, args.variant, config, self.vec.obs_size, self.vec.num_actions,
                             args.max_snapshots, seed=args.seed * 1000)
        capacity = args.rollout_steps + n * (p + 1)
        self.rollout = SeatRollout(self.vec, self.league, share, seed=args.seed, capacity=capacity,
                                   relative=args.relative_reward, gift_penalty=args.gift_penalty,
                                   trade_bonus=args.trade_bonus)
        self.model = build_model(args, config, self.vec.obs_size, self.vec.num_actions).to(args.device)
        self.learner = Learner(self.model, args)
        self.timesteps = 0
        self.stopped: str | None = None
        self.signals: stop_signals | None = None  # read between steps: a stop signal ends the run there
        self.log = EvalLog(run.eval_csv, eval_opponents(args, config))
        self.scalars = ScalarLog(run.path / "tb")
        self.base_meta = {"variant": args.variant, "config": config, "algorithm": ALGORITHM,
                          "layout_hash": prov["layout_hash"], "provenance": prov}

    # -- the policy --------------------------------------------------------------------------------------
    def net(self, training: dict | None = None) -> PolicyNet:
        meta = dict(self.base_meta, training=training or {"timesteps": self.timesteps, "seed": self.args.seed})
        return self.model.policy_net(meta)

    def snapshot(self) -> None:
        net = self.net()
        self.league.add_snapshot(net)
        save_policy(self.run.snapshots / f"snap_{self.timesteps}", net.layers, net.meta, head=net.head)

    def evaluate(self, label: str | None = None) -> dict | None:
        if self.log.has(self.timesteps):
            return None
        row = evaluate_policy(self.net(), self.args, self.config, label or f"step_{self.timesteps}", self.timesteps)
        self.log.append(row)
        self.scalars.add("eval", row, self.timesteps, skip=("timesteps", "seed"))
        return row

    def export(self, path: Path, training: dict) -> Path:
        net = self.net(training)
        return save_policy(path, net.layers, net.meta, head=net.head)

    # -- checkpoints -----------------------------------------------------------------------------------
    def checkpoint(self) -> None:
        self.run.save_checkpoint({"model": self.model.state_dict(), "optimizer": self.learner.optimizer.state_dict(),
                                  "timesteps": self.timesteps})
        state = {"timesteps": self.timesteps, "args": dataclasses.asdict(self.args), "config": self.config,
                 "stopped": self.stopped, "trainer": "batched"}
        self.run.state_file.write_text(json.dumps(state, indent=2) + "\n")

    def restore(self, state: dict) -> None:
        try:
            self.model.load_state_dict(state["model"])
            self.learner.optimizer.load_state_dict(state["optimizer"])
            self.timesteps = int(state["timesteps"])
        except (KeyError, TypeError, RuntimeError, ValueError) as exc:
            raise ValueError(f"{self.run.latest}: checkpoint does not fit this run's network: {str(exc)[:300]}") \
                from None
        for path in self.run.snapshot_files()[-self.args.max_snapshots:]:
            self.league.add_snapshot(PolicyNet.load(path))

    # -- the loop --------------------------------------------------------------------------------------
    def _progress_row(self, row: dict) -> None:
        path = self.run.path / "progress.csv"
        new = not path.exists()
        fields = PROGRESS
        if not new:  # a run resumed from an older version keeps its file's columns
            with path.open() as fh:
                fields = fh.readline().strip().split(",")
        with path.open("a", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
            if new:
                w.writeheader()
            w.writerow({k: (round(v, 6) if isinstance(v, float) else v) for k, v in row.items()})
        self.scalars.add("train", row, row["timesteps"], skip=("timesteps",))

    def learn(self) -> None:
        """Collect and update until ``total_timesteps`` or a stop (signal or time limit)."""
        a, rollout = self.args, self.rollout
        deadline = deadline_after(a.time_limit)
        next_snapshot = self.timesteps + a.snapshot_every
        next_eval = self.timesteps + a.eval_every if a.eval_every > 0 else float("inf")
        next_checkpoint = self.timesteps + a.checkpoint_every
        if not self.league.snapshots:
            self.snapshot()
        rollout.reset()
        while self.timesteps < a.total_timesteps:
            start = time.perf_counter()
            rollout.seconds = {"env": 0.0, "forward": 0.0}
            while rollout.records.size < a.rollout_steps + len(np.flatnonzero(rollout.last >= 0)):
                rollout.step(self.learner.act)
                if self._stop_requested(deadline):
                    return
            rows = rollout.records.resolved()
            t = time.perf_counter()
            lr = self.learner.set_learning_rate(self.timesteps)
            stats = self.learner.update(rollout, rows)
            update = time.perf_counter() - t
            rollout.drop(rows)
            self.timesteps += len(rows)
            elapsed = time.perf_counter() - start
            games = rollout.finished
            rollout.finished = []
            seats = [(q in g["winners"]) for g in games for q in g["learner"]]
            row = {"timesteps": self.timesteps, "seconds": elapsed, "decisions_per_s": len(rows) / elapsed,
                   "env_share": rollout.seconds["env"] / elapsed, "forward_share": rollout.seconds["forward"] / elapsed,
                   "update_share": update / elapsed, "learning_rate": lr, **stats, "games": len(games),
                   "learner_win_rate": float(np.mean(seats)) if seats else float("nan")}
            self._progress_row(row)
            if a.progress:
                print(f"{self.timesteps:>10,d} decisions  {row['decisions_per_s']:7,.0f}/s  env "
                      f"{row['env_share']:.0%} forward {row['forward_share']:.0%} update {row['update_share']:.0%}  "
                      f"{len(games)} games, learner seats won {row['learner_win_rate']:.0%}", flush=True)
            if self.timesteps >= next_snapshot:
                self.snapshot()
                next_snapshot = self.timesteps + a.snapshot_every
            if self.timesteps >= next_eval and a.total_timesteps - self.timesteps > a.rollout_steps:
                self.evaluate()  # not when the next update ends the run: the final evaluation follows it
                next_eval = self.timesteps + a.eval_every
            if self.timesteps >= next_checkpoint:
                self.checkpoint()
                next_checkpoint = self.timesteps + a.checkpoint_every
            if self._stop_requested(deadline):
                return

    def _stop_requested(self, deadline: float | None) -> bool:
        """Whether the time limit passed or a stop signal came (``stopped`` then says which)."""
        self.stopped = stop_point(deadline, self.args.time_limit, self.signals)
        return self.stopped is not None


def train(args: Args) -> Path:
    """Run (or resume) a batched training run; returns its run directory."""
    started = time.monotonic()
    saved = None
    if args.resume:
        run = Run.open(Path(args.resume))
        saved = json.loads(run.state_file.read_text())
        if saved.get("trainer") != "batched":
            raise ValueError(f"--resume {args.resume}: not a run of bean-env train batched")
        args = resumed(args, saved["args"])
    config = rule_config(args)
    check_args(args, config)  # bad options fail before a run directory is made
    if args.resume:
        if saved["config"] != config:
            raise ValueError(f"--resume {args.resume}: the run was trained on {saved['config']}, not {config}")
        state = run.load_checkpoint()
    else:
        name = args.run_name or f"{args.variant}__batched__{args.seed}__{int(time.time())}"
        run = Run.create(Path(args.out_dir) / name, overwrite=args.overwrite)
    print(f"run directory: {run.path}", flush=True)
    limit_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    prov = run.write_start(args, args.variant, config)
    trainer = Trainer(args, run, config, prov)
    if args.resume:
        trainer.restore(state)
    counts = parameter_counts(trainer.model)
    head = "offers" if trainer.model.offers is not None else "flat"
    print(f"{head} head: {counts['head']:,} output parameters, {counts['total']:,} in all", flush=True)
    try:
        with stop_signals(graceful=True) as trainer.signals:  # Ctrl-C, kill -INT or -TERM: stop after a step
            trainer.learn()
    except KeyboardInterrupt as exc:  # a second signal: stopped at once
        trainer.stopped = stop_reason(exc)
    if trainer.stopped in stop_signals.REASONS.values():
        print(f"\n{trainer.stopped} at {trainer.timesteps} decisions: saving and exporting the latest policy "
              "(Ctrl-C again to skip the final evaluation)", flush=True)
    trainer.checkpoint()
    training = {"timesteps": trainer.timesteps, "args": dataclasses.asdict(args), "stopped": trainer.stopped,
                "parameters": counts, "cpu_seconds": round(time.process_time(), 1),
                "wall_seconds": round(time.monotonic() - started, 1), "final_eval": None}
    targets = [run.path / "policy"] + ([Path(args.export)] if args.export else [])
    row = export_and_evaluate(trainer.export, targets, training, trainer.evaluate, trainer.log, trainer.timesteps)
    if row is not None:
        print(f"eval after {trainer.timesteps} decisions: {describe(row, eval_opponents(args, config))}")
    trainer.scalars.close()
    if trainer.stopped:
        print(f"stopped early: {trainer.stopped}")
    print(f"run directory: {run.path}  (tensorboard --logdir {run.path})")
    return run.path


def main(argv: list[str] | None = None, prog: str = "bean-env train batched") -> None:
    train(parse_args(argv, prog))


if __name__ == "__main__":
    main()
