"""Self-play on the batched env (``bean-env train --batched``): one stable-baselines3 ``VecEnv`` over a
``bean_env.vector.VectorEnv`` of ``n_envs`` game slots.

As in ``SelfPlayEnv``, the learner plays one seat per game (rotating each game of a slot, from a seeded
offset) and every other seat gets an opponent drawn from the ``OpponentPool`` for that game; the
learner's reward is its seat's reward summed over every step since its last decision (what a game
pays before the learner's first decision in it comes with that decision's step). What differs is
how the opponents move: all slots waiting for an opponent step together, and the snapshot opponents of
those slots that share a network decide in one batched forward pass (sampled with the Gumbel-max
trick) on the observations the batch already holds. Baseline opponents decide per slot, from the slot's
AEC env, exactly as in ``SelfPlayEnv``. On the array kernels (``backend="arrays"``) there are no AEC envs:
the pool may then hold only snapshots and ``random``, which draws from the slot's mask.
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
import torch

from bean_env.agents.ppo import MASKED_LOGIT, PolicyNet
from bean_env.vector import add_learner_rewards, make_vector_env
from bean_env.vector.array_env import ArrayVectorEnv
from bean_env.vector.sb3 import BatchVecEnv

from .opponents import OpponentPool, RandomPlayer, SnapshotPlayer, engine_opponents


class BatchedSelfPlayVecEnv(BatchVecEnv):
    """``n_envs`` learner-vs-pool games stepped as one batch. ``infos[i]`` at a game's end has ``seat``,
    ``win``, ``scores``, ``opponents`` and ``terminal_observation``; ``env_method("action_masks")``
    feeds MaskablePPO, ``env_method("add_snapshot", ...)`` and ``"snapshot_count"`` manage the pool."""

    _methods = ("add_snapshot", "snapshot_count")  # one pool for every slot: answered once

    def __init__(self, variant: str, config: dict, n_envs: int, pool: OpponentPool, reward_mode: str = "win",
                 seed: int = 0, win_bonus: float = 0.0, backend: str = "engine"):
        options: dict[str, Any] = dict(config, reward_mode=reward_mode)
        if win_bonus:
            options["win_bonus"] = win_bonus
        self.vec = make_vector_env(variant, n_envs, backend, **options)
        self._arrays = isinstance(self.vec, ArrayVectorEnv)
        others = engine_opponents(pool.mix)
        if self._arrays and others:
            raise ValueError(f"opponents {others} need the engine's games; with backend {backend!r} the opponent "
                             "mix may hold only self and random")
        self.pool = pool
        super().__init__(self.vec, seed)
        n = self.vec.num_players
        self._rng = random.Random(seed)
        self._episode = [self._rng.randrange(n) for _ in range(n_envs)]  # seat offsets, then game counts
        self.seats = np.zeros(n_envs, dtype=np.int64)
        self.opponents: list[dict[int, Any]] = [{} for _ in range(n_envs)]
        self._torch_layers: dict[int, tuple] = {}  # id(net) -> (net, torch weights)
        # learner rewards of a slot's new game earned before the learner's first step in it (paid with
        # that step: the step that ended the game before reports only that game's rewards)
        self._carry = np.zeros(n_envs, np.float32)

    # -- pool management (VecEnv.env_method) ---------------------------------------------------------
    def add_snapshot(self, layers: list, activation: str, meta: dict) -> None:
        """Add a frozen learner snapshot to the pool (every slot draws from the same pool)."""
        self.pool.add_snapshot(PolicyNet(layers, activation, meta))
        kept = {id(net) for net in self.pool.snapshots}
        self._torch_layers = {k: v for k, v in self._torch_layers.items() if k in kept}

    def snapshot_count(self) -> int:
        return len(self.pool.snapshots)

    # -- games -----------------------------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        """The learner's seat and the opponents of slot ``i``'s new game."""
        n = self.vec.num_players
        seat = self._episode[i] % n
        self._episode[i] += 1
        self.seats[i] = seat
        self.opponents[i] = {q: self.pool.draw() for q in range(n) if q != seat}

    def _opponent_actions(self, waiting: np.ndarray) -> np.ndarray:
        """One action for each waiting slot: snapshots batched per network, baselines per slot."""
        vec = self.vec
        actions = np.full(self.num_envs, -1, dtype=np.int64)
        groups: dict[int, tuple[SnapshotPlayer, list[int]]] = {}
        for i in waiting.tolist():
            seat = int(vec.actors[i])
            player = self.opponents[i][seat]
            if isinstance(player, SnapshotPlayer):
                groups.setdefault(id(player.net), (player, []))[1].append(i)
            elif self._arrays:
                assert isinstance(player, RandomPlayer)  # the only baseline the constructor lets through
                actions[i] = player.choose_index(vec.masks[i])
            else:
                env = vec.envs[i]
                actions[i] = player.choose(env, env.possible_agents[seat])
        for player, rows in groups.values():
            assert not vec.stale[rows].any(), "a snapshot opponent's observation was not encoded"
            z = np.where(vec.masks[rows], self._logits(player.net, vec.obs[rows]), MASKED_LOGIT)
            if not player.greedy:
                z = z + player.rng.gumbel(size=z.shape)  # argmax of logits + Gumbel noise samples softmax
            actions[rows] = z.argmax(axis=1)
        return actions

    def _logits(self, net: PolicyNet, obs: np.ndarray) -> np.ndarray:
        """The network's logits for a batch, in torch on the trainer's thread count (numpy's threaded BLAS
        stalls on a busy machine for batches of more than a few rows)."""
        layers = self._torch_layers.get(id(net))
        if layers is None or layers[0] is not net:
            self._torch_layers[id(net)] = layers = (net, [(torch.from_numpy(w), torch.from_numpy(b))
                                                         for w, b in net.layers])
        tanh = net.activation == "tanh"
        with torch.no_grad():
            x = torch.from_numpy(obs)
            last = len(layers[1]) - 1
            for k, (w, b) in enumerate(layers[1]):
                x = torch.nn.functional.linear(x, w, b)
                if k < last:
                    x = torch.tanh(x) if tanh else torch.relu(x)
        return x.numpy().astype(np.float64)

    def _play(self, actions: np.ndarray, stepped: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
              infos: list[dict]) -> None:
        """Step ``stepped`` slots, add the learner's rewards, end and restart finished games."""
        # observations only where something reads them: the learner's seat and snapshot opponents (baselines
        # decide from the slot's game); the others stay stale until a reader's turn comes
        paid, term, trunc, more = self.vec.step_slots(actions, stepped, observe=False)
        add_learner_rewards(rewards, self._carry, paid, self.seats, dones)
        for i in np.flatnonzero(term | trunc).tolist():
            seat = int(self.seats[i])
            if not dones[i]:  # a slot reports one finished game per learner step
                dones[i] = True
                infos[i] = {"seat": seat, "win": seat in more[i]["winners"], "scores": more[i]["final_scores"],
                            "opponents": [getattr(o, "kind", "?") for o in self.opponents[i].values()],
                            "terminal_observation": more[i]["final_observations"][seat],
                            "TimeLimit.truncated": bool(trunc[i])}
            self._new_game(i)
        vec = self.vec
        readers = vec.actors == self.seats
        for i in np.flatnonzero(vec.stale & ~readers).tolist():
            readers[i] = isinstance(self.opponents[i][int(vec.actors[i])], SnapshotPlayer)
        vec.refresh(readers)

    def _to_learner(self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict]) -> None:
        """Let the opponents move until every slot waits for its learner."""
        while True:
            waiting = np.flatnonzero(self.vec.actors != self.seats)
            if not len(waiting):
                return
            self._play(self._opponent_actions(waiting), waiting, rewards, dones, infos)

    # -- VecEnv API ------------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        self.vec.reset(self._seed)
        self._seed = None
        for i in range(self.num_envs):
            self._new_game(i)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        self._carry[:] = 0.0
        rewards = np.zeros(self.num_envs, np.float32)
        self._to_learner(rewards, np.zeros(self.num_envs, bool), infos)
        self._carry += rewards  # paid before the learner's first step: reported with it
        return self.vec.obs.copy()

    def step_wait(self):
        actions, self._actions = self._actions, None
        n = self.num_envs
        rewards, self._carry = self._carry, np.zeros(n, np.float32)
        dones = np.zeros(n, bool)
        infos: list[dict] = [{} for _ in range(n)]
        self._play(actions, np.arange(n), rewards, dones, infos)
        self._to_learner(rewards, dones, infos)
        return self.vec.obs.copy(), rewards, dones, infos
