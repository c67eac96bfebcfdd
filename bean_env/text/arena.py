"""bean_env variants behind TextArena's env interface (optional: ``pip install textarena``).

    import textarena as ta
    from bean_env.text.arena import register_textarena
    register_textarena()                           # ids "bean_env-<variant>-v0"
    env = ta.make("bean_env-bohnanza-v0")           # or BeanArenaEnv("bohnanza", max_trade_rounds=1)
    env.reset(num_players=4, seed=1)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(action=my_agent(observation))
    rewards, game_info = env.close()

An observation is ``observation_text`` plus the numbered legal actions (and the error of a rejected
reply); an action is anything ``parse_actions`` reads (an index, an action text, a one-line offer).
As in TextArena's own games, a player whose reply cannot be read is told why and may try again
``error_allowance`` times in a row; one more invalid reply ends the game: that player gets -1, the
others 0. Otherwise rewards are the envs' win rewards: +1/k to each of k winners, -1 to the others
(the mafia variants and solitaire: the variant's own win rule, as ``reward_mode="win"``).
"""
from __future__ import annotations

import importlib
import numbers
from typing import Any, Optional

import textarena as ta

from ..engine import VARIANTS
from ..engine.config import validate
from ..engine.game import Game, new_game
from .observation import action_menu, observation_text
from .parse import ActionParseError, parse_actions
from .rules_summary import rules_summary

ID_FORMAT = "bean_env-{variant}-v0"


def _win_rewards(game: Game) -> list[float]:
    """The envs' ``reward_mode="win"`` rewards of a finished game."""
    module = importlib.import_module(f"bean_env.envs.{game.variant}_v1")
    return [float(x) for x in module.raw_env(**game.config).win_rewards(game)]


class BeanArenaEnv(ta.Env):
    """One bean_env variant as a TextArena env (see the module docstring)."""

    def __init__(self, variant: str = "bohnanza", error_allowance: int = 1, **config: Any):
        validate(variant, config)  # fail early on a bad option
        if not isinstance(error_allowance, int) or error_allowance < 0:
            raise ValueError(f"bad value {error_allowance!r} for 'error_allowance'; allowed: an int >= 0")
        self.variant, self.config, self.error_allowance = variant, dict(config), error_allowance
        self.game: Game | None = None

    def reset(self, num_players: int, seed: Optional[int] = None) -> None:
        if self.config.get("num_players", num_players) != num_players:
            raise ValueError(f"bad num_players {num_players!r}: this env was made with "
                             f"num_players={self.config['num_players']}")
        if seed is not None and not isinstance(seed, bool) and isinstance(seed, numbers.Integral):
            seed = int(seed)  # numpy integers too
        self.game = new_game(self.variant, seed=seed, **{**self.config, "num_players": num_players})
        self.errors = 0
        self.pending_error: str | None = None
        self.rewards: dict[int, float] | None = None
        n = num_players
        self.game_info = {p: {"role": f"Player {p}", "invalid_move": False, "turn_count": 0, "reason": ""}
                          for p in range(n)}
        self.prompt_sent = [False] * n

    @property
    def current_player(self) -> int:
        return self.game.current_player

    def get_observation(self) -> tuple[int, str]:
        if self.game is None:
            raise RuntimeError("call reset() first")
        p = self.game.current_player
        parts = []
        if p >= 0 and not self.prompt_sent[p]:
            parts.append("Rules summary:\n" + rules_summary(self.variant))
            self.prompt_sent[p] = True
        parts.append(observation_text(self.game, p if p >= 0 else 0))
        if p >= 0:
            parts.append("Legal actions:\n" + "\n".join(action_menu(self.game)))
            parts.append("Reply with the number or the text of one legal action, or a one-line offer "
                         "(`offer all give red want stink`).")
        if self.pending_error:
            parts.append(f"Your last reply was not accepted: {self.pending_error}")
        return p, "\n\n".join(parts)

    def step(self, action: str) -> tuple[bool, dict]:
        g = self.game
        if g is None:
            raise RuntimeError("call reset() first")
        if self.rewards is not None:
            return True, {"reason": "the game is over"}
        p = g.current_player
        try:
            plan = parse_actions(action, g.view(p))
        except ActionParseError as e:
            self.errors += 1
            if self.errors > self.error_allowance:
                self.rewards = {q: (-1.0 if q == p else 0.0) for q in range(g.num_players)}
                self.game_info[p]["invalid_move"] = True
                for q in self.game_info:
                    self.game_info[q]["reason"] = f"player {p} made {self.errors} invalid moves in a row"
                return True, {"invalid_move": True, "error": str(e)}
            self.pending_error = str(e)
            return False, {"invalid_move": True, "error": str(e)}
        self.errors, self.pending_error = 0, None
        for a in plan:
            g.apply(a)
        self.game_info[p]["turn_count"] += 1
        if g.is_over:
            rewards = [0.0] * g.num_players if g.is_truncated else _win_rewards(g)
            self.rewards = dict(enumerate(rewards))
            reason = "truncated" if g.is_truncated else f"scores {g.scores()}, winners {g.winners()}"
            for q in self.game_info:
                self.game_info[q]["reason"] = reason
            return True, {"scores": g.scores(), "winners": g.winners()}
        return False, {}

    def close(self) -> tuple[dict, dict]:
        return self.rewards, self.game_info


def register_textarena() -> list[str]:
    """Register ``bean_env-<variant>-v0`` with TextArena's ``make`` (idempotent); returns the ids."""
    from textarena.envs.registration import ENV_REGISTRY, register
    ids = []
    for variant in VARIANTS:
        env_id = ID_FORMAT.format(variant=variant)
        if env_id not in ENV_REGISTRY:
            register(id=env_id, entry_point=BeanArenaEnv, variant=variant)
        ids.append(env_id)
    return ids
