"""The AEC env of a variant as RLlib's ``MultiAgentEnv`` (``BeanMultiAgentEnv``), with multi-seat self-play:
every *learner seat* is played by the one shared policy ``POLICY_ID``, the other seats by opponents inside
the env. Observations are ``{"observations": vector, "action_mask": float mask}``.
"""
from __future__ import annotations

import random
from pathlib import Path

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from bean_env.agents.ppo import PolicyNet

from ..league import LEARNER, split_mix
from ..opponents import OpponentPool
from ..selfplay_env import make_aec

POLICY_ID = "shared"


class BeanMultiAgentEnv(MultiAgentEnv):
    """The AEC env of a variant as an RLlib turn-based ``MultiAgentEnv`` with multi-seat self-play.

    ``env_config``: ``variant``, ``rules`` (rule options), ``reward_mode``, ``win_bonus``, and the seat mix
    ``opponent_mix`` (default ``"learner:1"``: every seat is the shared policy). Each episode each seat is
    a *learner seat* with the ``learner`` share of the mix, else it is played inside the env by an opponent
    drawn from the rest of the mix (``self``: a snapshot policy file from ``snapshot_dir``, or a baseline
    agent); at least one seat is a learner seat. Only learner seats appear to RLlib: all their decisions are
    experience of the one shared policy, each seat with its own rewards. Only the seat to act gets an
    observation; rewards a seat earns while others act are held back and paid with its next observation;
    at the end every learner seat gets its final observation and reward."""

    def __init__(self, env_config: dict | None = None):
        super().__init__()
        cfg = dict(env_config or {})
        self.aec = make_aec(cfg.get("variant", "bean_duel"), reward_mode=cfg.get("reward_mode", "win"),
                            win_bonus=cfg.get("win_bonus", 0.0), **cfg.get("rules", {}))
        self.agents = self.possible_agents = list(self.aec.possible_agents)
        inner = self.aec.observation_space(self.agents[0])["observation"]
        size = self.aec.catalogue.size
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(low=inner.low, high=inner.high, dtype=np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
        })
        self.observation_spaces = {a: space for a in self.agents}
        self.action_spaces = {a: gym.spaces.Discrete(size) for a in self.agents}
        seed = int(cfg.get("seed") or 0) * 7919 + 101 * int(getattr(env_config, "worker_index", 0) or 0) + \
            int(getattr(env_config, "vector_index", 0) or 0)
        self.learner_share, mix = split_mix(cfg.get("opponent_mix", f"{LEARNER}:1"))
        self.pool = OpponentPool(mix, max_snapshots=int(cfg.get("max_snapshots", 8)), seed=seed) if mix else None
        self.snapshot_dir = Path(cfg["snapshot_dir"]) if cfg.get("snapshot_dir") else None
        self._loaded: set[str] = set()
        self._rng = random.Random(seed)
        self.learners: list[str] = list(self.agents)
        self.opponents: dict[str, object] = {}
        self._held: dict[str, float] = {}
        self._paid: dict[str, float] = {}
        self._decisions: dict[str, int] = {}
        self.last_result: dict | None = None  # the last finished game: per learner seat, paid and decisions

    def _load_snapshots(self) -> None:
        """Add policy files written to ``snapshot_dir`` since the last episode to the pool."""
        if self.snapshot_dir is None or self.pool is None or not self.snapshot_dir.exists():
            return
        for path in sorted(self.snapshot_dir.glob("snap_*.pt"), key=lambda p: int(p.stem.split("_")[1])):
            if path.name not in self._loaded:
                self._loaded.add(path.name)
                self.pool.add_snapshot(PolicyNet.load(path))

    def _obs(self, agent: str) -> dict:
        o = self.aec.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}

    def _draw_seats(self) -> None:
        if self.pool is None:
            self.learners, self.opponents = list(self.agents), {}
            return
        self._load_snapshots()
        learners = [a for a in self.agents if self._rng.random() < self.learner_share]
        if not learners:
            learners = [self._rng.choice(self.agents)]
        self.learners = learners
        self.opponents = {a: self.pool.draw() for a in self.agents if a not in learners}

    def _done(self) -> bool:
        aec = self.aec
        return any(aec.terminations.values()) or any(aec.truncations.values())

    def _collect(self) -> None:
        for a in self.learners:
            self._held[a] += float(self.aec.rewards.get(a, 0.0))

    def _play_opponents(self) -> None:
        aec = self.aec
        while not self._done() and aec.agent_selection in self.opponents:
            agent = aec.agent_selection
            aec.step(self.opponents[agent].choose(aec, agent))
            self._collect()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng.seed(seed)
        while True:
            self.aec.reset(seed=seed if seed is not None else self._rng.getrandbits(62))
            seed = None
            self._draw_seats()
            self._held = {a: 0.0 for a in self.learners}
            self._paid = {a: 0.0 for a in self.learners}
            self._decisions = {a: 0 for a in self.learners}
            self._collect()  # what the game pays at its start (dense: the points every seat starts with)
            self._play_opponents()
            if not self._done():
                break
        return {self.aec.agent_selection: self._obs(self.aec.agent_selection)}, {}

    def step(self, action_dict: dict):
        aec = self.aec
        self._decisions[aec.agent_selection] += 1
        aec.step(int(action_dict[aec.agent_selection]))
        self._collect()
        self._play_opponents()
        terminated = all(aec.terminations.values())
        truncated = not terminated and any(aec.truncations.values())
        if terminated or truncated:
            obs = {a: self._obs(a) for a in self.learners}
            rewards = {a: self._held[a] for a in self.learners}
            self._held = {a: 0.0 for a in self.learners}
            for a, r in rewards.items():
                self._paid[a] += r
            self.last_result = {"paid": dict(self._paid), "decisions": dict(self._decisions),
                                "scores": list(aec.game.scores()),
                                "opponents": {a: getattr(o, "kind", "?") for a, o in self.opponents.items()}}
            flags = {a: True for a in self.learners}
            none = {a: False for a in self.learners}
            return (obs, rewards, dict(flags if terminated else none, __all__=terminated),
                    dict(flags if truncated else none, __all__=truncated), {})
        nxt = aec.agent_selection
        reward = {nxt: self._held[nxt]}
        self._paid[nxt] += self._held[nxt]
        self._held[nxt] = 0.0
        return {nxt: self._obs(nxt)}, reward, {"__all__": False}, {"__all__": False}, {}
