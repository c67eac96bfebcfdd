"""The takeover heuristic (agents/heuristic/takeover.py): always legal, uses takeovers, defences and
text cards, and beats random play."""
from __future__ import annotations

from collections import Counter

import pytest

from bean_env.agents import make_agent
from bean_env import Kind, new_game


def _play(n: int, seed: int, names: list[str]):
    g = new_game("hostile_takeover", seed=seed, num_players=n)
    agents = [make_agent(names[p % len(names)], seed=seed * 10 + p) for p in range(n)]
    kinds = Counter()
    while not g.is_over:
        p = g.current_player
        legal = g.legal_actions()
        action = agents[p].act(g.view(p), legal)
        assert action in legal
        if names[p % len(names)] == "heuristic":
            kinds[Kind(action.kind).name] += 1
        g.apply(action)
    return g, kinds


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_heuristic_beats_random_and_uses_the_expansion(n):
    """HT-11/HT-12/TXT-*: over seeded games the heuristic scores more than random seats and plays
    takeovers and text cards."""
    totals = Counter()
    used = Counter()
    for seed in range(4):
        names = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        g, kinds = _play(n, seed, names)
        assert not g.is_truncated
        used.update(kinds)
        for p, score in enumerate(g.scores()):
            totals[names[p % 2]] += score
    assert totals["heuristic"] > totals["random"]
    assert used["HT_TEXT"] + used["HT_MODIFY"] > 0
