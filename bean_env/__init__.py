"""bean_env: reinforcement-learning environments for Bohnanza and its variants.

Engine: ``new_game``, ``Game``, ``replay``, ``IllegalActionError``, ``GameFileError``, ``PlayerView``.
Environments (PettingZoo AEC): ``bean_env.bohnanza_v1``, ``bean_env.bean_duel_v1``, ...
"""
from __future__ import annotations

import importlib

from .engine import VARIANTS, implemented
from .engine.actions import Action, Kind
from .engine.game import Game, IllegalActionError, new_game, replay
from .engine.loading import GameFileError
from .engine.views import PlayerView

__version__ = "0.1.0"

__all__ = ["VARIANTS", "Action", "Game", "GameFileError", "IllegalActionError", "Kind", "PlayerView",
           "implemented", "new_game", "replay"]

_ENV_MODULES = {f"{v}_v1" for v in VARIANTS}

# gymnasium / PettingZoo ids, registered without importing either (see envs/registration.py)
from .envs.registration import register_all as _register_envs  # noqa: E402

_register_envs()


def __getattr__(name: str):
    # environment modules import pettingzoo; load them only when asked for
    if name in _ENV_MODULES:
        return importlib.import_module(f".envs.{name}", __name__)
    from .envs.registration import retired_message, retired_module
    current = retired_module(name)
    if current is not None:
        raise AttributeError(retired_message(f"bean_env.{name}", f"bean_env.{current}"))
    raise AttributeError(f"module 'bean_env' has no attribute {name!r}")
