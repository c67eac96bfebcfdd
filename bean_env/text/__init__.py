"""Text interface for language-model agents: observations, numbered legal actions, action parsing,
rules summaries and a text-only environment. Pure Python over the engine (no extra dependency).

    from bean_env.text import observation_text, legal_action_texts, parse_actions
    print(observation_text(game, game.current_player))
    print("\\n".join(action_menu(game)))       # legal_action_texts(game): every action, listed
    for action in parse_actions("offer all give red want stink", game):
        game.apply(action)
"""
from .observation import (DECISIONS, action_menu, action_text, as_view, legal_action_texts, observation_text,
                          view_legal)
from .parse import ActionParseError, normalise, parse_action, parse_actions
from .rules_summary import rules_summary

__all__ = ["DECISIONS", "ActionParseError", "action_menu", "action_text", "as_view", "legal_action_texts", "normalise",
           "observation_text", "parse_action", "parse_actions", "rules_summary", "view_legal"]


def __getattr__(name: str):
    if name == "TextEnv":  # the env pulls in gymnasium; the rest is pure Python
        from .env import TextEnv
        return TextEnv
    raise AttributeError(name)
