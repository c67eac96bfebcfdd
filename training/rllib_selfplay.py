"""Self-play with Ray RLlib PPO (new API stack) for clusters: one shared policy plays every seat.

    python -m bean_env.training.rllib_selfplay --variant bean_duel --iterations 50
    python -m bean_env.training.rllib_selfplay --address ray://head:10001 --num-env-runners 32 ...

The AEC env is exposed to RLlib as a ``MultiAgentEnv`` (``BeanMultiAgentEnv``) whose observations are
``{"observations": vector, "action_mask": float mask}`` (the key names RLlib's action-masking module
expects). All seats map to the one policy ``shared`` (parameter sharing), an
``ActionMaskingTorchRLModule`` that sets illegal logits to a huge negative value. Each seat's reward is
delivered to that seat only, with its next observation (or at the end of the game), so it is correct
for any number of players.

Runs on a local Ray instance by default, on a cluster with ``--address``. The run directory gets RLlib
checkpoints (resumable with ``--resume``), ``progress.csv`` and the policy file pair ``policy.pt``/
``policy.json`` for the ``ppo`` agent (the actor's linear layers, exported by ``export_rllib``).
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

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from bean_env.agents.ppo import save_policy

from .selfplay import _bool, _field_docs
from .selfplay_env import make_aec

POLICY_ID = "shared"
ENV_NAME = "bean_env_multi_agent"


class BeanMultiAgentEnv(MultiAgentEnv):
    """The AEC env of a variant as an RLlib turn-based ``MultiAgentEnv``.

    ``env_config``: ``variant``, ``rules`` (rule options), ``reward_mode``. Only the seat to act gets an
    observation; rewards a seat earns while others act are held back and paid with its next
    observation; at the end every seat gets its final observation and reward."""

    def __init__(self, env_config: dict | None = None):
        super().__init__()
        cfg = dict(env_config or {})
        self.aec = make_aec(cfg.get("variant", "bean_duel"), reward_mode=cfg.get("reward_mode", "win"),
                            **cfg.get("rules", {}))
        self.agents = self.possible_agents = list(self.aec.possible_agents)
        inner = self.aec.observation_space(self.agents[0])["observation"]
        size = self.aec.catalogue.size
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(low=inner.low, high=inner.high, dtype=np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
        })
        self.observation_spaces = {a: space for a in self.agents}
        self.action_spaces = {a: gym.spaces.Discrete(size) for a in self.agents}
        self._held: dict[str, float] = {}

    def _obs(self, agent: str) -> dict:
        o = self.aec.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed)
        self._held = {a: 0.0 for a in self.agents}
        return {self.aec.agent_selection: self._obs(self.aec.agent_selection)}, {}

    def step(self, action_dict: dict):
        aec = self.aec
        aec.step(int(action_dict[aec.agent_selection]))
        for a in self.agents:
            self._held[a] += float(aec.rewards.get(a, 0.0))
        terminated = all(aec.terminations.values())
        truncated = not terminated and any(aec.truncations.values())
        if terminated or truncated:
            obs = {a: self._obs(a) for a in self.agents}
            rewards = {a: self._held[a] for a in self.agents}
            self._held = {a: 0.0 for a in self.agents}
            flags = {a: True for a in self.agents}
            none = {a: False for a in self.agents}
            return (obs, rewards, dict(flags if terminated else none, __all__=terminated),
                    dict(flags if truncated else none, __all__=truncated), {})
        nxt = aec.agent_selection
        reward = {nxt: self._held[nxt]}
        self._held[nxt] = 0.0
        return {nxt: self._obs(nxt)}, reward, {"__all__": False}, {"__all__": False}, {}


@dataclass
class Args:
    variant: str = "bean_duel"
    """variant to train on"""
    num_players: Optional[int] = None
    """number of players (default: the variant's default)"""
    rules: str = "{}"
    """other rule options as JSON"""
    seed: int = 1
    """seed of RLlib (env runners, network initialisation)"""
    iterations: int = 20
    """training iterations (one train batch each), in total counting a resumed run's earlier ones"""
    train_batch: int = 4000
    """env steps per training iteration (all seats together)"""
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
    """env reward mode ('win', 'score', 'margin')"""
    num_env_runners: int = 0
    """remote env runner actors (0 = sample in the driver process)"""
    num_cpus: Optional[int] = None
    """CPUs of the local Ray instance (default: all; ignored with --address)"""
    address: Optional[str] = None
    """address of a running Ray cluster (default: start a local instance)"""
    checkpoint_every: int = 10
    """iterations between checkpoints"""
    out_dir: str = "runs"
    """folder of run directories"""
    run_name: Optional[str] = None
    """run directory name (default: rllib_<variant>__<seed>__<unix time>)"""
    resume: Optional[str] = None
    """run directory to continue from its latest checkpoint"""


def parse_args(argv: list[str] | None = None, prog: str = "python -m bean_env.training.rllib_selfplay") -> Args:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    docs = _field_docs(Args)
    for f in dataclasses.fields(Args):
        kind = {"int": int, "float": float, "str": str, "bool": _bool}[str(f.type).replace("Optional[", "").rstrip("]")]
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=f.default,
                            help=f"{docs.get(f.name, '')} (default: {f.default})")
    return Args(**vars(parser.parse_args(argv)))


def build_config(args: Args, rules: dict):
    """The ``PPOConfig`` of a run."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, lambda cfg: BeanMultiAgentEnv(cfg))
    hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": hidden, "fcnet_activation": "tanh",
                                        "head_fcnet_hiddens": [], "vf_share_layers": False})
    return (
        PPOConfig()
        .framework("torch")
        .environment(ENV_NAME, env_config={"variant": args.variant, "rules": rules,
                                           "reward_mode": args.reward_mode})
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


def export_rllib(algo, path: str | Path, variant: str, rules: dict, training: dict | None = None) -> Path:
    """Write the shared policy's actor as a policy file pair for the ``ppo`` agent."""
    module = algo.get_module(POLICY_ID)
    meta = {"variant": variant, "config": dict(rules), "activation": "tanh",
            "algorithm": "PPO (Ray RLlib, new API stack)", "training": dict(training or {})}
    return save_policy(path, actor_layers(module), meta)


def train(args: Args) -> Path:
    """Run (or resume) an RLlib self-play run; returns its run directory."""
    import ray

    from bean_env.engine.config import validate

    rules = json.loads(args.rules)
    if args.num_players is not None:
        rules["num_players"] = args.num_players
    rules = validate(args.variant, rules)
    if args.resume:
        run = Path(args.resume)
    else:
        run = Path(args.out_dir) / (args.run_name or f"rllib_{args.variant}__{args.seed}__{int(time.time())}")
    run.mkdir(parents=True, exist_ok=True)
    ckpt = run / "checkpoint"
    state_file = run / "state.json"

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        algo = build_config(args, rules).build_algo()
        done = 0
        if args.resume:
            if not state_file.exists():
                raise FileNotFoundError(f"--resume {args.resume}: no {state_file}")
            algo.restore_from_path(str(ckpt.resolve()))
            done = json.loads(state_file.read_text())["iterations"]
        new = not (run / "progress.csv").exists()
        with (run / "progress.csv").open("a", newline="") as fh:
            out = csv.writer(fh)
            if new:
                out.writerow(["iteration", "env_steps", "episodes", "episode_return_mean", "seconds"])
            start = time.time()
            for it in range(done + 1, args.iterations + 1):
                result = algo.train()
                runners = result.get("env_runners", {})
                out.writerow([it, runners.get("num_env_steps_sampled_lifetime", ""),
                              runners.get("num_episodes_lifetime", ""),
                              runners.get("episode_return_mean", ""), round(time.time() - start, 1)])
                fh.flush()
                print(f"iteration {it}: episode return mean {runners.get('episode_return_mean')}", flush=True)
                if it % args.checkpoint_every == 0 or it == args.iterations:
                    algo.save_to_path(str(ckpt.resolve()))
                    state_file.write_text(json.dumps({"iterations": it, "args": dataclasses.asdict(args)}) + "\n")
        export_rllib(algo, run / "policy", args.variant, rules,
                     {"iterations": args.iterations, "args": dataclasses.asdict(args)})
        algo.stop()
    finally:
        ray.shutdown()
    print(f"run directory: {run}")
    return run


def main(argv: list[str] | None = None, prog: str = "python -m bean_env.training.rllib_selfplay") -> None:
    train(parse_args(argv, prog))


if __name__ == "__main__":
    main()
