"""The batched env: N games of one variant stepped together in one process.

Terms:
- *game slot* ``i``: one of the N games; when its game ends it is reset at once (auto-reset) and the
  slot goes on with a new game seeded from the slot's own stream.
- *actor*: the seat that decides next in a slot. Each step takes one action per slot, for its actor,
  so every seat of every game can be driven by one shared policy in one forward pass over the batch.
- *rewards* ``(N, num_players)``: what each seat of each slot was paid by that step (the env's
  ``reward_mode``: terminal ``win``/``score``/``margin`` or per-coin ``dense``). What a new game pays
  at its start (under ``dense``, the points every seat starts with, as in ``hostile_takeover``) is paid
  with the slot's next step, the first of that game: never with the last step of the game before.

``VectorEnv`` returns numpy batches: observations ``(N, obs_size)`` float32, masks ``(N, actions)``
bool, actors ``(N,)``. The observations of a step are encoded together (``envs.obs.batch``), the same
vectors as the AEC env's. Illegal actions raise (they are never replaced); nothing here touches global
random generators.
"""
from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Sequence

import numpy as np

from ..engine.game import new_game
from ..envs.obs import build_encoder
from ..envs.obs.batch import BatchEncoder
from ..envs.obs.core import int_array
from ..envs.registration import available_variants

# A batched policy: (observations (M, obs_size), masks (M, actions) bool) -> actions (M,). One with an
# attribute ``reads_obs = False`` (``uniform_random_policy``) is given stale observations: drivers may skip
# encoding them (``step_slots(..., observe=False)``)
BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _raw_env_class(variant: str):
    if variant not in available_variants():
        raise ValueError(f"unknown variant {variant!r}; allowed: {', '.join(available_variants())}")
    return importlib.import_module(f"bean_env.envs.{variant}_v1").raw_env


def check_step(actions: Any, stepped: Any, masks: np.ndarray, actors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``actions`` (one integer per slot) and ``stepped`` (ascending distinct slots) as arrays; raises
    (before anything changes) a ``TypeError`` or ``ValueError`` naming the slot unless each slot in
    ``stepped`` got a legal action under ``masks`` (``actors``: the deciding seats, for the message)."""
    num_envs, num_actions = masks.shape
    actions, stepped = np.asarray(actions), np.asarray(stepped, dtype=np.intp)
    if actions.shape != (num_envs,) or not np.issubdtype(actions.dtype, np.integer):
        raise TypeError(f"actions must be {num_envs} integers, got shape {actions.shape} of {actions.dtype}")
    if len(stepped) and (stepped.min() < 0 or stepped.max() >= num_envs
                         or (len(stepped) > 1 and (np.diff(stepped) <= 0).any())):
        raise ValueError(f"slots to step must be ascending and distinct in 0..{num_envs - 1}, "
                         f"got {stepped.tolist()}")
    a = actions[stepped]
    ok = (a >= 0) & (a < num_actions)
    ok[ok] = masks[stepped[ok], a[ok]]
    if not ok.all():
        bad = stepped[~ok]
        i = int(bad[0])
        raise ValueError(f"action {int(actions[i])} is not legal in game slot {i} "
                         f"(seat {int(actors[i])}); {len(bad)} slot(s) got illegal actions")
    return actions, stepped


def init_batch_arrays(env: Any, num_envs: int) -> None:
    """The batch arrays of a batched env whose ``obs_size``, ``num_actions`` and ``num_players`` are set:
    ``obs``, ``masks``, ``actors``, ``episode_steps``, ``stale`` (rows of ``obs`` out of date: stepped with
    ``observe=False``, until ``refresh``) and ``_pending`` (what each slot's current game paid at its reset,
    not yet reported: paid with the slot's next step)."""
    env.obs = np.zeros((num_envs, env.obs_size), np.float32)
    env.masks = np.zeros((num_envs, env.num_actions), bool)
    env.actors = np.zeros(num_envs, np.int64)
    env.episode_steps = np.zeros(num_envs, np.int64)
    env.stale = np.zeros(num_envs, bool)
    env._pending = np.zeros((num_envs, env.num_players), np.float32)


class _Gathered:
    """What the stepped slots left to observe (state, acting seat, memory) and their legal indices, as
    the slots are stepped; encoded and scattered into the batch arrays at the end."""

    __slots__ = ("states", "seats", "memories", "legal", "legal_counts")

    def __init__(self) -> None:
        self.states: list = []
        self.seats: list[int] = []
        self.memories: list = []
        self.legal: list[int] = []
        self.legal_counts: list[int] = []   # legal indices per slot


class VectorEnv:
    """``num_envs`` games of ``variant`` stepped together (options as the AEC env's)."""

    #: steps of at least this many slots encode their observations in one batch (``obs.batch``); fewer
    #: use each slot's own encoder (the batch's fixed numpy cost is larger there; measured)
    batch_min = 16

    def __init__(self, variant: str, num_envs: int, **options: Any):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        options = dict(options)
        options["illegal_action"] = "raise"
        cls = _raw_env_class(variant)
        self.envs = [cls(**options) for _ in range(num_envs)]
        first = self.envs[0]
        self.variant = variant
        self.num_envs = num_envs
        self.num_players = len(first.possible_agents)
        #: one game's observation space (the AEC env's ``observation`` Box) and action count
        self.observation_box = first.observation_space(first.possible_agents[0])["observation"]
        self.obs_size = self.observation_box.shape[0]
        self.num_actions = first.action_space(first.possible_agents[0]).n
        # observations of all stepped slots in one batched encode (same vectors as the AEC env's), with
        # an encoder of its own (the per-state blocks keep memos)
        self._encoder = BatchEncoder(build_encoder(new_game(variant, seed=0, **first.config)))
        init_batch_arrays(self, num_envs)
        # whether a slot's ``_pending`` is anything (a list, read once per stepped slot, cheaper than numpy)
        self._owes = [False] * num_envs

    # -- slots -----------------------------------------------------------------------------------------
    def _gather(self, i: int, acc: _Gathered) -> None:
        """Append slot ``i``'s actor, observation entries and legal indices to ``acc`` (called right after
        the slot stepped, while its game is still in the cache)."""
        env = self.envs[i]
        s = env.game.state
        acc.states.append(s)
        acc.seats.append(s.actor)
        acc.memories.append(env.memory)
        legal = env.legal_indices()
        acc.legal += legal
        acc.legal_counts.append(len(legal))

    def _scatter(self, slots: Sequence[int], acc: _Gathered, observe: bool = True) -> None:
        """Write the gathered observations (unless not ``observe``: then the rows are marked stale) and
        masks of ``slots`` into the batch arrays at once (values as ``ObservationEncoder.encode`` computes
        them, bit for bit)."""
        if not len(slots):
            return
        rows = np.asarray(slots, dtype=np.intp)
        self.actors[rows] = acc.seats
        if observe:
            self._encode(slots, acc.states, acc.seats, acc.memories)
            self.stale[rows] = False
        else:
            self.stale[rows] = True
        if len(slots) == self.num_envs:
            self.masks.fill(False)
        else:
            self.masks[rows] = False
        legal = int_array(acc.legal, len(acc.legal)) + np.repeat(rows * self.num_actions, acc.legal_counts)
        self.masks.reshape(-1)[legal] = True

    def _encode(self, slots: Sequence[int], states: list, seats: list, memories: list) -> None:
        """The observations of ``states`` (for ``seats``) into the rows ``slots`` of ``obs``."""
        if len(slots) < self.batch_min:  # a few states: each slot's own encoder costs less
            obs, envs = self.obs, self.envs
            for row, s, seat, memory in zip(slots, states, seats, memories):
                envs[row].encoder.encode(s, seat, memory, out=obs[row])
        elif len(slots) == self.num_envs:
            self._encoder.encode(states, seats, memories, out=self.obs)
        else:
            self.obs[np.asarray(slots, dtype=np.intp)] = self._encoder.encode(states, seats, memories)

    def refresh(self, only: np.ndarray | None = None) -> None:
        """Encode the observations of the stale slots (stepped with ``observe=False``), all in one batch;
        with ``only`` (a boolean array over the slots) just the stale ones it marks."""
        slots = np.flatnonzero(self.stale if only is None else self.stale & only).tolist()
        if slots:
            envs = self.envs
            self._encode(slots, [envs[i].game.state for i in slots], [int(self.actors[i]) for i in slots],
                         [envs[i].memory for i in slots])
            self.stale[slots] = False

    @staticmethod
    def _paid(env, out: np.ndarray) -> None:
        if not env._paying:  # every reward is 0.0
            return
        for agent, r in env.rewards.items():
            if r:
                out[env.agent_name_mapping[agent]] += r

    def _restart(self, i: int, seed: int | None = None) -> None:
        """Reset slot ``i`` until a seat has a decision; what the new game pays at its start waits in
        ``_pending`` for the slot's next step (a game decided by forced moves alone is skipped with what it
        paid: it has no step to report it with). The caller refreshes the slot's observation."""
        env = self.envs[i]
        pending = self._pending[i]
        while True:
            env.reset(seed=seed)
            seed = None
            pending.fill(0.0)
            self._paid(env, pending)
            if not self._over(env):
                self.episode_steps[i] = 0
                self._owes[i] = bool(pending.any())
                return

    @staticmethod
    def _over(env) -> bool:
        agent = env.agent_selection
        return env.terminations.get(agent, True) or env.truncations.get(agent, True)

    # -- API -------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """New games in every slot (slot seeds drawn from ``seed``): (observations, masks, actors)."""
        if seed is not None:
            seed = int(seed)  # numpy integers too; a bad type raises here, before anything changes
        streams = random.Random(seed) if seed is not None else None
        acc = _Gathered()
        for i in range(self.num_envs):
            self._restart(i, streams.getrandbits(62) if streams else None)
            self._gather(i, acc)
        self._scatter(range(self.num_envs), acc)
        return self.obs.copy(), self.masks.copy(), self.actors.copy()

    def step(self, actions: Sequence[int] | np.ndarray):
        """One action per slot for its actor: (observations, masks, actors, rewards, terminated,
        truncated, infos). A slot whose game ended reports its final rewards and is reset; its
        ``infos[i]`` holds ``final_scores``, ``winners``, ``episode_steps`` and ``final_observations``
        (every seat's observation of the finished game, in seat order)."""
        rewards, terminated, truncated, infos = self.step_slots(actions, np.arange(self.num_envs))
        return self.obs.copy(), self.masks.copy(), self.actors.copy(), rewards, terminated, truncated, infos

    def step_slots(self, actions: np.ndarray, stepped: np.ndarray, observe: bool = True):
        """Step only the slots in ``stepped`` (ascending indices; the others keep their state, and their
        entries of ``actions`` are ignored): (rewards, terminated, truncated, infos) of the whole batch,
        as ``step`` returns them; the batch arrays ``obs``, ``masks`` and ``actors`` are updated in place.
        For drivers in which different seats are played by different policies. ``observe=False`` skips
        the observations of the stepped slots (for a policy that reads only masks): their rows of ``obs``
        are stale until ``refresh()``."""
        actions, stepped = check_step(actions, stepped, self.masks, self.actors)
        n = self.num_envs
        rewards = np.zeros((n, self.num_players), np.float32)
        terminated = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        infos: list[dict] = [{} for _ in range(n)]
        envs, steps = self.envs, self.episode_steps
        acc = _Gathered()
        slots = stepped.tolist()
        chosen = actions.tolist()
        steps[stepped] += 1
        owes = self._owes
        for i in slots:
            env = envs[i]
            if owes[i]:  # the start of this slot's game, reported with its first step
                rewards[i] += self._pending[i]
                owes[i] = False
            # the index was checked against this decision's legal indices: the legal action in its place
            env.apply_legal(env.game.legal_actions()[env.legal_indices().index(chosen[i])])
            self._paid(env, rewards[i])
            if self._over(env):
                agent = env.agent_selection
                terminated[i] = env.terminations.get(agent, False)
                truncated[i] = env.truncations.get(agent, False) and not terminated[i]
                infos[i] = {"final_scores": list(env.game.scores()), "winners": list(env.game.winners()),
                            "episode_steps": int(steps[i]),
                            "final_observations": [env.observe(a)["observation"] for a in env.possible_agents]}
                self._restart(i)
            self._gather(i, acc)
        self._scatter(slots, acc, observe)
        return rewards, terminated, truncated, infos


def uniform_random_policy(seed: int | None = None, *, generator: np.random.Generator | None = None) -> BatchPolicy:
    """A batched policy that picks a legal action uniformly at random, with its own generator (made from
    ``seed``, or ``generator`` itself). A masked action is never picked while a row has a legal one, even
    if every legal score of the row draws exactly 0.0."""
    rng = np.random.default_rng(seed) if generator is None else generator

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        scores = rng.random(masks.shape)
        scores[~masks] = -1.0  # below every draw in [0, 1)
        return scores.argmax(axis=1)

    act.reads_obs = False  # type: ignore[attr-defined]  # masks alone
    return act


def random_rollout(variant: str, num_envs: int, steps: int, seed: int, config: dict | None = None,
                   backend: str = "engine") -> int:
    """``steps`` batched steps of ``num_envs`` games under uniform random play; returns the decisions
    made (a picklable worker job for process pools and Ray). ``backend``: as ``make_vector_env``'s."""
    from .array_env import make_vector_env  # the array env builds on this module
    vec = make_vector_env(variant, num_envs, backend, **(config or {}))
    policy = uniform_random_policy(seed)
    obs, masks, _ = vec.reset(seed=seed)
    for _ in range(steps):
        obs, masks, *_ = vec.step(policy(obs, masks))
    return num_envs * steps
