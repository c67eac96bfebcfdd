"""bean_env variants as OpenSpiel Python games (``pyspiel``), built on the engine and the env adapters.

Each variant ``V`` is registered as ``python_V`` (``pyspiel.load_game("python_bean_duel")``,
``pyspiel.load_game("python_bohnanza", {"num_players": 3})``). Parameters: every rule option of the
variant (an option whose default is ``None`` is the int 0 for a number option such as ``max_offer_cards``,
else the string ``"none"``; with ``trade_preset``, the preset's options yield only to non-default
values, as pyspiel fills in every default), plus
- ``num_deals`` (default 1000): the size of the deal distribution (below),
- ``seed_offset`` (default 0): deal ``i`` is the engine game with seed ``seed_offset + i``,
- ``reward``: ``"win"`` (default; +1/k to each of k winners, -1 to the others, the variant's own rule
  for the mafia and solitaire, as the envs' ``reward_mode="win"``), ``"score"`` (coins) or ``"margin"``.

Chance (the documented seeded alternative to a chance node per shuffle): a shuffle of 104-154 cards has
far too many outcomes to list, so the game starts with ONE chance node that draws a deal uniformly from
``num_deals`` deals; the engine's seeded shuffles (the deal and every reshuffle at a run-out) then follow
from that deal's seed (COM-12). Players never observe the seed or the deck order (INFO-3), so for them
the game is the card game over a uniformly drawn deal; the deal distribution has ``num_deals`` points.

Actions are the envs' action catalogue (``bean_env.engine.catalogue``): the same integers as the
PettingZoo/gymnasium envs; ``action_to_string`` is the engine's text. Tensors are the envs' observation
encoder (``bean_env.envs.observation``); ``information_state_tensor`` is that same vector (it carries the
public facts the envs use, not the whole action history, so it is not perfect recall);
``information_state_string`` is perfect recall: the text observation (``bean_env.text``) followed by the
player's masked action history. Serialisation and ``clone`` replay/copy the action history.
"""
from __future__ import annotations

import copy
import importlib
from typing import Any

import numpy as np
import pyspiel

from ..engine import VARIANTS
from ..engine.config import OPTIONS, TRADE_PRESETS, validate
from ..engine.game import Game, new_game
from ..text import observation_text

REWARDS = ("win", "score", "margin")
GAME_PREFIX = "python_"
_EXTRA_PARAMS = {"num_deals": 1000, "seed_offset": 0, "reward": "win"}
# upper bounds on decisions per game, for OpenSpiel's buffers (random play takes about 200-1500)
_MAX_LENGTH = {"bohnanza": 100_000, "bean_duel": 10_000, "al_cabohne": 10_000, "bean_solitaire": 5_000}


def _none_as_zero(variant: str, name: str) -> bool:
    """An option whose default is None and that takes whole numbers >= 1: parameter 0 means None."""
    opt = OPTIONS[variant][name]
    return opt.default is None and opt.check(1)


def _param_spec(variant: str) -> dict[str, Any]:
    spec = {}
    for name, opt in OPTIONS[variant].items():
        if opt.default is None:
            spec[name] = 0 if _none_as_zero(variant, name) else "none"
        else:
            spec[name] = opt.default
    spec.update(_EXTRA_PARAMS)
    return spec


def _option_value(variant: str, name: str, value: Any) -> Any:
    if OPTIONS[variant][name].default is None:
        if _none_as_zero(variant, name) and value == 0:
            return None
        if isinstance(value, str) and value.strip().lower() in ("none", ""):
            return None
    return value


def _env_of(variant: str, config: dict):
    """The AEC env of this configuration (not stepped): catalogue, encoder and reward hooks
    (``win_rewards``, ``coin_scores``, ``margin_rewards``)."""
    module = importlib.import_module(f"bean_env.envs.{variant}_v1")
    return module.raw_env(reward_mode="win", **config)


class BeanGame(pyspiel.Game):
    """One variant with one configuration, as an OpenSpiel game."""

    variant = ""

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        info, _ = self._configure(params)
        super().__init__(_GAME_TYPES[self.variant], info, params)

    def _configure(self, params: dict):
        """Read the parameters; set the configuration, catalogue, encoder and reward hooks."""
        spec = _param_spec(self.variant)
        unknown = set(params) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)} for {GAME_PREFIX}{self.variant}; "
                             f"allowed: {', '.join(spec)}")
        full = {**spec, **params}
        config = {k: _option_value(self.variant, k, params[k]) for k in OPTIONS[self.variant] if k in params}
        preset = TRADE_PRESETS.get(config.get("trade_preset") or "", {})
        for k in preset:  # pyspiel fills in every default, so a preset yields only to non-default values
            if k in config and params[k] == spec[k]:
                del config[k]
        self.config = validate(self.variant, config)
        self.num_deals = int(full["num_deals"])
        self.seed_offset = int(full["seed_offset"])
        self.reward = full["reward"]
        if self.num_deals < 1:
            raise ValueError(f"bad value {self.num_deals!r} for parameter 'num_deals'; allowed: an int >= 1")
        if self.reward not in REWARDS:
            raise ValueError(f"bad value {self.reward!r} for parameter 'reward'; allowed: {', '.join(REWARDS)}")
        probe = new_game(self.variant, seed=self.seed_offset, **self.config)
        # the env of this configuration: its action catalogue, observation encoder and reward hooks
        self.hooks = _env_of(self.variant, self.config)
        self.catalogue = self.hooks.catalogue
        self.encoder = self.hooks.encoder
        n = probe.num_players
        if self.reward == "win":
            lo, hi = -1.0, 1.0
        else:
            top = float(sum(probe.rules.composition().values())) / self.hooks.score_scale * 3
            lo, hi = (-top if self.reward == "margin" else 0.0), top
        cfg = self.config
        if self.variant == "hostile_takeover":
            length = cfg["max_turns"] * (cfg["max_actions_per_turn"] + 10) * n * 4
        else:
            length = _MAX_LENGTH[self.variant]
        info = pyspiel.GameInfo(num_distinct_actions=self.catalogue.size, max_chance_outcomes=self.num_deals,
                                num_players=n, min_utility=lo, max_utility=hi, utility_sum=None,
                                max_game_length=length)
        return info, full

    def __getattr__(self, name: str):
        # a game rebuilt by pickle skips __init__: configure it from its parameters on first use
        if name in ("config", "num_deals", "seed_offset", "reward", "catalogue", "encoder", "hooks"):
            self._configure(dict(self.get_parameters()))
            return object.__getattribute__(self, name)
        raise AttributeError(name)

    def new_initial_state(self) -> "BeanState":
        return BeanState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "BeanObserver":
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return BeanObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Shared:
    """Holds an object that state copies share (the game: configuration, catalogue, encoder)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __deepcopy__(self, memo):
        return self


class _Engine:
    """Holds the engine game and, where the env's encoder has one, its history memory (public facts
    the state forgets, e.g. this turn's offers). A deep copy clones the game (sharing the rules) and
    copies the memory onto the clone's history."""

    __slots__ = ("game", "memory")

    def __init__(self, game: Game | None = None, encoder=None):
        self.game = game
        self.memory = None
        if game is not None and hasattr(encoder, "new_memory"):
            self.memory = encoder.new_memory().reset(game)

    def apply(self, action) -> None:
        self.game.apply(action)
        if self.memory is not None:
            self.memory.update(self.game)

    def encode(self, encoder, seat: int) -> np.ndarray:
        if self.memory is None:
            return encoder.encode(self.game.state, seat)
        return encoder.encode(self.game.state, seat, self.memory)

    def __deepcopy__(self, memo):
        new = _Engine()
        if self.game is not None:
            new.game = self.game.clone()
            if self.memory is not None:
                keep = {id(v): v for v in vars_of(self.memory) if not isinstance(v, (list, dict, set))}
                keep[id(self.game.history)] = new.game.history
                new.memory = copy.deepcopy(self.memory, keep)
        return new


def vars_of(obj) -> list:
    """The attribute values of ``obj`` (``__dict__`` and ``__slots__``)."""
    names = list(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        names += [n for n in getattr(cls, "__slots__", ()) if isinstance(n, str)]
    return [getattr(obj, n) for n in names if hasattr(obj, n)]


class BeanState(pyspiel.State):
    """A deal not yet drawn (chance node), then a running engine ``Game``. (pyspiel clones a Python
    state by deep-copying its attributes; the holders above keep that cheap.)"""

    def __init__(self, game: BeanGame):
        super().__init__(game)
        self._shared = _Shared(game)
        self._engine = _Engine(None)

    @property
    def _bean(self) -> BeanGame:
        return self._shared.obj

    @property
    def game(self) -> Game | None:
        """The engine game (None before the deal is drawn)."""
        return self._engine.game

    def current_player(self) -> int:
        g = self.game
        if g is None:
            return pyspiel.PlayerId.CHANCE
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        return g.current_player

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game
        if g is None or g.is_over or player != g.current_player:
            return []
        return sorted(self._bean.catalogue.encode_all(g.legal_actions(), player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.game is None, "chance_outcomes() outside the chance node"
        p = 1.0 / self._bean.num_deals
        return [(i, p) for i in range(self._bean.num_deals)]

    def _apply_action(self, action: int) -> None:
        bean = self._bean
        if self.game is None:
            if not 0 <= action < bean.num_deals:
                raise ValueError(f"bad deal {action}; allowed: 0..{bean.num_deals - 1}")
            self._engine = _Engine(new_game(bean.variant, seed=bean.seed_offset + int(action), **bean.config),
                                   bean.encoder)
            return
        seat = self.game.current_player
        self._engine.apply(bean.catalogue.decode(int(action), seat))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self._bean.catalogue.decode(int(action), player))

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over

    def returns(self) -> list[float]:
        g, bean = self.game, self._bean
        n = bean.num_players()
        if g is None or not g.is_over or g.is_truncated:
            return [0.0] * n
        hooks = bean.hooks
        if bean.reward == "win":
            return [float(x) for x in hooks.win_rewards(g)]
        if bean.reward == "score":
            return [float(x) for x in hooks.coin_scores(g)]
        return [float(x) for x in hooks.margin_rewards(g)]

    def __str__(self) -> str:
        if self.game is None:
            return f"{self._bean.variant}: deal not drawn yet"
        from ..render import render_game
        return render_game(self.game)


class BeanObserver:
    """The PyObserver of a variant: the env encoder's vector, and text (``bean_env.text``)."""

    def __init__(self, game: BeanGame, iig_obs_type):
        self._game = game
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BeanState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state._engine.encode(self._game.encoder, player)

    def string_from(self, state: BeanState, player: int) -> str:
        if state.game is None:
            return f"player {player}: the deal is not drawn yet"
        text = observation_text(state.game, player)
        if self._perfect_recall:
            history = state.game.view(player).history  # masked (INFO-3)
            text += "\nHistory: " + "; ".join(str(a) for a in history)
        return text


def _game_type(variant: str) -> pyspiel.GameType:
    opts = OPTIONS[variant]
    nmin, nmax = {"bohnanza": (3, 7), "bean_duel": (2, 2), "al_cabohne": (2, 2), "bean_solitaire": (1, 1),
                  "hostile_takeover": (2, 5)}[variant]
    assert "num_players" in opts
    return pyspiel.GameType(
        short_name=GAME_PREFIX + variant, long_name=f"bean_env {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=nmax, min_num_players=nmin,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_param_spec(variant))


_GAME_TYPES: dict[str, pyspiel.GameType] = {v: _game_type(v) for v in VARIANTS}


# One class per variant, defined at module level so that pickle finds them by name.
class BohnanzaGame(BeanGame):
    variant = "bohnanza"


class BeanDuelGame(BeanGame):
    variant = "bean_duel"


class AlCabohneGame(BeanGame):
    variant = "al_cabohne"


class BeanSolitaireGame(BeanGame):
    variant = "bean_solitaire"


class HostileTakeoverGame(BeanGame):
    variant = "hostile_takeover"


GAME_CLASSES: dict[str, type] = {c.variant: c for c in (BohnanzaGame, BeanDuelGame, AlCabohneGame,
                                                          BeanSolitaireGame, HostileTakeoverGame)}


def register_all() -> list[str]:
    """Register every variant with pyspiel (idempotent); returns the OpenSpiel short names."""
    registered = set(pyspiel.registered_names())
    for variant, cls in GAME_CLASSES.items():
        if GAME_PREFIX + variant not in registered:
            pyspiel.register_game(_GAME_TYPES[variant], cls)
    return [GAME_PREFIX + v for v in GAME_CLASSES]

