"""Helpers for the hostile_takeover tests: build positions, act by text, check both conservations."""
from __future__ import annotations

from collections import Counter

from bean_env.cards import CODE
from bean_env.engine.takeover.positions import takeover_position  # noqa: F401  (re-exported)

B = CODE  # bean type codes by name


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def do(game, *moves: str) -> None:
    """Apply actions given by their str() (each must be legal)."""
    for m in moves:
        game.apply(m)


def texts_conserved(game) -> None:
    total = game.rules.text_locations(game.state)
    assert total == Counter(range(18)), f"text cards not conserved: {dict(total)}"


def pile(game, seat: int, field: int) -> list[str]:
    from bean_env.cards import NAMES
    return [NAMES[c] for c in game.state.piles[seat * 3 + field]]


def hundredths(game) -> list[int]:
    return game.scores()


def deal_texts(game, rng) -> None:
    """Deal the whole text deck out to random seats (``rng``), hands sorted: many text-card situations."""
    s = game.state
    while s.tdeck:
        s.texts[rng.randrange(s.n)].append(s.tdeck.pop())
    for hand in s.texts:
        hand.sort()
