"""The batched env on array kernels: ``VectorEnv``'s API and games, with the state of all N games held as
arrays and the rules, masks and observations compiled by numba (``vector.kernels``).

Every variant has kernels (``array_variants()``: `al_cabohne`, `bean_duel`, `bean_solitaire`, `bohnanza`
and `hostile_takeover`).
A new game's set-up
(its shuffle) is the engine's: each slot's games are seeded as ``VectorEnv`` seeds them, so both give the
same games, observations, masks, rewards and infos for the same seed and actions (golden tests).
"""
from __future__ import annotations

import importlib
import random
import secrets
from typing import Any, Sequence

import numpy as np

from .. import _numba
from ..engine.game import new_game
from .env import VectorEnv, _raw_env_class, check_step, init_batch_arrays

# variant -> the module of its kernels
KERNELS = {"al_cabohne": "bean_env.vector.kernels.mafia", "bean_duel": "bean_env.vector.kernels.duel",
           "bean_solitaire": "bean_env.vector.kernels.mafia", "bohnanza": "bean_env.vector.kernels.bohnanza",
           "hostile_takeover": "bean_env.vector.kernels.takeover"}


BACKENDS = ("engine", "arrays", "auto")


def array_variants() -> tuple[str, ...]:
    """The variants with array kernels."""
    return tuple(KERNELS)


def make_vector_env(variant: str, num_envs: int, backend: str = "engine", **options: Any):
    """A batched env of ``num_envs`` games: ``VectorEnv`` (``backend="engine"``), ``ArrayVectorEnv``
    (``"arrays"``), or the array one where the variant has kernels and numba is installed (``"auto"``)."""
    if backend not in BACKENDS:
        raise ValueError(f"bad backend {backend!r}; allowed: {', '.join(map(repr, BACKENDS))}")
    if backend == "arrays" or (backend == "auto" and variant in KERNELS and _numba.AVAILABLE):
        return ArrayVectorEnv(variant, num_envs, **options)
    return VectorEnv(variant, num_envs, **options)


class ArrayVectorEnv:
    """``num_envs`` games of ``variant`` on array kernels (options as the AEC env's); the API of
    ``VectorEnv`` (``reset``, ``step``, ``step_slots``, ``refresh`` and its batch arrays). Needs numba
    (the ``fast`` extra)."""

    def __init__(self, variant: str, num_envs: int, **options: Any):
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        cls = _raw_env_class(variant)  # raises for an unknown variant
        if variant not in KERNELS:
            raise ValueError(f"variant {variant!r} has no array kernels; allowed: {', '.join(KERNELS)} "
                             "(every variant runs on VectorEnv)")
        if not _numba.AVAILABLE:
            raise ImportError("ArrayVectorEnv needs numba: pip install 'bean-env[fast]'")
        options = dict(options)
        options["illegal_action"] = "raise"
        probe = cls(**options)  # checks every option
        kernel = self._kernel = importlib.import_module(KERNELS[variant])
        self._drive = importlib.import_module("bean_env.vector.kernels.drive")  # numba is imported here, not before
        self._layout = importlib.import_module("bean_env.vector.kernels.common")
        encoder, catalogue = probe.encoder, probe.catalogue
        names = [b.name for b in encoder.blocks]
        if tuple(names) != kernel.BLOCKS:
            raise RuntimeError(f"the array kernels of {variant!r} do not match its observation layout")
        self.variant = variant
        self.num_envs = num_envs
        self.config = probe.config
        self.num_players = len(probe.possible_agents)
        self.observation_box = probe.observation_space(probe.possible_agents[0])["observation"]
        self.obs_size = self.observation_box.shape[0]
        self.num_actions = catalogue.size
        self._starts = np.array([encoder.starts[names.index(b)] if b in names else -1 for b in kernel.PLACED], np.int64)
        self._scale = encoder.scale
        self.arrays, self._params = kernel.prepare(variant, num_envs, probe)  # raises unless the layouts match
        self._reserve = getattr(kernel, "reserve", None)  # room (X, generators) the variant needs before a step
        self._check = getattr(kernel, "check", None)      # raises if a step ran out of that room
        self._truncated = getattr(kernel, "truncated", None)  # whether a finished game was cut short
        self._bonus = float(probe.win_bonus)
        init_batch_arrays(self, num_envs)
        self._owes = np.zeros(num_envs, bool)
        self._rngs: list[random.Random | None] = [None] * num_envs  # each slot's stream of game seeds
        self._legal = np.empty(self.num_actions, np.int64)  # kernels' scratch
        self._where = np.empty(3, np.int64)
        self._seats = np.zeros(num_envs, np.int64)          # the seat each observed row is for

    # -- slots -----------------------------------------------------------------------------------------
    def _restart(self, i: int, seed: int | None = None) -> None:
        """A new game in slot ``i`` (the next seed of the slot's stream, as the AEC env draws it), until a
        game has a decision; what it paid at its start waits for the slot's next step."""
        a, k = self.arrays, self._kernel
        while True:
            if seed is not None:
                self._rngs[i] = random.Random(seed)
                game_seed = seed
            else:
                rng = self._rngs[i]
                if rng is None:
                    rng = self._rngs[i] = random.Random(secrets.randbits(64))
                game_seed = rng.getrandbits(62)
            seed = None
            k.load(a, i, new_game(self.variant, seed=game_seed, **self.config).state)
            self._pending[i] = 0.0
            self._drive.advance(a.L, a.S, a.C, a.M, a.X, i, self._params, self._bonus, self._legal, self._where,
                                self._pending)
            if not a.S[i, self._layout.OVER]:
                self.episode_steps[i] = 0
                self._owes[i] = self._pending[i].any()
                return

    def _observe(self, slots: np.ndarray, observe: bool = True) -> None:
        """Masks, actors and (``observe``) the actors' observations of ``slots``."""
        a = self.arrays
        self.actors[slots] = self._seats[slots] = a.S[slots, self._layout.ACTOR]
        self._drive.observe(a.L, a.S, a.C, a.X, slots, self._seats, self._params, self._starts, self._scale,
                             self.obs, self.masks, self._legal, self._where, observe)
        self.stale[slots] = not observe

    def _final_observations(self, i: int) -> list[np.ndarray]:
        """Every seat's observation of slot ``i``'s finished game, in seat order."""
        a, out = self.arrays, []
        for seat in range(self.num_players):
            self._seats[i] = seat
            self._drive.observe(a.L, a.S, a.C, a.X, np.array([i]), self._seats, self._params, self._starts,
                                 self._scale, self.obs, self.masks, self._legal, self._where, True)
            out.append(self.obs[i].copy())
        return out

    def refresh(self, only: np.ndarray | None = None) -> None:
        """Encode the observations of the stale slots (stepped with ``observe=False``); with ``only`` (a
        boolean array over the slots) just the stale ones it marks."""
        slots = np.flatnonzero(self.stale if only is None else self.stale & only)
        if len(slots):
            self._observe(slots)

    # -- API -------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """New games in every slot (slot seeds drawn from ``seed``): (observations, masks, actors)."""
        if seed is not None:
            seed = int(seed)
        streams = random.Random(seed) if seed is not None else None
        for i in range(self.num_envs):
            self._restart(i, streams.getrandbits(62) if streams else None)
        self._observe(np.arange(self.num_envs))
        return self.obs.copy(), self.masks.copy(), self.actors.copy()

    def step(self, actions: Sequence[int] | np.ndarray):
        """As ``VectorEnv.step``: (observations, masks, actors, rewards, terminated, truncated, infos)."""
        rewards, terminated, truncated, infos = self.step_slots(actions, np.arange(self.num_envs))
        return self.obs.copy(), self.masks.copy(), self.actors.copy(), rewards, terminated, truncated, infos

    def step_slots(self, actions: np.ndarray, stepped: np.ndarray, observe: bool = True):
        """As ``VectorEnv.step_slots``: step the slots in ``stepped`` only; (rewards, terminated, truncated,
        infos) of the whole batch."""
        actions, stepped = check_step(actions, stepped, self.masks, self.actors)
        n, a, k = self.num_envs, self.arrays, self._kernel
        rewards = np.zeros((n, self.num_players), np.float32)
        terminated = np.zeros(n, bool)
        infos: list[dict] = [{} for _ in range(n)]
        owed = stepped[self._owes[stepped]]
        if len(owed):  # the start of these slots' games, reported with their first step
            rewards[owed] += self._pending[owed]
            self._owes[owed] = False
        self.episode_steps[stepped] += 1
        if self._reserve is not None:
            self._reserve(a, self.num_players)
        self._drive.step(a.L, a.S, a.C, a.M, a.X, actions.astype(np.int64, copy=False), stepped, self._params,
                         self._bonus, rewards, terminated)
        if self._check is not None:
            self._check(a)
        truncated = np.zeros(n, bool)
        for i in np.flatnonzero(terminated).tolist():
            if self._truncated is not None and self._truncated(a, i):
                truncated[i], terminated[i] = True, False
            scores, winners = k.result(a, i, self._params)
            infos[i] = {"final_scores": scores, "winners": winners, "episode_steps": int(self.episode_steps[i]),
                        "final_observations": self._final_observations(i)}
            self._restart(i)
        if len(stepped):
            self._observe(stepped, observe)
        return rewards, terminated, truncated, infos
