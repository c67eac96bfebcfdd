"""A text-only single-seat environment: observations and actions are strings (for language models).

    env = TextEnv("bean_duel", seat=0, opponents={1: make_agent("heuristic", seed=1)})
    text, info = env.reset(seed=3)          # info["legal"]: every legal action, numbered
    text, reward, terminated, truncated, info = env.step("0")

The text is ``observation_text`` + the numbered legal actions (``action_menu``: of thousands of whole
offers a few examples and one line on making the rest); an action is anything ``parse_actions``
reads (an index, an action string, a one-line offer, whose sub-decisions are all applied). The other
seats are played by the given agents (objects with ``act(view, legal_actions)``; this module imports
no agent). Reward, once at the end: the envs' ``reward_mode="win"`` reward of the seat (``1/k`` to each
of ``k`` winners, ``-1`` otherwise; the mafia variants and solitaire score by their own rule), ``0`` on
truncation. Unreadable text raises ``ActionParseError``
and changes nothing (``invalid="retry"`` instead returns the same observation with the error, reward 0).
"""
from __future__ import annotations

import importlib
import string
from typing import Any

import gymnasium
from gymnasium import spaces

from ..engine.config import validate
from ..engine.game import Game, new_game
from .observation import action_menu, legal_action_texts, observation_text
from .parse import ActionParseError, parse_actions

INVALID_MODES = ("raise", "retry")


class TextEnv(gymnasium.Env):
    """One seat of a game as text in, text out; see the module docstring."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant: str, seat: int = 0, opponents: dict | None = None, invalid: str = "raise",
                 render_mode: str | None = None, **config: Any):
        self.config = validate(variant, config)
        self.variant = variant
        n = self.config["num_players"]
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"bad value {seat!r} for 'seat'; allowed: 0..{n - 1}")
        opponents = dict(opponents or {})
        missing = [q for q in range(n) if q != seat and q not in opponents]
        if missing or set(opponents) - set(range(n)) or seat in opponents:
            others = ", ".join(str(q) for q in range(n) if q != seat)
            raise ValueError(f"'opponents' must map every other seat ({others}) to an agent; "
                             f"got seats {sorted(opponents)}")
        if invalid not in INVALID_MODES:
            raise ValueError(f"bad value {invalid!r} for 'invalid'; allowed: 'raise', 'retry'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"bad value {render_mode!r} for 'render_mode'; allowed: None, 'ansi'")
        self.seat, self.opponents, self.invalid, self.render_mode = seat, opponents, invalid, render_mode
        text = spaces.Text(max_length=100_000, charset=string.printable)
        self.observation_space = text
        self.action_space = spaces.Text(max_length=1_000, charset=string.printable)
        self.game: Game | None = None
        self._hooks = None

    def _advance(self) -> None:
        g = self.game
        while not g.is_over and g.current_player != self.seat:
            q = g.current_player
            g.apply(self.opponents[q].act(g.view(q), g.legal_actions()))

    def _obs(self, error: str | None = None) -> tuple[str, dict]:
        g = self.game
        view = g.view(self.seat)
        legal_actions = view.legal_actions() if not g.is_over else []
        legal = legal_action_texts(view, legal_actions) if legal_actions else []
        text = observation_text(g, self.seat)
        if legal:
            text += "\nLegal actions:\n" + "\n".join(action_menu(view, legal_actions))
        if error:
            text += f"\nYour last reply was not accepted: {error}"
        info = {"player": self.seat, "legal": legal, "decision": g.decision}
        if error:
            info["error"] = error
        return text, info

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[str, dict]:
        super().reset(seed=seed)
        game_seed = None if seed is None else int(seed)
        if game_seed is None:
            game_seed = int(self.np_random.integers(0, 2**62))
        self.game = new_game(self.variant, seed=game_seed, **self.config)
        for agent in self.opponents.values():
            agent.reset()
        self._advance()
        return self._obs()

    def _reward(self) -> float:
        g = self.game
        if g.is_truncated:
            return 0.0
        if self._hooks is None:  # the AEC env of this configuration, for its reward rule only
            module = importlib.import_module(f"bean_env.envs.{self.variant}_v1")
            self._hooks = module.raw_env(**self.config)
        return float(self._hooks.win_rewards(g)[self.seat])

    def step(self, action: str):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_over:
            raise RuntimeError("the game is over; call reset()")
        try:
            plan = parse_actions(action, self.game.view(self.seat))
        except ActionParseError as e:
            if self.invalid == "raise":
                raise
            text, info = self._obs(error=str(e))
            return text, 0.0, False, False, info
        for a in plan:
            self.game.apply(a)
        self._advance()
        text, info = self._obs()
        done = self.game.is_over
        truncated = done and self.game.is_truncated
        if done:
            info["scores"] = self.game.scores()
            info["winners"] = self.game.winners()
        return text, (self._reward() if done else 0.0), done and not truncated, truncated, info

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.game is not None:
            from ..render import render_game
            return render_game(self.game, viewer=self.seat)
        return None
