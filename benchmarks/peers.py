"""Peer games and envs for the speed benchmarks, each driven the way its own users drive it.

Terms:
- *engine loop*: one game played through a game object with uniformly random legal actions; a
  *decision* is one action applied (chance outcomes of OpenSpiel games are sampled, not counted).
- *env loop*: one episode through PettingZoo's ``agent_iter``/``last``/``step`` with random masked
  actions; a *step* is one agent decision.

Every peer is built and seeded once and then reset per game, as its own users run it (building or
reseeding an RLCard env per game rebuilds its game object and halves its speed, which is not how
anyone trains on it). Each constructor returns ``None`` when its package is missing (the ``bench``
extra installs RLCard, PettingZoo's classic envs and OpenSpiel).
"""
from __future__ import annotations

import importlib
import random
import sys
from typing import Callable

import numpy as np

GameLoop = Callable[[], int]   # plays one game, returns its decisions


def _missing(what: str, err: Exception) -> None:
    print(f"{what}: skipped ({type(err).__name__}: {err}); pip install 'bean-env[bench]'", file=sys.stderr)


def rlcard_game_loop(name: str, seed: int = 0) -> GameLoop | None:
    """RLCard's game object (``UnoGame``/``BridgeGame``) built once, ``init_game()`` per game; the
    state dict it returns each step lists the legal actions, as its env reads them."""
    try:
        if name == "uno":
            from rlcard.games.uno.game import UnoGame as cls
        elif name == "bridge":
            from rlcard.games.bridge.game import BridgeGame as cls
        else:
            raise ValueError(f"no RLCard game loop for {name!r}")
    except ImportError as err:
        _missing(f"rlcard {name}", err)
        return None
    game = cls()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def legal(state) -> list:
        if name == "bridge":
            return game.judger.get_legal_actions()
        return state["legal_actions"]

    def play() -> int:
        state, _ = game.init_game()
        steps = 0
        while not game.is_over():
            actions = legal(state)
            state, _ = game.step(actions[rng.randrange(len(actions))])
            steps += 1
        return steps

    return play


def rlcard_env_loop(name: str, seed: int = 0) -> GameLoop | None:
    """``rlcard.make(name)`` built and seeded once, ``reset()`` per game (observations encoded)."""
    try:
        import rlcard
    except ImportError as err:
        _missing(f"rlcard {name} env", err)
        return None
    env = rlcard.make(name, config={"seed": seed})
    rng = random.Random(seed)

    def play() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            actions = list(state["legal_actions"])
            state, _ = env.step(actions[rng.randrange(len(actions))])
            steps += 1
        return steps

    return play


def openspiel_loop(name: str, seed: int = 0, **params) -> GameLoop | None:
    """An OpenSpiel C++ game loaded once (with ``params``); a new initial state per game, driven from
    Python with ``legal_actions``/``apply_action`` (chance outcomes sampled by their probabilities)."""
    try:
        import pyspiel
    except ImportError as err:
        _missing(f"openspiel {name}", err)
        return None
    game = pyspiel.load_game(name, params) if params else pyspiel.load_game(name)
    rng = random.Random(seed)

    def play() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
        return steps

    return play


def seeded_once(env, seed: int):
    """A reset function for ``env`` that seeds it at its first call only, then resets it unseeded (as an
    env's users run it: seeding again may rebuild a peer's game)."""
    first = [True]

    def reset() -> None:
        if first[0]:
            env.reset(seed=seed)
            first[0] = False
        else:
            env.reset()

    return reset


def aec_loop(env, seed: int = 0) -> GameLoop:
    """An AEC env seeded at its first reset only, then ``reset()`` per episode."""
    rng = random.Random(seed)
    reset = seeded_once(env, seed)

    def play() -> int:
        reset()
        steps = 0
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            env.step(action)
        return steps

    return play


# PettingZoo classic peers: (label, module)
PETTINGZOO_PEERS = [
    ("texas_holdem_v4", "pettingzoo.classic.texas_holdem_v4"),
    ("leduc_holdem_v4", "pettingzoo.classic.leduc_holdem_v4"),
    ("texas_holdem_no_limit_v6", "pettingzoo.classic.texas_holdem_no_limit_v6"),
    ("connect_four_v3", "pettingzoo.classic.connect_four_v3"),
    ("tictactoe_v3", "pettingzoo.classic.tictactoe_v3"),
]


def pettingzoo_loops(seed: int = 0) -> dict[str, GameLoop]:
    """The installed PettingZoo classic envs, each built once with its standard wrappers."""
    out = {}
    for label, module in PETTINGZOO_PEERS:
        try:
            out[label] = aec_loop(importlib.import_module(module).env(), seed)
        except Exception as err:  # noqa: BLE001 - a missing optional dependency of one peer
            _missing(label, err)
    return out
