"""Behaviour cloning: a MaskablePPO network that imitates a baseline agent, as a warm start for self-play.

    python -m bean_env.training.imitate --variant bohnanza --num-players 4 \\
        --rules '{"trade_preset": "learning"}' --teacher heuristic --games 1500 --run-name bc_bohnanza4
    bean-env train imitate ...        (the same from the command line)
    bean-env train --variant bohnanza --num-players 4 --rules '{"trade_preset": "learning"}' \\
        --init-policy runs/bc_bohnanza4 ...

Terms:
- *teacher*: the registered agent whose decisions are imitated (``heuristic`` by default); it plays every
  seat of every game (``--seats all``) or seat 0 only with the others drawn from ``--others``.
- *sample*: one env decision of a teacher seat: the env observation of that seat, its legal action
  indices (the mask) and the teacher's action index, plus the seat's discounted return from there on
  under the training reward (``--reward-mode``, ``--win-bonus``, ``--gamma``), the critic's target.
- *DAgger round* (``--dagger-rounds``; dataset aggregation, Ross, Gordon and Bagnell 2011): the clone
  (argmax) plays the teacher's seats of ``--dagger-games`` new games, the teacher labels every decision
  it meets there, the samples join the others and the network is fitted again (``--dagger-epochs``
  passes). A plain clone only ever saw the teacher's own positions and drifts once it errs; the rounds
  teach it the teacher's answer in the positions its own mistakes lead to. The returns of those samples
  are the clone's own. With rounds, the held-out samples are every 20th game's (the same rows in every
  fit), not a random 5% of the rows.

The actor is fitted by cross-entropy over the masked logits, the critic by squared error to the return,
on exactly the network ``bean-env train`` builds for the same ``--hidden``. The run directory gets
``init.pt`` (the whole MaskablePPO policy as plain tensors, read with ``weights_only=True``),
``init.json`` (variant, config, layout hash, network, data and fit statistics, provenance), the policy
file pair ``policy.pt``/``policy.json`` for the ``ppo`` agent, and ``eval.csv`` (the clone against the
evaluation opponents, argmax and sampled play, 95% Wilson intervals).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np

INIT_FORMAT = "bean_env.init_policy/1"
HELD_GAMES = 20  # with DAgger rounds, every HELD_GAMES-th game's samples are held out of every fit


@dataclass
class Args:
    variant: str = "bohnanza"
    """variant to imitate on"""
    num_players: Optional[int] = None
    """number of players (default: the variant's default)"""
    rules: str = "{}"
    """other rule options of the variant as JSON"""
    teacher: str = "heuristic"
    """registered agent to imitate"""
    seats: str = "all"
    """'all': the teacher plays and is recorded at every seat; 'one': at one seat per game (rotating)"""
    others: str = "heuristic"
    """with --seats one: the agent at the other seats"""
    games: int = 1000
    """games to record"""
    seed: int = 1
    """seed of the games (game i uses seed*1_000_003 + i), the teachers and the network"""
    hidden: str = "256,256"
    """hidden layer widths of actor and critic (as in bean-env train)"""
    epochs: int = 8
    """passes over the recorded samples"""
    batch_size: int = 512
    """minibatch size"""
    learning_rate: float = 1e-3
    """Adam learning rate"""
    value_coef: float = 0.5
    """weight of the critic's squared error beside the actor's cross-entropy"""
    reward_mode: str = "dense"
    """reward of the returns the critic learns (as bean-env train's --reward-mode)"""
    win_bonus: float = 0.0
    """with reward_mode 'dense': as bean-env train's --win-bonus"""
    gamma: float = 0.995
    """discount of those returns (as bean-env train's --gamma)"""
    eval_games: int = 100
    """games per evaluation opponent after fitting (0 = none)"""
    eval_opponents: str = "heuristic"
    """opponents of that evaluation (the mafia alone in bean_solitaire)"""
    out_dir: str = "runs"
    """folder of run directories"""
    run_name: Optional[str] = None
    """run directory name (default: bc_<variant>__<seed>__<unix time>)"""
    overwrite: bool = False
    """replace an existing run directory of the same name"""
    torch_threads: int = 1
    """CPU threads of torch and of numpy's BLAS (threadpoolctl)"""
    dagger_rounds: int = 0
    """DAgger rounds after the first fit: the clone plays, the teacher labels the positions it reaches, and
    the network is fitted again on all samples (0 = plain behaviour cloning)"""
    dagger_games: int = 500
    """games the clone plays per DAgger round"""
    dagger_epochs: int = 4
    """passes over all samples after each DAgger round"""


@dataclass
class Samples:
    """Recorded teacher decisions: ``obs[i]``, legal indices ``legal[offsets[i]:offsets[i+1]]``,
    ``actions[i]``, ``returns[i]``, and the game number and seat it came from."""
    obs: np.ndarray
    legal: np.ndarray
    offsets: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    game: np.ndarray
    seat: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)

    def concat(self, other: "Samples") -> "Samples":
        """These samples followed by ``other``'s."""
        return Samples(np.concatenate([self.obs, other.obs]), np.concatenate([self.legal, other.legal]),
                       np.concatenate([self.offsets, other.offsets[1:] + self.offsets[-1]]),
                       np.concatenate([self.actions, other.actions]), np.concatenate([self.returns, other.returns]),
                       np.concatenate([self.game, other.game]), np.concatenate([self.seat, other.seat]))

    def masks(self, rows: np.ndarray, num_actions: int) -> np.ndarray:
        """Boolean legal-action masks of the given sample rows."""
        out = np.zeros((len(rows), num_actions), dtype=bool)
        for k, i in enumerate(rows):
            out[k, self.legal[self.offsets[i]:self.offsets[i + 1]]] = True
        return out


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """Returns G_t = r_t + gamma G_{t+1} of one seat's decision sequence."""
    out, g = [0.0] * len(rewards), 0.0
    for t in range(len(rewards) - 1, -1, -1):
        g = rewards[t] + gamma * g
        out[t] = g
    return out


def record(variant: str, config: dict, teacher: str = "heuristic", games: int = 100, seed: int = 1,
           seats: str = "all", others: str = "heuristic", reward_mode: str = "dense", win_bonus: float = 0.0,
           gamma: float = 0.995, student: Optional[Callable[[np.ndarray, list], int]] = None,
           first_game: int = 0) -> Samples:
    """Play ``games`` env games and record the teacher's decisions (see the module doc). Game ``i`` is
    number ``first_game + i`` (its seed, its agents' seeds, ``Samples.game``). With ``student`` (the
    observation vector and the legal indices -> an action index), the student plays the teacher's seats
    and the teacher only labels (a DAgger round)."""
    from .opponents import BaselinePlayer
    from .selfplay_env import make_aec

    if seats not in ("all", "one"):
        raise ValueError(f"bad value {seats!r} for seats; allowed: 'all', 'one'")
    aec = make_aec(variant, reward_mode=reward_mode, win_bonus=win_bonus, **config)
    obs, legal, offsets, actions, returns, game, seat = [], [], [0], [], [], [], []
    for i in range(first_game, first_game + games):
        aec.reset(seed=seed * 1_000_003 + i)
        agents = list(aec.possible_agents)
        taught = set(agents) if seats == "all" else {agents[i % len(agents)]}
        players = {a: BaselinePlayer(teacher if a in taught else others, seed * 7919 + i * len(agents) + q)
                   for q, a in enumerate(agents)}
        pending: dict[str, list[float]] = {a: [] for a in taught}  # reward accrued after each decision
        rows: dict[str, list[int]] = {a: [] for a in taught}
        while not (any(aec.terminations.values()) or any(aec.truncations.values())):
            agent = aec.agent_selection
            choice = played = players[agent].choose(aec, agent)
            if agent in taught:
                idx = aec.legal_indices()
                vector = aec.observe(agent)["observation"]
                if student is not None:
                    played = student(vector, idx)
                rows[agent].append(len(actions))
                obs.append(vector.astype(np.float16))
                legal.append(np.asarray(idx, dtype=np.int32))
                offsets.append(offsets[-1] + len(idx))
                actions.append(choice)
                game.append(i)
                seat.append(aec.agent_name_mapping[agent])
                pending[agent].append(0.0)
            aec.step(played)
            for a in taught:
                if pending[a]:
                    pending[a][-1] += float(aec.rewards.get(a, 0.0))
        for a in taught:
            for row, g in zip(rows[a], discounted(pending[a], gamma)):
                returns.append((row, g))
    ret = np.zeros(len(actions), dtype=np.float32)
    for row, g in returns:
        ret[row] = g
    return Samples(np.stack(obs), np.concatenate(legal) if legal else np.zeros(0, np.int32),
                   np.asarray(offsets, dtype=np.int64), np.asarray(actions, dtype=np.int64), ret,
                   np.asarray(game, dtype=np.int32), np.asarray(seat, dtype=np.int8))


def held_out_games(samples: Samples) -> np.ndarray:
    """The rows of every ``HELD_GAMES``-th game: held out of every fit of a run with DAgger rounds."""
    return samples.game % HELD_GAMES == 0


def build_policy(observation_space, action_space, hidden: list[int], learning_rate: float = 3e-4):
    """The MaskablePPO policy ``bean-env train`` builds for these spaces and hidden widths."""
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return MaskableActorCriticPolicy(observation_space, action_space, lambda _: learning_rate,
                                     net_arch={"pi": list(hidden), "vf": list(hidden)},
                                     activation_fn=torch.nn.Tanh)


def _features(policy, x):
    return policy.extract_features(x, policy.pi_features_extractor)


def heads(policy, x):
    """The MaskablePPO policy's unmasked action logits and critic values for a batch of observations."""
    latent_pi, latent_vf = policy.mlp_extractor(_features(policy, x))
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)


def action_logits(policy, x):
    """The unmasked action logits alone (the actor's layers; no critic pass)."""
    return policy.action_net(policy.mlp_extractor.forward_actor(_features(policy, x)))


def argmax_student(policy) -> Callable[[np.ndarray, list], int]:
    """The policy's most likely legal action index for an observation vector (``record``'s student)."""
    import torch

    def act(vector: np.ndarray, legal: list) -> int:
        with torch.no_grad():
            logits = action_logits(policy, torch.as_tensor(vector[None], dtype=torch.float32))[0]
            return int(legal[int(torch.argmax(logits[torch.as_tensor(legal)]))])

    return act


def fit(policy, samples: Samples, epochs: int = 8, batch_size: int = 512, learning_rate: float = 1e-3,
        value_coef: float = 0.5, seed: int = 1, holdout: float = 0.05, log=print,
        held: Optional[np.ndarray] = None) -> dict:
    """Fit actor and critic to the samples; returns fit statistics (held-out accuracy and losses). The
    held-out rows are a random ``holdout`` share, or those where the boolean array ``held`` is set."""
    import torch

    n = len(samples)
    if n < 2:
        raise ValueError(f"too few samples to fit ({n}); record more games")
    rng = np.random.default_rng(seed)
    if held is None:
        order = rng.permutation(n)
        n_hold = max(1, int(n * holdout))
        hold, train = order[:n_hold], order[n_hold:]
    else:
        hold, train = np.flatnonzero(held), np.flatnonzero(~held)
        if not len(hold) or not len(train):
            raise ValueError(f"{len(hold)} held-out and {len(train)} training samples; record more games")
        n_hold = len(hold)
    num_actions = int(policy.action_space.n)
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)

    def forward(rows):
        x = torch.as_tensor(samples.obs[rows], dtype=torch.float32)
        mask = torch.as_tensor(samples.masks(rows, num_actions))
        logits, value = heads(policy, x)
        return logits.masked_fill(~mask, -1e8), value

    def measure(rows) -> tuple[float, float, float]:
        with torch.no_grad():
            correct, ce, mse = 0, 0.0, 0.0
            for s in range(0, len(rows), 4096):
                r = rows[s:s + 4096]
                logits, value = forward(r)
                y = torch.as_tensor(samples.actions[r])
                correct += int((logits.argmax(-1) == y).sum())
                ce += float(torch.nn.functional.cross_entropy(logits, y, reduction="sum"))
                mse += float(((value - torch.as_tensor(samples.returns[r])) ** 2).sum())
            return correct / len(rows), ce / len(rows), mse / len(rows)

    stats: dict = {"samples": n, "held_out": int(n_hold), "epochs": []}
    for epoch in range(epochs):
        policy.train()
        perm = rng.permutation(train)
        for s in range(0, len(perm), batch_size):
            rows = perm[s:s + batch_size]
            logits, value = forward(rows)
            loss = torch.nn.functional.cross_entropy(logits, torch.as_tensor(samples.actions[rows])) \
                + value_coef * ((value - torch.as_tensor(samples.returns[rows])) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
        policy.eval()
        acc, ce, mse = measure(hold)
        stats["epochs"].append({"epoch": epoch + 1, "held_out_accuracy": round(acc, 4),
                                "held_out_cross_entropy": round(ce, 4), "held_out_value_mse": round(mse, 4)})
        log(f"epoch {epoch + 1}/{epochs}: held-out accuracy {acc:.1%}, cross-entropy {ce:.3f}, value mse {mse:.3f}")
    stats.update(stats["epochs"][-1])
    return stats


def save_init(path: Path, policy, meta: dict) -> None:
    """Write ``init.pt`` (plain tensors) and ``init.json``."""
    import torch

    torch.save({k: v.detach().cpu().clone() for k, v in policy.state_dict().items()}, path / "init.pt")
    (path / "init.json").write_text(json.dumps(dict(meta, format=INIT_FORMAT), indent=2) + "\n")


def load_init(path: str | Path, layout_hash: str, hidden: list[int]) -> dict:
    """The policy state dict of an ``imitate`` run directory, checked against the training run's observation
    layout and hidden widths; raises ``ValueError`` naming the mismatch."""
    import torch

    path = Path(path)
    meta_path, weights = path / "init.json", path / "init.pt"
    if not meta_path.is_file() or not weights.is_file():
        raise ValueError(f"--init-policy {path}: no init.json/init.pt there (make them with "
                         "python -m bean_env.training.imitate)")
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"--init-policy {path}: unreadable init.json ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != INIT_FORMAT:
        raise ValueError(f"--init-policy {path}: init.json is not of format {INIT_FORMAT!r}")
    if meta.get("layout_hash") != layout_hash:
        raise ValueError(f"--init-policy {path}: observation layout {str(meta.get('layout_hash'))[:12]} differs from "
                         f"this run's {layout_hash[:12]} (other variant config or observation version)")
    if meta.get("hidden") != list(hidden):
        raise ValueError(f"--init-policy {path}: hidden widths {meta.get('hidden')} differ from --hidden {hidden}")
    try:
        state = torch.load(weights, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is reported the same way
        raise ValueError(f"--init-policy {path}: unreadable init.pt ({str(exc)[:200]})") from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise ValueError(f"--init-policy {path}: init.pt is not a dict of tensors")
    return state


def run(args: Args) -> Path:
    """Record, fit, save and evaluate; returns the run directory."""
    import gymnasium as gym
    import torch

    from bean_env.agents.ppo import PolicyNet

    from .evaluate import policy_row
    from .export import export_sb3, sb3_policy_net
    from .options import agent_spec, hidden_widths
    from .runs import EvalLog, Run, limit_threads
    from .selfplay import Args as TrainArgs, eval_opponents, rule_config
    from .selfplay_env import make_aec

    if args.dagger_rounds < 0 or args.dagger_rounds and args.dagger_games < 1:
        raise ValueError(f"--dagger-rounds {args.dagger_rounds} with --dagger-games {args.dagger_games}: "
                         "rounds must be >= 0 and each needs at least one game")
    started = time.monotonic()
    train_args = TrainArgs(variant=args.variant, num_players=args.num_players, rules=args.rules,
                           eval_opponents=args.eval_opponents)
    config = rule_config(train_args)
    eval_opponents(train_args, config)  # bad options fail here, before a run directory is made
    agent_spec("--teacher", args.teacher)
    agent_spec("--others", args.others)
    if args.seats not in ("all", "one"):
        raise ValueError(f"bad value {args.seats!r} for --seats; allowed: 'all', 'one'")
    hidden = hidden_widths(args.hidden)
    name = args.run_name or f"bc_{args.variant}__{args.seed}__{int(time.time())}"
    run_dir = Run.create(Path(args.out_dir) / name, overwrite=args.overwrite)
    print(f"run directory: {run_dir.path}", flush=True)
    limit_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    prov = run_dir.write_start(args, args.variant, config)

    samples = record(args.variant, config, args.teacher, args.games, args.seed, args.seats, args.others,
                     args.reward_mode, args.win_bonus, args.gamma)
    print(f"recorded {len(samples)} teacher decisions in {args.games} games "
          f"({time.monotonic() - started:.0f}s)", flush=True)
    aec = make_aec(args.variant, **config)
    inner = aec.observation_space(aec.possible_agents[0])["observation"]
    policy = build_policy(gym.spaces.Box(low=inner.low, high=inner.high, dtype=np.float32),
                          gym.spaces.Discrete(aec.catalogue.size), hidden)
    stats = fit(policy, samples, args.epochs, args.batch_size, args.learning_rate, args.value_coef, args.seed,
                held=held_out_games(samples) if args.dagger_rounds else None)
    rounds = []
    for r in range(args.dagger_rounds):
        policy.eval()
        student, played = argmax_student(policy), []

        def play(vector: np.ndarray, legal: list) -> int:
            played.append(student(vector, legal))
            return played[-1]

        more = record(args.variant, config, args.teacher, args.dagger_games, args.seed, args.seats, args.others,
                      args.reward_mode, args.win_bonus, args.gamma, student=play,
                      first_game=args.games + r * args.dagger_games)
        agreement = float(np.mean(np.asarray(played) == more.actions)) if len(more) else 0.0
        samples = samples.concat(more)
        print(f"DAgger round {r + 1}/{args.dagger_rounds}: the clone played {args.dagger_games} games, "
              f"{len(more)} decisions, the teacher's choice in {agreement:.1%}; {len(samples)} samples "
              f"({time.monotonic() - started:.0f}s)", flush=True)
        round_stats = fit(policy, samples, args.dagger_epochs, args.batch_size, args.learning_rate,
                          args.value_coef, args.seed + r + 1, held=held_out_games(samples))
        rounds.append({"round": r + 1, "games": args.dagger_games, "decisions": len(more),
                       "agreement_on_own_decisions": round(agreement, 4),
                       "held_out_accuracy": round_stats["held_out_accuracy"], "samples": len(samples)})
    if rounds:
        stats = dict(round_stats, dagger=rounds, first_fit=stats)
    meta = {"variant": args.variant, "config": config, "layout_hash": prov["layout_hash"], "hidden": hidden,
            "teacher": args.teacher, "args": dataclasses.asdict(args), "fit": stats, "provenance": prov,
            "cpu_seconds": round(time.process_time(), 1), "wall_seconds": round(time.monotonic() - started, 1)}
    save_init(run_dir.path, policy, meta)
    model = type("Model", (), {"policy": policy})()
    training = {"algorithm": "behaviour cloning" + (f" with {args.dagger_rounds} DAgger rounds" if rounds else ""),
                "teacher": args.teacher, "games": args.games + args.dagger_rounds * args.dagger_games,
                "samples": len(samples), "held_out_accuracy": stats["held_out_accuracy"]}
    export_sb3(model, run_dir.path / "policy", args.variant, config, training, prov,
               algorithm=f"behaviour cloning of {args.teacher} (training.imitate; a MaskablePPO network)")
    if args.eval_games > 0:
        net: PolicyNet = sb3_policy_net(model, {"variant": args.variant, "config": config,
                                                "layout_hash": prov["layout_hash"]})
        opponents = eval_opponents(train_args, config)
        row = policy_row(net, args.variant, config, opponents, args.eval_games, 10_000 + args.seed, "clone", 0)
        EvalLog(run_dir.eval_csv, opponents).append(row)
        from .selfplay import describe

        print(f"clone of {args.teacher}: {describe(row, opponents)}", flush=True)
    print(f"run directory: {run_dir.path}")
    return run_dir.path


def parse_args(argv: list[str] | None = None, prog: str = "python -m bean_env.training.imitate") -> Args:
    from .options import add_arguments

    parser = argparse.ArgumentParser(prog=prog,
                                     description=__doc__.split("\n\n")[0])
    return Args(**vars(add_arguments(parser, Args).parse_args(argv)))


def main(argv: list[str] | None = None, prog: str = "python -m bean_env.training.imitate") -> None:
    run(parse_args(argv, prog))


if __name__ == "__main__":
    main()
