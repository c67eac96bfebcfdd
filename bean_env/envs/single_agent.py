"""A single-agent ``gymnasium.Env``: the learner plays one seat, given policies play the others.

Terms:
- *learner*: the seat the RL algorithm controls (``learner_seat``: a seat number, or ``"random"`` for a
  seat drawn at every reset).
- *opponent policy*: a callable ``f(view, legal_actions) -> action`` or an object with
  ``.act(view, legal_actions)`` (the ``agents`` package interface); ``view`` is the seat's
  ``PlayerView``, or an agent spec of the agent registry ``bean_env.registry`` (``"heuristic"``,
  ``"mcts:simulations=20"``: a fresh agent per episode, seeded from the env; specs are checked when the
  env is made). ``opponents`` may be one policy for every other seat, a list
  (one per other seat, in seat order), a dict ``{seat: policy}``, or ``None`` for uniform random play
  seeded from the env's seed (which skips building views, so it is fast).

Spaces: ``Box`` observation (the vector of ``docs/envs.md``), ``Discrete`` actions (the variant's
catalogue, seat-relative), and ``action_masks()`` for sb3-contrib's ``MaskablePPO``. The reward is
the learner's own reward (``reward_mode`` and ``win_bonus`` as in the AEC env): paid at the end, or
under ``"dense"`` the coins the learner earned since its previous step (opponents' turns included). Options as the AEC
env: rule options, ``reward_mode``, ``auto_forced`` (the learner's forced decisions are applied for
it), ``illegal_action`` (``"terminate"``: -1 and the episode ends; ``"raise"``), ``render_mode``.
``reset(seed=..., options={"game": position})`` starts from a given position (a ``Game``, its
``to_json()`` text or a record dict) of the env's variant and configuration (``aec.position_game``);
the learner's seat is still ``learner_seat``.
``info["action_mask"]`` holds the same mask (``gymnasium.make``'s wrappers hide ``action_masks()``: call
``env.unwrapped.action_masks()``). ``render_seat``: ``None`` (whole table), a seat number or
``"learner"`` (only what that seat may know, INFO-3). Actions outside the action space raise as in the AEC
env; ``step()`` after the episode ended raises ``RuntimeError`` (call ``reset()``).
"""
from __future__ import annotations

import importlib
import numbers
import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine.game import IllegalActionError, new_game
from .aec import (ENV_OPTIONS, RENDER_MODES, check_action, check_option_names, check_render_seat,
                  check_reset_options, check_seed, final_rewards, legal_mask, position_game)
from .registration import available_variants, module_name

#: the single-agent env's own keyword options (beside the AEC env's and the variant's rule options)
SINGLE_AGENT_OPTIONS = ("variant", "learner_seat", "opponents") + ENV_OPTIONS


class UniformRandomPolicy:
    """Picks a legal action uniformly at random from its own generator (needs no view)."""

    needs_view = False

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, view, legal_actions):
        return legal_actions[self.rng.randrange(len(legal_actions))]


def _check_spec(spec: str) -> None:
    """A ``ValueError`` for an agent spec the registry refuses (unknown agent, option or value)."""
    from ..registry import parse_spec
    try:
        parse_spec(spec)
    except ValueError as err:
        raise ValueError(f"bad opponent {spec!r}: {err}") from None


def _make_agent(spec: str, seed: int):
    """A new agent of the agent registry from a name or spec (``"heuristic"``, ``"mcts:simulations=20"``)."""
    from ..registry import make_agent
    return make_agent(spec, seed=seed)


def _as_callable(policy):
    act = getattr(policy, "act", None)
    if callable(act):
        return act
    if callable(policy):
        return policy
    raise TypeError(f"an opponent policy must be callable or have .act(view, legal_actions), not {policy!r}")


class SingleAgentEnv(gymnasium.Env):
    """The learner's seat of a ``variant`` game as a gymnasium env."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, variant: str = "bean_duel", learner_seat: int | str = 0, opponents: Any = None,
                 reward_mode: str = "win", auto_forced: bool = True, illegal_action: str = "terminate",
                 render_mode: str | None = None, win_bonus: float = 0.0, render_seat: int | str | None = None,
                 **config: Any):
        variants = available_variants()
        if variant not in variants:
            raise ValueError(f"unknown variant {variant!r}; allowed values: {', '.join(variants)}")
        check_option_names(variant, config, SINGLE_AGENT_OPTIONS)
        module = importlib.import_module(f"{__package__}.{module_name(variant)}")
        self.aec = module.raw_env(render_mode=render_mode, reward_mode=reward_mode, auto_forced=auto_forced,
                                  illegal_action=illegal_action, win_bonus=win_bonus, **config)
        self.variant = variant
        self.config = self.aec.config
        self.catalogue = self.aec.catalogue
        self.encoder = self.aec.encoder
        self.num_players = n = len(self.aec.possible_agents)
        if isinstance(learner_seat, str) and learner_seat == "random":
            pass
        elif (isinstance(learner_seat, numbers.Integral) and not isinstance(learner_seat, (bool, np.bool_))
              and 0 <= learner_seat < n):
            learner_seat = int(learner_seat)   # numpy integers work
        else:
            raise ValueError(f"bad value {learner_seat!r} for option 'learner_seat'; allowed: 0..{n - 1} or 'random'")
        self.learner_seat = learner_seat
        check_render_seat(render_seat, n, extra=("learner",))
        self.render_seat = render_seat if render_seat in (None, "learner") else int(render_seat)
        self.reward_mode, self.auto_forced, self.illegal_action = reward_mode, auto_forced, illegal_action
        self.win_bonus = float(win_bonus)
        self._paid = 0               # dense mode: the learner's engine score already paid out
        self.render_mode = render_mode
        self._opponents_spec = opponents
        for policy in self._listed(opponents):
            if isinstance(policy, str):
                _check_spec(policy)   # a typo fails here, not in the middle of training
        self.observation_space = spaces.Box(low=np.zeros(self.encoder.size, np.float32), high=self.encoder.high,
                                            dtype=np.float32)
        self.action_space = spaces.Discrete(self.catalogue.size)
        self.game = None
        self._ended = False          # terminated or truncated: step() refuses until reset()
        self._mask: np.ndarray | None = None
        self._mask_key: tuple | None = None   # (game, history length) the cached mask belongs to
        self.seat = 0
        self._random = UniformRandomPolicy(0)
        self._policies: dict[int, Any] = {}

    # -- opponents -------------------------------------------------------------------------------------
    @staticmethod
    def _listed(spec: Any) -> list:
        if spec is None:
            return []
        if isinstance(spec, dict):
            return list(spec.values())
        if isinstance(spec, (list, tuple)):
            return list(spec)
        return [spec]

    def _policy_table(self) -> dict[int, Any]:
        others = [q for q in range(self.num_players) if q != self.seat]
        spec = self._opponents_spec
        if spec is None:
            return {q: self._random for q in others}
        if isinstance(spec, dict):
            missing = [q for q in others if q not in spec]
            if missing:
                raise ValueError(f"opponents has no policy for seats {missing}")
            return {q: spec[q] for q in others}
        if isinstance(spec, (list, tuple)):
            if len(spec) != len(others):
                raise ValueError(f"opponents lists {len(spec)} policies; the game has {len(others)} other seats")
            return dict(zip(others, spec))
        return {q: spec for q in others}

    def _play_others(self) -> None:
        """Play opponent and forced decisions until the learner must choose or the game ends."""
        game = self.game
        s = game.state
        while not s.over:
            legal = game.legal_actions()
            if s.actor == self.seat:
                if self.auto_forced and len(legal) == 1:
                    game.apply(legal[0])
                    self.memory.update(game)
                    continue
                return
            if self.auto_forced and len(legal) == 1:
                game.apply(legal[0])
                self.memory.update(game)
                continue
            policy = self._policies[s.actor]
            if getattr(policy, "needs_view", True):
                action = _as_callable(policy)(game.view(s.actor), legal)
            else:
                action = _as_callable(policy)(None, legal)
            game.apply(action)
            self.memory.update(game)

    # -- gymnasium API ------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = check_seed(seed)
        options = check_reset_options(options)
        start = None
        if options.get("game") is not None:  # checked before the env changes
            start = position_game(options["game"], self.variant, self.config)
        super().reset(seed=seed)
        rng = self.np_random
        if self.learner_seat == "random":
            self.seat = int(rng.integers(self.num_players))
        else:
            self.seat = self.learner_seat
        self._random = UniformRandomPolicy(int(rng.integers(2**62)))
        self._policies = self._policy_table()
        for policy in self._policies.values():
            if not isinstance(policy, str):
                _as_callable(policy)  # fail early on something that cannot act
        named = {}
        for q, policy in self._policies.items():
            if isinstance(policy, str):  # an agent name: a fresh agent per episode, seeded from the env
                if policy not in named:
                    named[policy] = _make_agent(policy, int(rng.integers(2**62)))
                self._policies[q] = named[policy]
        for policy in {id(p): p for p in self._policies.values()}.values():
            if callable(getattr(policy, "reset", None)):
                policy.reset()  # agents forget per-game memory
        game_seed = int(rng.integers(2**62))
        if start is not None:
            self.game = start
        else:
            self.game = new_game(self.variant, seed=game_seed if seed is None else seed, **self.config)
        self._ended = False
        self._paid = self.game.scores()[self.seat] if start is not None else 0
        self._mask_key = None
        self.memory = self.encoder.new_memory().reset(self.game)  # public history the observation reads
        self._play_others()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action):
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if self._ended or game.state.over:
            raise RuntimeError("step() after the episode ended (terminated or truncated); call reset() first")
        i = check_action(action, self.catalogue.size, f"the learner (seat {self.seat})")
        if i not in self.aec_legal():
            if self.illegal_action == "raise":
                raise IllegalActionError(self.catalogue.decode(i, self.seat), game.decision, self.seat,
                                         game.legal_actions())
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        game.apply(self.catalogue.decode(i, self.seat))
        self.memory.update(game)
        self._play_others()
        if self.render_mode == "human":
            self.render()
        reward, terminated, truncated = 0.0, False, False
        if self.reward_mode == "dense":  # the learner's coins earned since its last step
            score = game.scores()[self.seat]
            reward, self._paid = (score - self._paid) / self.aec.score_scale, score
        if game.is_truncated:
            truncated = True
        elif game.state.over:
            terminated = True
            reward += float(final_rewards(self.aec, game, self.reward_mode, self.win_bonus)[self.seat])
        self._ended = terminated or truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def aec_legal(self) -> list[int]:
        """Catalogue indices of the learner's legal actions (empty when it is not to act)."""
        game = self.game
        if game.state.over or game.state.actor != self.seat:
            return []
        return self.catalogue.encode_all(game.legal_actions(), self.seat)

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib MaskablePPO; also ``info["action_mask"]``).
        Through ``gymnasium.make``'s wrappers call ``env.unwrapped.action_masks()``."""
        key = (id(self.game), len(self.game.history)) if self.game is not None else None
        if self._mask_key != key:
            legal = self.aec_legal() if self.game is not None else ()
            self._mask, self._mask_key = legal_mask(legal, self.catalogue.size, np.bool_), key
        return self._mask

    def _obs(self) -> np.ndarray:
        return self.encoder.encode_new(self.game.state, self.seat, self.memory)

    def _info(self) -> dict:
        return {"seat": self.seat, "decision": self.game.decision, "action_mask": self.action_masks()}

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        from ..render import render_game
        viewer = self.seat if self.render_seat == "learner" else self.render_seat
        if self.render_mode == "rgb_array":
            from ..render_image import render_rgb
            return None if self.game is None else render_rgb(self.game, viewer=viewer)
        text = render_game(self.game, viewer=viewer) if self.game is not None else ""
        if self.render_mode == "human":
            if self.game is None:
                print(text)
            else:
                from ..render_image import show_human
                show_human(self, self.game, viewer, text)
            return None
        return text
