"""A single-agent gymnasium env for self-play: the learner plays one seat, the pool plays the others.

Each episode the learner takes the next seat in rotation (seat ``episode % n``, starting from a seeded
offset), and every other seat gets an opponent drawn from the ``OpponentPool``. Opponents' decisions are
played inside ``step`` until the learner must decide again or the game ends. The learner's reward is the
AEC env's reward for the learner's seat only, summed over every AEC step since its last action
(PettingZoo's per-agent rewards), so it is correct for any number of players and any reward mode; what
the game pays before the learner's first action (its start, the opponents' first moves) comes with the
first step, so an episode's rewards add up to everything the seat was paid.

With ``gift_penalty`` p > 0 the learner's reward also loses p for every card it receives as a gift
(an executed trade in which it gave nothing; ``bean_env.engine.trade_stats``). That is training-only
reward shaping against farming a generous opponent: the AEC env's own rewards do not change.
With ``relative_reward`` (also training-only) the learner is paid its reward minus the mean of the other
seats' rewards at each AEC step (with dense rewards: coins earned relative to the opponents); the gift
penalty applies after it. With ``trade_bonus`` b > 0 (training-only too) the learner gains b for every
executed trade in which it both gave and received cards: an incentive to pay for cards instead of taking
them as gifts.

``action_masks()`` returns the learner's legal actions (sb3-contrib's MaskablePPO reads it).
"""
from __future__ import annotations

import importlib
import random
from typing import Any

import gymnasium as gym
import numpy as np

from bean_env.agents.ppo import PolicyNet
from bean_env.engine.events import listening
from bean_env.engine.trade_stats import exchanges, gift_cards_received
from bean_env.envs.aec import legal_mask

from .opponents import OpponentPool


def make_aec(variant: str, reward_mode: str = "win", win_bonus: float = 0.0, **config: Any):
    """The raw AEC env of a variant (no order-enforcing wrapper: this module drives it correctly)."""
    module = importlib.import_module(f"bean_env.envs.{variant}_v1")
    if win_bonus:
        config["win_bonus"] = win_bonus
    return module.raw_env(reward_mode=reward_mode, **config)


class SelfPlayEnv(gym.Env):
    """Learner-vs-pool env on one variant config. ``info`` at episode end has ``seat``, ``opponents``,
    ``win`` (learner among the winners) and ``scores``."""

    metadata = {"render_modes": []}

    def __init__(self, variant: str, config: dict | None = None, pool: OpponentPool | None = None,
                 reward_mode: str = "win", seed: int = 0, win_bonus: float = 0.0, gift_penalty: float = 0.0,
                 relative_reward: bool = False, trade_bonus: float = 0.0):
        super().__init__()
        if not gift_penalty >= 0:
            raise ValueError(f"gift_penalty must be a number >= 0, got {gift_penalty!r}")
        if not trade_bonus >= 0:
            raise ValueError(f"trade_bonus must be a number >= 0, got {trade_bonus!r}")
        self.gift_penalty = float(gift_penalty)
        self.trade_bonus = float(trade_bonus)
        self.relative_reward = bool(relative_reward)
        self.variant = variant
        self.aec = make_aec(variant, reward_mode=reward_mode, win_bonus=win_bonus, **(config or {}))
        self.config = dict(self.aec.config)
        self.pool = pool if pool is not None else OpponentPool({"random": 1.0}, seed=seed)
        inner = self.aec.observation_space(self.aec.possible_agents[0])["observation"]
        self.observation_space = gym.spaces.Box(low=inner.low, high=inner.high, dtype=np.float32)
        self.action_space = gym.spaces.Discrete(self.aec.catalogue.size)
        self.num_players = len(self.aec.possible_agents)
        self._rng = random.Random(seed)
        self._episode = self._rng.randrange(self.num_players)
        self.learner = self.aec.possible_agents[0]
        self.opponents: dict[str, Any] = {}
        self._reward = 0.0
        self._events: list = []  # the trade events of the last steps (with a gift penalty or trade bonus)

    # -- pool management (called through VecEnv.env_method) -------------------------------------------
    def add_snapshot(self, layers: list, activation: str, meta: dict) -> None:
        """Add a frozen learner snapshot (plain arrays, so it crosses process boundaries)."""
        self.pool.add_snapshot(PolicyNet(layers, activation, meta))

    def snapshot_count(self) -> int:
        return len(self.pool.snapshots)

    # -- gymnasium API ------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self.pool.rng.seed(self._rng.getrandbits(64))
        aec = self.aec
        while True:
            aec.reset(seed=self._rng.getrandbits(62))
            self.learner = aec.possible_agents[self._episode % self.num_players]
            self._episode += 1
            self.opponents = {a: self.pool.draw() for a in aec.possible_agents if a != self.learner}
            self._reward = 0.0
            self._events.clear()
            self._collect()  # what the game pays at its start (dense: the points every seat starts with)
            self._play_opponents()
            if not self._done():
                break
        return self._obs(), {"seat": aec.agent_name_mapping[self.learner]}

    def step(self, action):
        aec = self.aec
        self._apply(int(action))
        self._collect()
        self._play_opponents()
        terminated = all(aec.terminations.values())
        truncated = not terminated and any(aec.truncations.values())
        info: dict = {}
        if terminated or truncated:
            game = aec.game
            seat = aec.agent_name_mapping[self.learner]
            info = {"seat": seat, "win": seat in game.winners(), "scores": game.scores(),
                    "opponents": [getattr(o, "kind", "?") for o in self.opponents.values()]}
        reward, self._reward = self._reward, 0.0  # the next step's sum starts here
        return self._obs(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once the episode is over)."""
        legal = () if self._done() else self.aec.legal_indices()  # no observation encoding: the step made one
        return legal_mask(legal, self.action_space.n, np.bool_)

    # -- internals ----------------------------------------------------------------------------------------
    def _done(self) -> bool:
        aec = self.aec
        return any(aec.terminations.values()) or any(aec.truncations.values())

    def _apply(self, action: int) -> None:
        """``aec.step(action)``; with a gift penalty or trade bonus the engine records the trades of this step
        only (not those of an opponent's search, which plays on clones sharing the rules object)."""
        if not (self.gift_penalty or self.trade_bonus):
            self.aec.step(action)
            return
        with listening(self.aec.game.rules, self._events):
            self.aec.step(action)

    def _collect(self) -> None:
        rewards = self.aec.rewards
        self._reward += float(rewards.get(self.learner, 0.0))
        if self.relative_reward and len(rewards) > 1:
            self._reward -= sum(float(r) for a, r in rewards.items() if a != self.learner) / (len(rewards) - 1)
        if self._events:
            seat = self.aec.agent_name_mapping[self.learner]
            self._reward -= self.gift_penalty * gift_cards_received(self._events).get(seat, 0)
            self._reward += self.trade_bonus * exchanges(self._events).get(seat, 0)
            self._events.clear()

    def _play_opponents(self) -> None:
        aec, learner, opponents = self.aec, self.learner, self.opponents
        while aec.agent_selection != learner and not self._done():
            agent = aec.agent_selection
            self._apply(opponents[agent].choose(aec, agent))
            self._collect()

    def _obs(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"]
