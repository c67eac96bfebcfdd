"""The pure rules engine: no RL imports here."""
from __future__ import annotations

# The five variants of the rules spec, in the order of the spec.
VARIANTS: tuple[str, ...] = ("bohnanza", "bean_duel", "al_cabohne", "bean_solitaire", "hostile_takeover")

_RULES: dict[str, type] = {}


def register_rules(variant: str, rules_class: type) -> None:
    _RULES[variant] = rules_class


def rules_for(variant: str, config: dict):
    """The rules object of a variant for a validated config."""
    if variant not in _RULES:
        raise ValueError(f"variant {variant!r} is not implemented yet; implemented: {', '.join(_RULES)}")
    return _RULES[variant](config)


def implemented() -> tuple[str, ...]:
    return tuple(v for v in VARIANTS if v in _RULES)


from .bohnanza import BohnanzaRules  # noqa: E402
from .duel import DuelRules  # noqa: E402
from .mafia import MafiaRules, SolitaireRules  # noqa: E402
from .takeover import TakeoverRules  # noqa: E402

register_rules("bohnanza", BohnanzaRules)
register_rules("bean_duel", DuelRules)
register_rules("al_cabohne", MafiaRules)
register_rules("bean_solitaire", SolitaireRules)
register_rules("hostile_takeover", TakeoverRules)
