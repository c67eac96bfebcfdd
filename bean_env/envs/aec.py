"""One generic PettingZoo AEC environment over the engine; each variant module is a thin subclass.

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat numbers; the mafia is not an agent). Every
agent step is one engine decision (AGT-1). Observations are ``{"observation": float32 vector,
"action_mask": int8 vector}``; the mask is exactly the engine's ``legal_actions()`` for the acting
seat and all zeros for everyone else. Layouts: ``docs/envs.md``.

Options (keyword arguments of ``raw_env``/``env``): every rule option of the variant (validated by
the engine, a bad key or value raises ``ValueError``) plus
- ``reward_mode``: ``"win"`` (default; +1/k to each of k winners, -1 to every other seat),
  ``"score"`` (final score in coins) or ``"margin"`` (own score minus the best other seat's score),
  paid once, at the end of the game, to every seat; or ``"dense"``: every seat's coins as they are
  earned (the change of its score at every step, so the episode's sum is the final score), plus
  ``win_bonus`` (default 0) times the ``"win"`` reward at the end.
- ``win_bonus`` (default 0): with ``reward_mode="dense"`` only, a number >= 0; at the end of the game
  every seat also gets this times its ``"win"`` reward, so that shaped coins do not outweigh winning.
- ``auto_forced`` (default ``True``, AGT-3): a decision with exactly one legal action is applied by
  the env without an agent step. The engine applies it exactly as a chosen action, so no observation
  can tell the difference; ``False`` gives one agent step per engine decision.
- ``illegal_action``: what a masked (illegal) index of the action space does: ``"terminate"`` (default,
  PettingZoo's convention: the offender gets -1, every other seat 0, the episode ends,
  ``infos[agent]["illegal_action"]`` is set) or ``"raise"`` (``bean_env.IllegalActionError``, nothing
  changes). Anything that is not an integer of the action space always raises (``TypeError`` /
  ``ValueError``, nothing changes; ``check_action``); numpy integers work as actions and seeds.
- ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints at reset
  and after every step): the table of ``bean_env.render`` and the legal actions with their integers (of thousands of
  whole offers a few, and their count);
  ``"rgb_array"``: ``render()`` returns the table as an image (``bean_env.render_image``; needs Pillow),
  and ``"human"`` shows that picture where a display exists.
- ``render_seat``: ``None`` (default: the whole table, every hand) or a seat number: render only what
  that seat may know (INFO-3; ``render_game(game, viewer=seat)``), with the legal actions only when
  that seat is to act.

``reset(seed=None, options=None)``: ``options={"game": position}`` starts the episode from a given
position (a ``Game``, a ``Game.to_json()`` text or dict, or a record dict; see ``position_game``) of the
env's variant and configuration instead of a new deal; ``seed`` still seeds the following resets.

Truncation happens only when the engine reports a budget truncation (AGT-4, ``Game.is_truncated``).

Extension points for a new variant (e.g. ``al_cabohne``):
1. Engine: register the rules (``bean_env.engine.register_rules``) and options (``config.py``).
2. Actions: ``bean_env.engine.catalogue.register_catalogue(variant, build)``, ``build(rules)``
   returning the variant's ``Span(kind, a_values, b_values, seat=False)`` list. Do it in the rules
   module so agents can use the catalogue without pettingzoo.
3. Observation: ``bean_env.envs.obs.register_observation(variant, decisions, blocks)`` (see ``obs/variants.py``) with
   the variant's decision point names and a function returning its extra ``Block`` list (mafia
   fields, treasury, text cards ...). Blocks must read only what the observing seat may know (INFO-3
   is tested for every registered env).
4. Env module ``bean_env/envs/<variant>_v1.py`` (copy ``bean_duel_v1.py``): ``class raw_env(BeanAECEnv)``
   with ``variant`` and ``metadata`` (``name="<variant>_v1"``), and ``env = make_env_fn(raw_env)``;
   override ``win_rewards`` / ``margin_rewards`` if the variant scores differently (mafia, solitaire).
The registries (PettingZoo ``bean_env/<variant>-v1``, gymnasium single-agent ids) find every
``<variant>_v1`` module by itself (``registration.py``).
"""
from __future__ import annotations

import json
import math
import numbers
import random
import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.catalogue import catalogue_of
from ..engine.config import OPTIONS, validate
from ..engine.game import Game, IllegalActionError, new_game
from .obs import build_encoder
from .wrappers import OrderEnforcer

REWARD_MODES = ("win", "score", "margin", "dense")
ILLEGAL_MODES = ("terminate", "raise")
RENDER_MODES = ("ansi", "human", "rgb_array")


class RenderModeError(ValueError, TypeError):
    """An unsupported ``render_mode``. A ``ValueError`` like every bad option, and a ``TypeError`` so
    that tools which try ``render_mode="rgb_array"`` first and fall back on ``TypeError`` (SB3's
    ``make_vec_env``) work with these text-only envs."""


def env_options(render_mode, reward_mode, auto_forced, illegal_action, win_bonus: float = 0.0) -> None:
    """Validate the env's own options (``ValueError`` naming the key and the allowed values)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RenderModeError(f"bad value {render_mode!r} for option 'render_mode'; "
                              "allowed: None, 'ansi', 'human', 'rgb_array'")
    if reward_mode not in REWARD_MODES:
        raise ValueError(f"bad value {reward_mode!r} for option 'reward_mode'; allowed: 'win', 'score', 'margin', "
                         "'dense'")
    if (isinstance(win_bonus, (bool, np.bool_)) or not isinstance(win_bonus, numbers.Real)
            or not math.isfinite(win_bonus) or win_bonus < 0):
        raise ValueError(f"bad value {win_bonus!r} for option 'win_bonus'; allowed: a finite number >= 0")
    if win_bonus and reward_mode != "dense":
        raise ValueError(f"bad value {win_bonus!r} for option 'win_bonus' with reward_mode={reward_mode!r}; "
                         "allowed: a win bonus only with reward_mode='dense' (0 otherwise)")
    if not isinstance(auto_forced, bool):
        raise ValueError(f"bad value {auto_forced!r} for option 'auto_forced'; allowed: True or False")
    if illegal_action not in ILLEGAL_MODES:
        raise ValueError(f"bad value {illegal_action!r} for option 'illegal_action'; allowed: 'terminate', 'raise'")


#: the AEC env's own keyword options (beside the variant's rule options)
ENV_OPTIONS = ("render_mode", "reward_mode", "auto_forced", "illegal_action", "win_bonus", "render_seat")


def check_option_names(variant: str, names: Any, env_options: tuple[str, ...] = ENV_OPTIONS) -> None:
    """A ``ValueError`` for an option name that is neither a rule option of ``variant`` nor an env
    option, listing both (and the closest name)."""
    import difflib

    rules = tuple(OPTIONS.get(variant, {}))
    for key in names:
        if key not in rules and key not in env_options:
            close = difflib.get_close_matches(str(key), rules + env_options, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"unknown option {key!r} for variant {variant!r}{hint}; allowed rule options: "
                             f"{', '.join(rules) or 'none'}; env options: {', '.join(env_options)}")


def check_render_seat(render_seat: Any, num_players: int, extra: tuple = ()) -> None:
    """``render_seat``: None (the whole table) or a seat number (only what that seat may know, INFO-3)."""
    if render_seat is None or render_seat in extra:
        return
    if (isinstance(render_seat, numbers.Integral) and not isinstance(render_seat, (bool, np.bool_))
            and 0 <= render_seat < num_players):
        return
    allowed = ", ".join(["None", f"a seat 0..{num_players - 1}"] + [repr(e) for e in extra])
    raise ValueError(f"bad value {render_seat!r} for option 'render_seat'; allowed: {allowed}")


def position_game(position: Any, variant: str, config: dict) -> Game:
    """The game to start an episode from (``reset(options={"game": position})``): a ``Game`` (copied, the
    caller's stays untouched), a ``Game.to_json()`` text or its parsed dict, or a record dict
    ``{variant, config, seed, actions}`` (replayed). Files are checked by the engine's loader
    (``GameFileError``, a ``ValueError``); a position of another variant or configuration than the env's,
    or one that is already over, is a ``ValueError`` naming the difference."""
    from ..engine.loading import game_from_data, load_game, load_record

    if isinstance(position, Game):
        game = position.clone()
    elif isinstance(position, (str, bytes, bytearray)):
        text = bytes(position) if isinstance(position, bytearray) else position
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        game = load_record(data) if isinstance(data, dict) and "format" not in data else load_game(text)
    elif isinstance(position, dict):
        game = game_from_data(position) if "format" in position else load_record(position)
    else:
        raise TypeError(f"bad value of type {type(position).__name__} for reset option 'game'; allowed: a "
                        "Game, a Game.to_json() text or dict, or a record dict {variant, config, seed, actions}")
    if game.variant != variant:
        raise ValueError(f"the position is a {game.variant!r} game; this env plays {variant!r}")
    differ = {k: (game.config.get(k), v) for k, v in config.items() if game.config.get(k) != v}
    differ.update({k: (v, None) for k, v in game.config.items() if k not in config})
    if differ:
        listed = ", ".join(f"{k}={mine!r} (env: {theirs!r})" for k, (mine, theirs) in differ.items())
        raise ValueError(f"the position's configuration differs from the env's: {listed}; make the env with "
                         "the position's options")
    if game.is_over or game.is_truncated:
        raise ValueError("the position is a finished game; nothing is left to play")
    return game


def check_reset_options(options: Any) -> dict:
    """``reset()``'s ``options``: None or a dict. Only ``"game"`` is read; other keys are ignored, as
    gymnasium and PettingZoo envs do (PettingZoo's ``api_test`` resets with ``{"options": 1}``)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"bad reset options {options!r}: a dict (key read: 'game') or None")
    return options


def check_seed(seed: Any) -> int | None:
    """``None`` or the seed as a Python ``int`` (numpy integers work); anything else is a ``TypeError``."""
    if seed is None:
        return None
    if isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)):
        return int(seed)
    raise TypeError(f"bad seed {seed!r}: a seed is an integer (int or numpy integer) or None")


def check_action(action: Any, size: int, who: str) -> int:
    """The catalogue index of an action passed to ``step()``.

    Only integers of the action space ``Discrete(size)`` are actions (Python and numpy integers, 0-d
    integer arrays); anything else raises before the env changes: a ``TypeError`` for another type
    (strings, engine ``Action`` objects, floats, bools, ``None`` for a live agent), a ``ValueError`` for an
    integer outside ``0..size-1``. Whether the action is legal is the caller's business (the mask)."""
    if type(action) is int and 0 <= action < size:  # the common case, without the ABC checks
        return action
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, numbers.Integral) and not isinstance(action, (bool, np.bool_)):
        i = int(action)
        if 0 <= i < size:
            return i
        raise ValueError(f"action {i} of {who} is outside the action space Discrete({size}) (0..{size - 1})")
    if action is None:
        raise TypeError(f"action None for {who}, who is still playing: None is only for an agent that is "
                        f"terminated or truncated; pass an integer in 0..{size - 1} (see the action mask)")
    if isinstance(action, numbers.Real) and not isinstance(action, (bool, np.bool_)) and not (
            math.isfinite(action) and float(action).is_integer()):
        raise TypeError(f"action {action!r} of {who} is not an integer of the action space Discrete({size})")
    hint = ""
    if hasattr(action, "kind"):  # an engine Action
        hint = "; for an engine action pass env.unwrapped.catalogue.encode(action, seat)"
    raise TypeError(f"action {action!r} ({type(action).__name__}) of {who} is not an integer of the action "
                    f"space Discrete({size}){hint}")


def legal_mask(indices, size: int, dtype: type = np.int8) -> np.ndarray:
    """A new mask of ``size`` entries, 1 (True) at ``indices``: set byte by byte in a ``bytearray`` and
    viewed as ``dtype`` (int8 or bool), cheaper than numpy's zeros and fancy assignment for the few legal
    actions of a decision."""
    mask = bytearray(size)
    for i in indices:
        mask[i] = 1
    return np.frombuffer(mask, dtype)


def final_rewards(env_like, game: Game, mode: str, win_bonus: float = 0.0) -> list[float]:
    """Per-seat rewards paid when the game ends under ``mode`` (uses the env's overridable hooks). Under
    ``"dense"`` that is only the win bonus (``win_bonus`` x the ``"win"`` rewards); the coins were paid
    as they were earned."""
    if mode == "win":
        return env_like.win_rewards(game)
    if mode == "score":
        return env_like.coin_scores(game)
    if mode == "dense":
        if not win_bonus:
            return [0.0] * game.num_players
        return [win_bonus * r for r in env_like.win_rewards(game)]
    return env_like.margin_rewards(game)


class BeanAECEnv(AECEnv):
    """The generic AEC env of one engine variant (set ``variant`` in the subclass)."""

    variant = ""
    metadata = {"render_modes": list(RENDER_MODES), "name": "bean_env", "is_parallelizable": False,
                "render_fps": 4}

    #: engine score units per coin (``hostile_takeover`` scores in hundredths)
    score_scale = 1

    def __init__(self, render_mode: str | None = None, reward_mode: str = "win", auto_forced: bool = True,
                 illegal_action: str = "terminate", win_bonus: float = 0.0, render_seat: int | None = None,
                 **config: Any):
        super().__init__()
        env_options(render_mode, reward_mode, auto_forced, illegal_action, win_bonus)
        check_option_names(self.variant, config)
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.win_bonus = float(win_bonus)
        self._paid: list[int] = []   # dense mode: engine score already paid out per seat
        self.auto_forced = auto_forced
        self.illegal_action = illegal_action
        self.config = validate(self.variant, config)
        probe = new_game(self.variant, seed=0, **self.config)
        self.catalogue = catalogue_of(probe)
        self.encoder = build_encoder(probe)  # its own memos (games side by side)
        n = probe.num_players
        check_render_seat(render_seat, n)
        self.render_seat = None if render_seat is None else int(render_seat)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=np.zeros(self.encoder.size, np.float32), high=self.encoder.high,
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.catalogue.size,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.catalogue.size) for a in self.possible_agents}
        self.game: Game | None = None
        self._rng: random.Random | None = None
        self._mask_for = -1          # history length the cached legal indices belong to
        self._mask_idx: list[int] = []

    # -- spaces -------------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- rewards (variants with other scoring override these) ----------------------------------------
    def win_rewards(self, game: Game) -> list[float]:
        """+1/k to each of the k winners (COM-11 shared win), -1 to every other seat."""
        winners = game.winners()
        share = 1.0 / len(winners) if winners else 0.0
        return [share if p in winners else -1.0 for p in range(game.num_players)]

    def coin_scores(self, game: Game) -> list[float]:
        """Each seat's score in coins (``game.scores()`` divided by ``score_scale``)."""
        return [x / self.score_scale for x in game.scores()]

    def dense_rewards(self, game: Game) -> list[float]:
        """Dense mode: the coins each seat earned since the last call (engine score minus what was paid);
        summed over an episode they equal the final score."""
        now = game.scores()
        paid, self._paid = self._paid, list(now)
        return [(x - y) / self.score_scale for x, y in zip(now, paid)]

    def margin_rewards(self, game: Game) -> list[float]:
        """Own score minus the best score among the other seats (own score when alone)."""
        sc = self.coin_scores(game)
        if len(sc) == 1:
            return sc
        return [sc[p] - max(sc[q] for q in range(len(sc)) if q != p) for p in range(len(sc))]

    # -- AEC API ------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = check_seed(seed)
        options = check_reset_options(options)
        start = None
        if options.get("game") is not None:  # checked before the env changes
            start = position_game(options["game"], self.variant, self.config)
        if seed is not None:  # the engine game of seed s, then a stream of seeds drawn from s
            self._rng = random.Random(seed)
            game_seed = seed
        else:
            if self._rng is None:
                self._rng = random.Random(secrets.randbits(64))
            game_seed = self._rng.getrandbits(62)
        self.game = start if start is not None else new_game(self.variant, seed=game_seed, **self.config)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._mask_for = -1
        self._paying = False  # whether ``rewards`` holds a non-zero payment (else all are 0.0)
        self.memory = self.encoder.new_memory().reset(self.game)  # public history the observation reads
        # dense mode pays the coins earned in this episode (from a given position: from there on)
        self._paid = list(self.game.scores()) if start is not None else [0] * len(self.agents)
        self._advance()
        self._accumulate_rewards()  # a game decided by forced moves alone pays at once
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        game = self.game
        state = game.state
        obs = self.encoder.encode_new(state, seat, self.memory)
        legal = self.legal_indices() if seat == state.actor and not state.over else ()
        return {"observation": obs, "action_mask": legal_mask(legal, self.catalogue.size)}

    def legal_indices(self) -> list[int]:
        """Catalogue indices of the current legal actions (cached per decision)."""
        game = self.game
        if self._mask_for != len(game.history):
            self._mask_idx = self.catalogue.encode_all(game.legal_actions(), game.state.actor)
            self._mask_for = len(game.history)
        return self._mask_idx

    def action_mask(self, agent=None):
        """The int8 mask of ``agent`` (default: the agent to act)."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        engine_action = self._decode(action, self.agent_name_mapping[agent], agent)  # raises before anything changes
        if engine_action is None:
            self._start_step(agent)
            self._illegal(agent, action)
            if self._paying:
                self._accumulate_rewards()
        else:
            self.apply_legal(engine_action)
        if self.render_mode == "human":
            self.render()

    def apply_legal(self, engine_action) -> None:
        """``step`` for the deciding agent with one of the current legal engine actions (an object of
        ``game.legal_actions()``; not checked): for drivers that checked the index themselves
        (``bean_env.vector``). Rewards, terminations and the next agent are set as ``step`` sets them."""
        self._start_step(self.agent_selection)
        game = self.game
        game.apply(engine_action)
        self.memory.update(game)
        self._advance()
        if self._paying:  # adding 0.0 rewards would change no sum
            self._accumulate_rewards()

    def _start_step(self, agent: str) -> None:
        """Clear what the last step paid (else every reward is 0.0 already)."""
        self._cumulative_rewards[agent] = 0.0
        if self._paying:
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._paying = False

    def _decode(self, action, seat: int, agent: str):
        """The engine action of a legal index; None for a masked index under ``illegal_action="terminate"``
        (``IllegalActionError`` under ``"raise"``); anything outside the action space raises
        (``check_action``)."""
        i = check_action(action, self.catalogue.size, agent)
        game = self.game
        # where an observation listed the legal indices, they decide at once; a driver that picks
        # without observing gets its index checked against the engine's legal list alone
        if self._mask_for != len(game.history) or i in self._mask_idx:
            found = self.catalogue.decode(i, seat)
            legal = game.legal_actions()
            try:  # the legal list's own object: ``Game.apply`` takes it without resolving it again
                return legal[legal.index(found)]
            except ValueError:
                pass
        if self.illegal_action == "raise":
            raise IllegalActionError(self.catalogue.decode(i, seat), game.decision, seat, game.legal_actions())
        return None

    def _illegal(self, agent, action) -> None:
        self._paying = True
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = 0.0
        self.rewards[agent] = -1.0
        self.infos[agent] = {"illegal_action": True, "action": action}

    def _advance(self) -> None:
        """Apply forced decisions (if enabled), then hand the turn to the deciding seat or finish."""
        game = self.game
        if self.auto_forced:
            while not game.state.over:
                legal = game.legal_actions()
                if len(legal) != 1:
                    break
                game.apply(legal[0])
                self.memory.update(game)
        if self.reward_mode == "dense":
            self._paying = True
            earned = self.dense_rewards(game)
            for a in self.agents:
                self.rewards[a] = earned[self.agent_name_mapping[a]]
        if game.is_truncated:
            for a in self.agents:
                self.truncations[a] = True
        elif game.state.over:
            self._paying = True
            rewards = final_rewards(self, game, self.reward_mode, self.win_bonus)
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] += rewards[self.agent_name_mapping[a]]
        else:
            self.agent_selection = self.possible_agents[game.state.actor]
            return
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if self.render_mode == "rgb_array":
            from ..render_image import render_rgb
            return None if self.game is None else render_rgb(self.game, viewer=self.render_seat)
        if self.game is None:
            return ""
        from ..render import render_game
        text = render_game(self.game, viewer=self.render_seat)
        game = self.game
        if not game.state.over and self.render_seat in (None, game.state.actor):  # the integers to step()
            from ..text.observation import listed_actions

            seat, legal = game.state.actor, game.legal_actions()
            listed = listed_actions(legal)  # of thousands of whole offers, a few
            text += "\nactions: " + ", ".join(f"{self.catalogue.encode(legal[i], seat)}={legal[i]}" for i in listed)
            if len(listed) < len(legal):
                text += (f" ... and {len(legal) - len(listed):,} more whole offers (every legal integer: the "
                         f"observation's action_mask)")
        if self.render_mode == "human":
            from ..render_image import show_human
            show_human(self, game, self.render_seat, text)
            return None
        return text

    def close(self) -> None:
        pass


def make_env_fn(raw_env_cls: type):
    """The standard ``env(**options)`` constructor: ``raw_env`` under the order checks of PettingZoo's
    ``OrderEnforcingWrapper``, done by our leaner ``wrappers.OrderEnforcer``."""
    def env(**kwargs) -> AECEnv:
        return OrderEnforcer(raw_env_cls(**kwargs))
    env.__doc__ = (f"{raw_env_cls.metadata['name']} AEC env with the order checks of PettingZoo's "
                   "OrderEnforcingWrapper (bean_env.envs.wrappers.OrderEnforcer).")
    return env
