"""Agents see only the view (INFO-1..3) and own their randomness (COM-12)."""
from __future__ import annotations

import random

import numpy as np
import pytest

import bean_env
from bean_env.agents import make_agent
from agentcases import case_id, cases, positions

AGENTS = {"random": {}, "heuristic": {}, "mcts": {"simulations": 4}}


@pytest.mark.parametrize("case", cases(), ids=case_id)
@pytest.mark.parametrize("name", sorted(AGENTS))
def test_info3_agents_act_identically_on_a_resampled_game(case, name):
    """INFO-3: an agent given the view of a game whose hidden cards were resampled
    (``view.sample_game(rng).view(p)``) acts exactly as on the real view, with the same seed."""
    variant, config = case
    for k, game in enumerate(positions(variant, config, seed=23, count=12)):
        p = game.current_player
        view = game.view(p)
        twin = view.sample_game(random.Random(1000 + k))
        assert twin.legal_actions() == game.legal_actions()
        real = make_agent(name, seed=k, **AGENTS[name]).act(view, game.legal_actions())
        other = make_agent(name, seed=k, **AGENTS[name]).act(twin.view(p), twin.legal_actions())
        assert real == other, f"{name} at {game.decision!r}: {real} on the real view, {other} on a twin"


def _play(variant: str, names, seed: int, scramble: bool) -> list:
    game = bean_env.new_game(variant, seed=seed)
    agents = [make_agent(n, seed=seed + p, **AGENTS[n]) for p, n in enumerate(names)]
    noise = random.Random(99)
    while not game.is_over:
        if scramble:  # RLCard-style: disturb the global generators between steps
            random.seed(noise.random())
            np.random.seed(noise.randrange(2**32))
        p = game.current_player
        game.apply(agents[p].act(game.view(p), game.legal_actions()))
    return [a.to_json() for a in game.history]


@pytest.mark.parametrize("names", [("heuristic", "random"), ("mcts", "heuristic")])
def test_com12_agents_never_touch_the_global_generators(names):
    """COM-12: the same seeds give the same game, whatever happens to the global random generators."""
    assert _play("bean_duel", names, 4, scramble=False) == _play("bean_duel", names, 4, scramble=True)


def test_agents_are_reproducible_and_seed_dependent():
    """Same seed, same actions; another seed may choose differently (the random agent does)."""
    game = positions("bohnanza", {"num_players": 3}, seed=5, count=1)[0]
    view, legal = game.view(game.current_player), game.legal_actions()
    picks = {make_agent("random", seed=s).act(view, legal) for s in range(30)}
    assert len(picks) > 1
    for name, kw in AGENTS.items():
        first = make_agent(name, seed=3, **kw).act(view, legal)
        assert make_agent(name, seed=3, **kw).act(view, legal) == first
