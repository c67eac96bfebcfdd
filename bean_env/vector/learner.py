"""The learner's side of the batched env: in each game slot of a ``VectorEnv`` one seat is the learner's,
and a batched opponent policy plays the other seats until every slot waits for its learner.

Terms:
- *learner seat* of a slot (``learner_seat``): a seat number, the same in every slot and game;
  ``"rotate"``: slot ``i`` starts at seat ``i mod n`` and moves one seat on with each new game of the
  slot; ``"random"``: drawn for each new game from the batch's own generator (seeded by ``seed``).
- *learner step*: the learner's action in a slot, then the opponents' moves until the slot waits for its
  learner again. Its reward is the learner seat's reward summed over those moves.
- *carry*: what a slot's new game pays the learner before its first step in that game (the opponents
  moved first; under ``dense``, the coins a game starts with). It is paid with that first step, never
  with the step that ended the game before.

``LearnerBatch`` is the core; ``learner_vec_env`` (a stable-baselines3 ``VecEnv``, ``vector.sb3``) and
``learner_gym_vector_env`` (a Gymnasium ``VectorEnv``, ``vector.gymnasium_face``) are its faces.
"""
from __future__ import annotations

import numbers
import random
from typing import Any

import numpy as np

from ..envs.aec import check_seed
from .array_env import make_vector_env
from .env import BatchPolicy, uniform_random_policy

LEARNER_SEATS = ("rotate", "random")  # the named choices of ``learner_seat`` beside a seat number


def add_learner_rewards(rewards: np.ndarray, carry: np.ndarray, paid: np.ndarray, seats: np.ndarray,
                        done: np.ndarray) -> None:
    """Add each slot's learner reward of a batched step (``paid[i, seats[i]]``) to ``rewards``; for the
    slots whose game already ended earlier in the same learner step it belongs to their new game and goes
    to ``carry`` instead (reported with the learner's first step in that game)."""
    learner = paid[np.arange(len(seats)), seats]
    if done.any():
        carry[done] += learner[done]
        learner[done] = 0.0
    rewards += learner


def check_learner_seat(learner_seat: Any, num_players: int) -> int | str:
    """``learner_seat`` as stored (numpy integers as ``int``); a ``ValueError`` naming the allowed values."""
    if isinstance(learner_seat, str) and learner_seat in LEARNER_SEATS:
        return learner_seat
    if (isinstance(learner_seat, numbers.Integral) and not isinstance(learner_seat, (bool, np.bool_))
            and 0 <= learner_seat < num_players):
        return int(learner_seat)
    raise ValueError(f"bad learner_seat {learner_seat!r}; allowed: 0..{num_players - 1}, 'rotate' or 'random'")


class LearnerBatch:
    """``num_envs`` games of ``variant`` (options as the AEC env's) in which the learner plays one seat of
    each slot and ``opponent`` (a ``BatchPolicy``; default: uniform random play from ``seed``) every other
    seat. ``obs``, ``masks`` and ``seats`` are the batch's arrays: the learner's observation, legal
    actions and seat in each slot. ``backend``: the batched env's (``array_env.make_vector_env``;
    ``"arrays"`` or ``"auto"`` runs the variants that have them on array kernels, the same games)."""

    def __init__(self, variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                 learner_seat: int | str = "rotate", seed: int | None = None, backend: str = "engine",
                 **options: Any):
        seed = check_seed(seed)
        if opponent is not None and not callable(opponent):
            raise TypeError(f"opponent must be a batched policy (obs, masks) -> actions, not {opponent!r}")
        self.vec = make_vector_env(variant, num_envs, backend, **options)
        self.num_envs = num_envs
        self.learner_seat = check_learner_seat(learner_seat, self.vec.num_players)
        self._own_opponent = opponent is None  # uniform random play, reseeded with the games
        self.opponent: BatchPolicy = opponent if opponent is not None else uniform_random_policy(seed)
        # whether steps encode the observations of the slots they leave (else only the learner's, at the
        # end of each learner step): needed where the opponent reads them
        self._observe = getattr(self.opponent, "reads_obs", True)
        self._seed = seed            # used by the first reset without a seed of its own
        self._seat_rng = random.Random(seed)
        self.seats = np.zeros(num_envs, np.int64)
        self._carry = np.zeros(num_envs, np.float32)
        self._started = False

    @property
    def obs(self) -> np.ndarray:
        return self.vec.obs

    @property
    def masks(self) -> np.ndarray:
        return self.vec.masks

    # -- games -----------------------------------------------------------------------------------------
    def _new_game(self, i: int, first: bool = False) -> None:
        """The learner's seat in slot ``i``'s new game (``first``: the game a reset deals)."""
        n, mode = self.vec.num_players, self.learner_seat
        if mode == "rotate":
            self.seats[i] = i % n if first else (self.seats[i] + 1) % n
        elif mode == "random":
            self.seats[i] = self._seat_rng.randrange(n)
        else:
            self.seats[i] = mode

    def _play(self, actions: np.ndarray, stepped: np.ndarray, rewards: np.ndarray, done: np.ndarray,
              terminated: np.ndarray, truncated: np.ndarray, infos: list[dict]) -> None:
        """Step the ``stepped`` slots (an illegal action raises before anything changes), add the learner's
        rewards, report and restart the games that ended (one per slot and learner step)."""
        paid, term, trunc, more = self.vec.step_slots(actions, stepped, self._observe)
        add_learner_rewards(rewards, self._carry, paid, self.seats, done)
        for i in np.flatnonzero(term | trunc).tolist():
            if not done[i]:
                seat = int(self.seats[i])
                done[i], terminated[i], truncated[i] = True, term[i], trunc[i]
                infos[i] = {"final_scores": more[i]["final_scores"], "winners": more[i]["winners"], "seat": seat,
                            "final_observation": more[i]["final_observations"][seat]}
            self._new_game(i)

    def _to_learner(self, rewards: np.ndarray, done: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                    infos: list[dict]) -> None:
        """Let the opponents move until every slot waits for its learner; then encode the learner's
        observations that the opponents' steps left stale."""
        vec = self.vec
        while True:
            waiting = np.flatnonzero(vec.actors != self.seats)
            if not len(waiting):
                vec.refresh()
                return
            actions = np.full(self.num_envs, -1, np.int64)
            actions[waiting] = np.asarray(self.opponent(vec.obs[waiting], vec.masks[waiting]), dtype=np.int64)
            self._play(actions, waiting, rewards, done, terminated, truncated, infos)

    # -- API -------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> np.ndarray:
        """New games in every slot: the learner's observations ``(N, obs_size)``. A seed (else the
        constructor's, at the first reset) seeds the games, the seats drawn and the default opponent."""
        seed = check_seed(seed)
        if seed is None:
            seed, self._seed = self._seed, None
        if seed is not None:
            self._seat_rng.seed(seed)
            if self._own_opponent:
                self.opponent = uniform_random_policy(seed)  # reads no observations, as before
        self.vec.reset(seed)
        for i in range(self.num_envs):
            self._new_game(i, first=True)
        self._carry[:] = 0.0
        n = self.num_envs
        rewards = np.zeros(n, np.float32)
        self._to_learner(rewards, np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool), [{} for _ in range(n)])
        self._carry += rewards  # paid before the learner's first step: reported with it
        self._started = True
        return self.vec.obs.copy()

    def step(self, actions: np.ndarray, stepped: np.ndarray | None = None):
        """One learner step in the slots ``stepped`` (a bool mask; default every slot; the others keep
        their state and their entries of ``actions`` are ignored): (observations, rewards ``(N,)``,
        terminated, truncated, infos). ``infos[i]`` of a slot whose game ended in the step has
        ``final_scores``, ``winners``, ``seat`` (the learner's in that game) and ``final_observation``
        (the learner's observation of the end); the slot already plays its next game, whose first
        observation is the one returned."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        if stepped is None:
            rows = np.arange(n)
        else:
            mask = np.asarray(stepped)
            if mask.shape != (n,) or mask.dtype != bool:
                raise TypeError(f"stepped must be {n} booleans, got shape {mask.shape} of {mask.dtype}")
            rows = np.flatnonzero(mask)
        rewards = np.zeros(n, np.float32)
        done, terminated, truncated = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)
        infos: list[dict] = [{} for _ in range(n)]
        self._play(np.asarray(actions), rows, rewards, done, terminated, truncated, infos)  # raises first
        rewards[rows] += self._carry[rows]
        self._carry[rows] = 0.0
        self._to_learner(rewards, done, terminated, truncated, infos)
        return self.vec.obs.copy(), rewards, terminated, truncated, infos
